/** What the "Since last sync" view and the dashboard summary show, from the change log. Pure. */
import { CHANGE_KINDS, type ChangeEntry, type ChangeKind } from '../../sync/changes.ts';
import type { SyncChangeLog } from '../../sync/log.ts';

export interface DatedChange extends ChangeEntry {
  /** when the sync that saw it ended */
  at: string;
}

/** The changes of the syncs from `fromSeq` on (all kept syncs when null), newest first. */
export function changesSince(logs: readonly SyncChangeLog[], fromSeq: number | null): DatedChange[] {
  const out: DatedChange[] = [];
  const chosen = logs.filter((log) => fromSeq === null || (log.seq ?? 0) >= fromSeq).sort((a, b) => (b.seq ?? 0) - (a.seq ?? 0));
  for (const log of chosen) for (const change of log.changes) out.push({ ...change, at: log.at });
  return out;
}

/** Changes counted but not listed (a sync with more than the log lists). */
export function omittedSince(logs: readonly SyncChangeLog[], fromSeq: number | null): number {
  return logs.filter((log) => fromSeq === null || (log.seq ?? 0) >= fromSeq).reduce((sum, log) => sum + log.omitted, 0);
}

/** One sync's counts by kind in the fixed order: every change counted, also those beyond what the log lists. */
export function countsOfSync(log: Pick<SyncChangeLog, 'counts'>): { kind: ChangeKind; count: number }[] {
  return CHANGE_KINDS.filter((k) => (log.counts[k] ?? 0) > 0).map((kind) => ({ kind, count: log.counts[kind]! }));
}

export interface ChangeFilter {
  siteid: number | null;
  /** members of the chosen group (null: any group) */
  members: ReadonlySet<number> | null;
}

export function filterChanges(changes: readonly DatedChange[], filter: ChangeFilter, siteOf: (userid: number) => number | undefined): DatedChange[] {
  return changes.filter((c) => {
    if (filter.members && !filter.members.has(c.u)) return false;
    if (filter.siteid !== null && (c.s ?? siteOf(c.u)) !== filter.siteid) return false;
    return true;
  });
}

export function countsByKind(changes: readonly ChangeEntry[]): { kind: ChangeKind; count: number }[] {
  const counts = new Map<ChangeKind, number>();
  for (const c of changes) counts.set(c.k, (counts.get(c.k) ?? 0) + 1);
  return CHANGE_KINDS.filter((k) => counts.has(k)).map((kind) => ({ kind, count: counts.get(kind)! }));
}
