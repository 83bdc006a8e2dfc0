/**
 * "Data as of …": when the cache was last brought up to date, on every view.
 * The oldest completed collection sets the time (a view may read any of
 * them); collections never synced are said to be missing.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { SyncCollectionRow } from '../db/index.ts';
import { useActiveDb } from '../app/session.ts';
import { formatDateTime } from '../app/format.ts';
import { plural } from '../app/words.ts';
import { useSyncState } from '../sync/store.ts';

export function dataAsOfText(
  rows: readonly Pick<SyncCollectionRow, 'lastSyncedAt'>[],
  running: boolean,
): string {
  const times = rows
    .map((r) => r.lastSyncedAt)
    .filter((t): t is string => t !== null)
    .sort();
  const suffix = running ? ' · syncing now' : '';
  if (times.length === 0) return `Not synced yet${suffix}`;
  const partly = times.length < rows.length ? ' (some lists not synced yet)' : '';
  return `Data as of ${formatDateTime(times[0])}${partly}${suffix}`;
}

const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/**
 * What the last sync did, on the landing view and every other: "Synced 11:02 —
 * 6,053 records" (the day too when it was not today). Null before any.
 */
export function lastSyncText(
  rows: readonly Pick<SyncCollectionRow, 'lastSyncedAt' | 'total'>[],
  now: Date = new Date(),
): string | null {
  const times = rows
    .map((r) => r.lastSyncedAt)
    .filter((t): t is string => t !== null)
    .sort();
  const newest = times.at(-1);
  if (newest === undefined) return null;
  const at = new Date(newest);
  const when = at.toDateString() === now.toDateString() ? timeOnly.format(at) : formatDateTime(newest);
  const records = rows.reduce((sum, r) => sum + (r.lastSyncedAt !== null ? (r.total ?? 0) : 0), 0);
  return `Synced ${when} — ${plural(records, 'record')}`;
}

export function DataAsOf() {
  const db = useActiveDb();
  const running = useSyncState((s) => s.running);
  const rows = useLiveQuery(() => (db ? db.syncCollections.toArray() : []), [db]);
  if (!db || rows === undefined) return null;
  const last = running ? null : lastSyncText(rows);
  return (
    <p className="data-as-of">
      {dataAsOfText(rows, running)}
      {last && <span className="last-sync"> · {last}</span>}
    </p>
  );
}
