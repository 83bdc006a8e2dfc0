/**
 * The counts on the Outbox and Conflicts tabs: "Outbox (12)" while 12 changes
 * are not done, "Conflicts (2)" while 2 wait for a choice; nothing at zero.
 * Read with index counts, never by loading the ops.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useActiveDb } from '../../app/session.ts';
import { formatCount } from '../../app/format.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { countUnsent } from '../../../shared/replay-queue/packs.ts';

function Count({ n }: { n: number | undefined }) {
  return n ? <> ({formatCount(n)})</> : null;
}

/** Changes not done yet: waiting, being sent, in conflict, to review (the report says how many of them it includes). */
export async function countOutboxNotDone(db: FieldbookDb): Promise<number> {
  return countUnsent(db);
}

export function OutboxCount() {
  const db = useActiveDb();
  const n = useLiveQuery(async () => (db ? countOutboxNotDone(db) : 0), [db]);
  return <Count n={n} />;
}

export function ConflictCount() {
  const db = useActiveDb();
  const n = useLiveQuery(async () => (db ? db.outbox.where('status').equals('conflict').count() : 0), [db]);
  return <Count n={n} />;
}
