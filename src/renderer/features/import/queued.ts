/**
 * The import plans against what the user will have once their queued changes
 * are sent (the cache with the Outbox's unsent ops applied). A row that sets a
 * field back from a value the user queued would undo that change: it is named
 * so, and is queued only when ticked. Pure.
 */
import type { UserRecord } from '../../../shared/records.ts';
import type { WithPending } from '../../outbox/pending.ts';
import type { UserChanges } from './match.ts';

type ChangedField = keyof UserChanges;

/** The fields of `changes` whose current value is one the user queued for this person (their queued change would be undone). */
export function queuedChangesUndone(user: WithPending<UserRecord>, changes: UserChanges): ChangedField[] {
  const queued = user.pending?.fields;
  if (!queued) return [];
  return (Object.keys(changes) as ChangedField[]).filter((field) => queued.includes(field));
}
