import { describe, expect, it } from 'vitest';
import type { SyncChangeLog } from '../../sync/log.ts';
import { changesSince, countsByKind, countsOfSync, filterChanges } from './view-model.ts';

const log = (seq: number, changes: SyncChangeLog['changes']): SyncChangeLog => ({ seq, syncId: `s${seq}`, at: `2026-03-0${seq}T10:00:00Z`, outcome: 'completed', since: '', counts: {}, changes, omitted: 0 });

const logs = [
  log(1, [{ k: 'person.added', u: 1 }]),
  log(2, [{ k: 'person.status', u: 2, d: 'Active → Inactive' }]),
  log(3, [{ k: 'person.removed', u: 3, s: 202 }, { k: 'credential.added', u: 2 }]),
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
    expect(filterChanges(all, { siteid: 202, members: null }, siteOf).map((c) => c.u).sort()).toEqual([2, 2, 3]);
    expect(filterChanges(all, { siteid: null, members: new Set([1]) }, siteOf).map((c) => c.k)).toEqual(['person.added']);
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
    const big: SyncChangeLog = { ...log(4, [{ k: 'training.completed', u: 1 }]), counts: { 'training.completed': 7_200, 'person.added': 3 }, omitted: 7_202 };
    expect(countsOfSync(big)).toEqual([
      { kind: 'person.added', count: 3 },
      { kind: 'training.completed', count: 7_200 },
    ]);
  });
});
