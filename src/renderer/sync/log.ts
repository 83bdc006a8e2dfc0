/**
 * The change log of the last syncs of a profile (one database per profile):
 * one small row per sync, the last KEEP_SYNCS kept. Newly expired credentials
 * and newly overdue training are found by index ranges (the days since the
 * previous sync), never by reading a whole table.
 */
import type { FieldbookDb, SyncChangeLog } from '../db/rows.ts';
import type { ChangeCounts, ChangeEntry } from './changes.ts';

export const KEEP_SYNCS = 20;
/** changes listed per sync; beyond it they are counted only */
export const MAX_LISTED = 5_000;

export type { SyncChangeLog } from '../db/rows.ts';

/**
 * Credentials that expired and training that fell overdue between the previous sync's day and today (both ISO dates).
 */
export async function newlyDue(db: FieldbookDb, sinceDay: string, today: string): Promise<ChangeEntry[]> {
  if (sinceDay >= today) return [];
  const expired = await db.credentialAssignments
    .where('expirationIso')
    .between(sinceDay, today, true, false)
    .toArray();
  const overdue = await db.trainingAssignments
    .where('openDueIso')
    .between(sinceDay, today, true, false)
    .toArray();
  return [
    ...expired.map((a): ChangeEntry => ({
      k: 'credential.expired',
      u: a.userid,
      d: `credential ${a.credentialid} on ${a.expirationIso}`,
    })),
    ...overdue.map((t): ChangeEntry => ({
      k: 'training.overdue',
      u: t.userid,
      d: `${t.course_name || `course ${t.courseid}`} due ${t.dueIso}`,
    })),
  ];
}

export function logEntry(
  syncId: string,
  at: string,
  outcome: SyncChangeLog['outcome'],
  since: string,
  changes: readonly ChangeEntry[],
): SyncChangeLog {
  const collector = new ChangeCollector();
  collector.add(changes);
  return collector.entry(syncId, at, outcome, since);
}

/**
 * A pass's changes as they come: all counted, the first MAX_LISTED kept (memory stays bounded whatever the pass
 * changes).
 */
export class ChangeCollector {
  private readonly listed: ChangeEntry[] = [];
  private readonly counts: ChangeCounts = {};
  private omitted = 0;

  add(changes: readonly ChangeEntry[]): void {
    for (const change of changes) {
      this.counts[change.k] = (this.counts[change.k] ?? 0) + 1;
      if (this.listed.length < MAX_LISTED) this.listed.push(change);
      else this.omitted += 1;
    }
  }

  entry(syncId: string, at: string, outcome: SyncChangeLog['outcome'], since: string): SyncChangeLog {
    return {
      syncId,
      at,
      outcome,
      since,
      counts: { ...this.counts },
      changes: [...this.listed],
      omitted: this.omitted,
    };
  }
}

/** Adds a sync's log and keeps the last KEEP_SYNCS. */
export async function recordSyncChanges(db: FieldbookDb, entry: SyncChangeLog): Promise<void> {
  await db.transaction('rw', db.syncChanges, async () => {
    await db.syncChanges.add(entry);
    const count = await db.syncChanges.count();
    if (count > KEEP_SYNCS) {
      const old = await db.syncChanges
        .orderBy('seq')
        .limit(count - KEEP_SYNCS)
        .primaryKeys();
      await db.syncChanges.bulkDelete(old);
    }
  });
}
