import { describe, expect, it } from 'vitest';
import type { SyncChangeLog } from '../../sync/log.ts';
import {
  changeWords,
  changesSince,
  countsByKind,
  countsOfSync,
  filterChanges,
  periodWords,
} from './view-model.ts';

const log = (seq: number, changes: SyncChangeLog['changes']): SyncChangeLog => ({
  seq,
  syncId: `s${seq}`,
  at: `2026-03-0${seq}T10:00:00Z`,
  outcome: 'completed',
  since: '',
  counts: {},
  changes,
  omitted: 0,
});

const logs = [
  log(1, [{ k: 'person.added', u: 1 }]),
  log(2, [{ k: 'person.status', u: 2, d: 'Active → Inactive' }]),
  log(3, [
    { k: 'person.removed', u: 3, s: 202 },
    { k: 'credential.added', u: 2 },
  ]),
];

describe('the changes since a sync', () => {
  it('covers the last sync only, or every sync since the one chosen', () => {
    expect(changesSince(logs, 3).map((c) => c.k)).toEqual(['person.removed', 'credential.added']);
    expect(changesSince(logs, 2).map((c) => c.u)).toEqual([3, 2, 2]);
    expect(changesSince(logs, null)).toHaveLength(4);
  });

  it('filters by site (a removed person by the site they had) and by group', () => {
    const all = changesSince(logs, null);
    const siteOf = (userid: number) => (userid === 1 ? 101 : userid === 2 ? 202 : undefined);
    expect(
      filterChanges(all, { siteid: 202, members: null }, siteOf)
        .map((c) => c.u)
        .sort(),
    ).toEqual([2, 2, 3]);
    expect(filterChanges(all, { siteid: null, members: new Set([1]) }, siteOf).map((c) => c.k)).toEqual([
      'person.added',
    ]);
  });

  it('counts by kind in a fixed order', () => {
    expect(countsByKind(changesSince(logs, null))).toEqual([
      { kind: 'person.added', count: 1 },
      { kind: 'person.removed', count: 1 },
      { kind: 'person.status', count: 1 },
      { kind: 'credential.added', count: 1 },
    ]);
  });

  it("sums a sync by what it counted, not by the part of it the log lists (the dashboard's line)", () => {
    const big: SyncChangeLog = {
      ...log(4, [{ k: 'training.completed', u: 1 }]),
      counts: { 'training.completed': 7_200, 'person.added': 3 },
      omitted: 7_202,
    };
    expect(countsOfSync(big)).toEqual([
      { kind: 'person.added', count: 3 },
      { kind: 'training.completed', count: 7_200 },
    ]);
  });
});

describe('the words of a period and of a change', () => {
  const at = (hhmm: string, day = '2026-03-02') => `${day}T${hhmm}:00Z`;
  const options = { now: new Date(at('12:00')), locale: 'en-GB', timeZone: 'UTC' };

  it('names the period a sync covers from the sync before it to its end', () => {
    expect(periodWords(at('10:55'), at('11:01'), options)).toBe('from 10:55 to 11:01');
  });

  it('adds the date when the period did not start today', () => {
    expect(periodWords(at('21:10', '2026-03-01'), at('11:01'), options)).toBe(
      'from 1 Mar 2026, 21:10 to 2 Mar 2026, 11:01',
    );
    expect(periodWords(at('09:00', '2026-02-27'), at('10:00', '2026-02-27'), options)).toBe(
      'from 27 Feb 2026, 09:00 to 10:00',
    );
  });

  it('names one time when the sync before ended within the same minute', () => {
    expect(periodWords(at('10:55'), '2026-03-02T10:55:40Z', options)).toBe('at 10:55');
  });

  it('says "up to" when the sync before is not known', () => {
    expect(periodWords('', at('11:01'), options)).toBe('up to 11:01');
  });

  const names = {
    sites: new Map([
      [101, 'Riverside Plant'],
      [102, 'Harbour Depot'],
    ]),
    credentials: new Map([[5003, 'Forklift Operator']]),
    groups: new Map([[2001, 'Operations']]),
    features: new Map([[3, 'Reports — View']]),
    courses: new Map([[12, 'Fire Safety']]),
  };
  const day = (iso: string) => `[${iso}]`;

  it('names credentials, groups, features, courses and sites instead of their ids, and formats dates', () => {
    expect(
      changeWords({ k: 'credential.renewed', d: 'credential 5003: 2026-06-01 → 2027-06-01' }, names, day),
    ).toBe('Forklift Operator: [2026-06-01] → [2027-06-01]');
    expect(changeWords({ k: 'access.granted', d: 'group 2001' }, names, day)).toBe('Operations');
    expect(changeWords({ k: 'access.granted', d: 'feature 3' }, names, day)).toBe('Reports — View');
    expect(changeWords({ k: 'training.assigned', d: 'course 12' }, names, day)).toBe('Fire Safety');
    expect(changeWords({ k: 'person.site', d: '101 → 102' }, names, day)).toBe(
      'Riverside Plant → Harbour Depot',
    );
  });

  it('says what a record it cannot name is, never its id, and writes an empty side as "(none)"', () => {
    expect(changeWords({ k: 'credential.added', d: 'credential 9' }, names, day)).toBe(
      'a credential not on this laptop',
    );
    expect(changeWords({ k: 'access.revoked', d: 'group 77' }, names, day)).toBe(
      'a group not on this laptop',
    );
    expect(changeWords({ k: 'access.granted', d: 'feature 8' }, names, day)).toBe(
      'a feature not on this laptop',
    );
    expect(changeWords({ k: 'training.assigned', d: 'course 13' }, names, day)).toBe(
      'a course not on this laptop',
    );
    expect(changeWords({ k: 'person.site', d: '101 → 109' }, names, day)).toBe(
      'Riverside Plant → a site not on this laptop',
    );
    expect(changeWords({ k: 'credential.renewed', d: 'credential 5003:  → 2027-06-01' }, names, day)).toBe(
      'Forklift Operator: (none) → [2027-06-01]',
    );
    expect(changeWords({ k: 'person.status', d: ' → Active' }, names, day)).toBe('(none) → Active');
    expect(changeWords({ k: 'person.removed', d: 'Ann Lee' }, names, day)).toBe('Removed');
  });
});
