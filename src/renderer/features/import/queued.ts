/**
 * The import plans against what the user will have once their queued changes
 * are sent (the cache with the Outbox's unsent ops applied). Where a row sets
 * a field back from a value the user queued, or lists an e-mail a queued
 * change removes, the file wins: the row is queued after the queued change,
 * and the preview says it overrides it (docs/decisions.md). Pure.
 */
import type { EmailRecord, UserRecord } from '../../../shared/records.ts';
import type { WithPending } from '../../outbox/pending.ts';
import type { UserChanges } from './match.ts';

type ChangedField = keyof UserChanges;
/** A field whose queued change a row overrides: one of the person's, or their e-mail (an address a queued change removes). */
export type OverriddenField = ChangedField | 'email';

/** The fields of `changes` whose current value is one the user queued for this person (their queued change would be undone). */
export function queuedChangesUndone(user: WithPending<UserRecord>, changes: UserChanges): ChangedField[] {
  const queued = user.pending?.fields;
  if (!queued) return [];
  return (Object.keys(changes) as ChangedField[]).filter((field) => queued.includes(field));
}

/** An address a queued change removes: whose it is on the platform now, and the ops that remove it. */
export interface QueuedRemoval {
  userid: number;
  opIds: readonly string[];
}
/** By lower-cased address. */
export type QueuedRemovals = ReadonlyMap<string, QueuedRemoval>;

/** The addresses the Outbox's unsent ops remove (e-mails in their effective state, see applyPendingToEmails). */
export function queuedRemovals(emails: readonly WithPending<EmailRecord>[]): QueuedRemovals {
  const out = new Map<string, QueuedRemoval>();
  for (const e of emails) if (e.pending?.change === 'delete') out.set(e.email.toLowerCase(), { userid: e.userid, opIds: e.pending.opIds });
  return out;
}

/**
 * What adding `address` to `userid` does to a queued removal of it: overrides the
 * person's own (sent after it: their ops replay in order), or waits for the removal
 * from someone else (an address is unique, so it must be free first).
 */
export function emailAgainstQueue(removals: QueuedRemovals | undefined, userid: number, address: string): { overrides?: true; after?: readonly string[] } {
  const removal = removals?.get(address.toLowerCase());
  if (!removal) return {};
  return removal.userid === userid ? { overrides: true } : { after: removal.opIds };
}
