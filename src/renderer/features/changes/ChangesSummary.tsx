/** The dashboard's line about the last sync's changes, linking to "Since last sync". Offline, from the change log. */
import { useLiveQuery } from 'dexie-react-hooks';
import { useActiveDb } from '../../app/session.ts';
import { formatCount } from '../../app/format.ts';
import { hrefFor } from '../../app/router.ts';
import { CHANGE_LABELS } from '../../sync/changes.ts';
import { countsOfSync, periodWords } from './view-model.ts';

export function ChangesSummary() {
  const db = useActiveDb();
  const last = useLiveQuery(
    async () => (db ? ((await db.syncChanges.orderBy('seq').last()) ?? null) : null),
    [db],
  );
  if (!last) return null;
  // all it counted: a sync that changed more than the log lists is not under-reported
  const counts = countsOfSync(last);
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
