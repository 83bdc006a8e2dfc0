import { describe, expect, it } from 'vitest';
import { addDaysIso } from '../src/shared/dates.ts';
import {
  chance,
  completedOn,
  countOnDay,
  dayRates,
  jsonBytes,
  renewalOn,
  yearFromDays,
} from './history-lib.ts';

const days = (from: string, n: number) => Array.from({ length: n }, (_, i) => addDaysIso(from, i));

describe('the simulated renewals', () => {
  const credentials = Array.from({ length: 400 }, (_, i) => ({
    id: `${i}-7`,
    startIso: '2025-03-01',
    expirationIso: '2026-03-01',
  }));
  const window = days('2026-01-01', 120);
  const renewalDays = (a: (typeof credentials)[number]) => window.filter((d) => renewalOn(a, d) !== null);

  it('renews a credential at most once, between 30 days before its expiry and 15 days after', () => {
    for (const a of credentials) {
      const on = renewalDays(a);
      expect(on.length).toBeLessThanOrEqual(1);
      if (on[0]) expect(on[0] >= '2026-01-30' && on[0] <= '2026-03-16').toBe(true);
    }
  });

  it('leaves about one credential in ten to lapse', () => {
    const lapsed = credentials.filter((a) => renewalDays(a).length === 0).length;
    expect(lapsed).toBeGreaterThan(20);
    expect(lapsed).toBeLessThan(70);
  });

  it('keeps the validity the credential had, from the day of the renewal', () => {
    const a = credentials.find((c) => renewalDays(c).length === 1)!;
    const day = renewalDays(a)[0]!;
    expect(renewalOn(a, day)).toEqual({ startIso: day, expirationIso: addDaysIso(day, 365) });
  });

  it('gives a credential with no start date a year, and never renews one that does not expire', () => {
    const undated = credentials
      .map((a) => ({ ...a, startIso: '' }))
      .find((a) => renewalDays(a).length === 1)!;
    const day = renewalDays(undated)[0]!;
    expect(renewalOn(undated, day)?.expirationIso).toBe(addDaysIso(day, 365));
    expect(window.some((d) => renewalOn({ ...undated, expirationIso: '' }, d))).toBe(false);
  });
});

describe('the simulated training', () => {
  it('completes open training at most once, from 60 days before it is due to 20 days after, and leaves some', () => {
    const training = Array.from({ length: 300 }, (_, i) => ({ transcriptid: i, dueIso: '2026-06-01' }));
    const counts = training.map((t) => days('2026-01-01', 300).filter((d) => completedOn(t, d)));
    for (const on of counts) {
      expect(on.length).toBeLessThanOrEqual(1);
      if (on[0]) expect(on[0] >= '2026-04-02' && on[0] <= '2026-06-21').toBe(true);
    }
    const never = counts.filter((on) => on.length === 0).length;
    expect(never).toBeGreaterThan(60);
    expect(never).toBeLessThan(120);
  });
});

describe('counts of a day', () => {
  it('gives whole numbers that add up to the rate over the days', () => {
    const counts = Array.from({ length: 365 }, (_, i) => countOnDay(8.2, i));
    expect(counts.every((n) => n === 8 || n === 9)).toBe(true);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2993);
    expect(Array.from({ length: 10 }, (_, i) => countOnDay(0.3, i)).reduce((a, b) => a + b, 0)).toBe(3);
  });

  it('hires and loses 15% of the people a year, and assigns training at the dataset pace', () => {
    expect(dayRates(20_000, 400_000)).toEqual({ training: 1000, hires: 3000 / 365, leavers: 3000 / 365 });
  });

  it('rolls the same dice for the same key in every run', () => {
    expect(chance('12-34', 'lead')).toBe(chance('12-34', 'lead'));
    expect(chance('12-34', 'lead')).not.toBe(chance('12-35', 'lead'));
  });
});

describe("the year's size", () => {
  it('counts a row as its JSON text in UTF-8 bytes', () => {
    expect(jsonBytes({ a: 'é' })).toBe(10);
  });

  it('counts bytes stored as such (a packed row) as their length, not as their JSON text', () => {
    expect(jsonBytes({ rows: new Uint8Array(100) })).toBe('{"rows":""}'.length + 100);
  });

  it('carries the days measured on to 365 syncs, per site and per 1,000 people', () => {
    const year = yearFromDays({ first: 1000, daily: 2 * 7, days: 7, people: 4000, sites: 2 });
    expect(year.bytesPerYear).toBe(1000 + 2 * 364);
    expect(year.perSitePerYear).toBe(year.bytesPerYear / 2);
    expect(year.perThousandPeoplePerYear).toBe(year.bytesPerYear / 4);
  });

  it('is the measured size itself when a whole year was measured', () => {
    expect(yearFromDays({ first: 500, daily: 364 * 3, days: 364, people: 1000, sites: 1 }).bytesPerYear).toBe(
      500 + 364 * 3,
    );
  });
});
