/**
 * "Data as of …": when the cache was last brought up to date, on every view.
 * The oldest completed collection sets the time (a view may read any of
 * them); collections never synced are said to be missing.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { SyncCollectionRow } from '../db/index.ts';
import { useActiveDb } from '../app/session.ts';
import { formatDateTime } from '../app/format.ts';
import { useSyncState } from '../sync/store.ts';

export function dataAsOfText(rows: readonly Pick<SyncCollectionRow, 'lastSyncedAt'>[], running: boolean): string {
  const times = rows.map((r) => r.lastSyncedAt).filter((t): t is string => t !== null).sort();
  const suffix = running ? ' · syncing now' : '';
  if (times.length === 0) return `Not synced yet${suffix}`;
  const partly = times.length < rows.length ? ' (some lists not synced yet)' : '';
  return `Data as of ${formatDateTime(times[0])}${partly}${suffix}`;
}

export function DataAsOf() {
  const db = useActiveDb();
  const running = useSyncState((s) => s.running);
  const rows = useLiveQuery(() => (db ? db.syncCollections.toArray() : []), [db]);
  if (!db || rows === undefined) return null;
  return <p className="data-as-of">{dataAsOfText(rows, running)}</p>;
}
