import { describe, expect, it } from 'vitest';
import { addDaysIso, toIsoDate, toIsoDateByPattern } from './dates.ts';

describe('wire dates', () => {
  it('reads the results format MM/DD/YYYY', () => {
    expect(toIsoDate('03/05/2026')).toBe('2026-03-05');
  });

  it('reads the training format with a month name and a time', () => {
    expect(toIsoDate('March 05 2026 00:00:00')).toBe('2026-03-05');
    expect(toIsoDate('september 30 2025 13:45:00')).toBe('2025-09-30');
  });

  it('refuses impossible dates rather than guessing', () => {
    expect(toIsoDate('02/30/2026')).toBe('');
    expect(toIsoDate('Febtember 05 2026 00:00:00')).toBe('');
  });

  it('gives the same answer on its fast path as the general patterns, for every shape', () => {
    const samples = [
      '03/05/2026',
      '3/5/2026',
      '13/05/2026',
      '00/10/2020',
      '12/31/9999',
      '1a/05/2026',
      '03/05/20x6',
      '03-05-2026',
      '2026-03-05',
      '2026-03-05T10:00:00Z',
      '2026-02-29',
      '2024-02-29',
      'March 05 2026 00:00:00',
      'March 5 2026',
      'March 05, 2026',
      'MARCH 05 2026 00:00:00',
      'March 05 2026 0:00',
      'March 05 2026 00:00:0x',
      'March 32 2026 00:00:00',
      'Mar 05 2026 00:00:00',
      'May 05 2026 00:00:00',
      'Maybe 05 2026 00:00:00',
      'March  05 2026 00:00:00',
      ' March 05 2026 00:00:00 ',
      'March 05 2026 00:00:00 extra',
      '',
      ' ',
      'not a date',
      '05 2026 00:00:00 March',
    ];
    for (const s of samples) expect([s, toIsoDate(s)]).toEqual([s, toIsoDateByPattern(s.trim())]);
  });
});

describe('adding days to an ISO date (remembered: the report asks the same few sums again and again)', () => {
  it('gives each sum of its own, the same date with other days included, and again when asked again', () => {
    for (let round = 0; round < 2; round += 1) {
      expect(addDaysIso('2026-02-27', 2)).toBe('2026-03-01');
      expect(addDaysIso('2026-02-27', -30)).toBe('2026-01-28');
      expect(addDaysIso('2024-02-28', 2)).toBe('2024-03-01');
      expect(addDaysIso('2026-02-27', 0)).toBe('2026-02-27');
      expect(addDaysIso('not a day', 2)).toBe('');
    }
  });

  it('stays right past what it remembers (more dates and more counts of days than it keeps)', () => {
    const start = Date.UTC(2000, 0, 1);
    const iso = (n: number) => new Date(start + n * 86_400_000).toISOString().slice(0, 10);
    for (let n = 0; n < 25_000; n += 1) addDaysIso(iso(n), 30);
    for (let days = 0; days < 40; days += 1) expect(addDaysIso('2026-12-31', days)).toBe(iso(9_861 + days));
    for (let n = 0; n < 25_000; n += 997) expect(addDaysIso(iso(n), 30)).toBe(iso(n + 30));
  });
});
