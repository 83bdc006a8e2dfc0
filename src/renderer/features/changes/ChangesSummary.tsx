/**
 * The dashboard's part of "Since last sync": what the last sync means for compliance,
 * then its changes counted by kind, linking to the view. Offline, from the change log.
 */
import { useMemo } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useActiveDb } from '../../app/session.ts';
import { formatCount } from '../../app/format.ts';
import { hrefFor } from '../../app/router.ts';
import { CHANGE_LABELS } from '../../sync/changes.ts';
import type { SyncChangeLog } from '../../sync/log.ts';
import { ComplianceImpact } from './ComplianceImpact.tsx';
import { foldRemovals } from './impact.ts';
import { changesSince, countsOfSync, periodWords } from './view-model.ts';

/** The sync's counts with a removed person's records counted in their removal only (as the view lists them). */
function foldedCounts(last: SyncChangeLog): ReturnType<typeof countsOfSync> {
  const { rest } = foldRemovals(changesSince([last], last.seq ?? null));
  const folded = new Map<string, number>();
  for (const c of last.changes) folded.set(c.k, (folded.get(c.k) ?? 0) + 1);
  for (const c of rest) folded.set(c.k, folded.get(c.k)! - 1);
  return countsOfSync(last)
    .map((c) => ({ ...c, count: c.count - (folded.get(c.kind) ?? 0) }))
    .filter((c) => c.count > 0);
}

function useLastSync(): SyncChangeLog | null | undefined {
  const db = useActiveDb();
  return useLiveQuery(async () => (db ? ((await db.syncChanges.orderBy('seq').last()) ?? null) : null), [db]);
}

/**
 * Who became non-compliant or compliant again with the last sync, at the site chosen (nothing before a second
 * sync).
 */
export function LastSyncImpact({
  siteid,
  siteName,
}: {
  siteid: number | null;
  siteName: (siteid: number) => string;
}) {
  const last = useLastSync();
  const changes = useMemo(() => (last ? changesSince([last], last.seq ?? null) : []), [last]);
  if (!last) return null;
  return (
    <ComplianceImpact
      changes={changes}
      sinceIso={last.since}
      scope={{ siteid }}
      siteName={siteName}
      limit={3}
    />
  );
}

export function ChangesSummary() {
  const last = useLastSync();
  if (!last) return null;
  // all it counted: a sync that changed more than the log lists is not under-reported
  const counts = foldedCounts(last);
  return (
    <p className="changes-summary" aria-label="Since last sync">
      Changes {periodWords(last.since, last.at)}:{' '}
      {counts.length === 0
        ? 'nothing changed.'
        : `${counts.map((c) => `${CHANGE_LABELS[c.kind].toLowerCase()} ${formatCount(c.count)}`).join(', ')}.`}{' '}
      <a href={hrefFor('changes')}>See the changes</a>
    </p>
  );
}
