/**
 * The import plans against what the user will have once their queued changes
 * are sent (the cache with the Outbox's unsent ops applied). Where a row sets
 * a field back from a value the user queued, or lists an e-mail a queued
 * change removes, the file wins: the row is queued after the queued change,
 * and the preview says it overrides it (docs/decisions.md). A row for someone
 * only queued to be created changes that queued person, never creates them
 * twice. Pure.
 */
import type { EmailRecord, UserRecord } from '../../../shared/records.ts';
import type { OutboxOp } from '../../../shared/outbox.ts';
import { tempUserId, type WithPending } from '../../outbox/pending.ts';
import { NO_DELETIONS, type QueuedDeletions } from './queued-assignments.ts';
import type { UserChanges } from './file-row.ts';

type ChangedField = keyof UserChanges;
/**
 * A field whose queued change a row overrides: one of the person's, or their e-mail (an address a queued change
 * removes).
 */
export type OverriddenField = ChangedField | 'email' | 'credential' | 'course';

/**
 * The fields of `changes` whose current value is one the user queued for this person (their queued change would be
 * undone).
 */
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
  for (const e of emails)
    if (e.pending?.change === 'delete')
      out.set(e.email.toLowerCase(), { userid: e.userid, opIds: e.pending.opIds });
  return out;
}

/**
 * What adding `address` to `userid` does to a queued removal of it: overrides the
 * person's own (sent after it: their ops replay in order), or waits for the removal
 * from someone else (an address is unique, so it must be free first).
 */
export function emailAgainstQueue(
  removals: QueuedRemovals | undefined,
  userid: number,
  address: string,
): { overrides?: true; after?: readonly string[] } {
  const removal = removals?.get(address.toLowerCase());
  if (!removal) return {};
  return removal.userid === userid ? { overrides: true } : { after: removal.opIds };
}

type IdentityField = 'username' | 'employeeid';
/**
 * A person only queued to be created (stand-in id < 0): the create's op, which the row's changes wait for and take the
 * new id from.
 */
export interface QueuedCreate {
  opId: string;
  targetKey: string;
}

/** What the plan needs to know of the Outbox besides the records in their effective state. */
export interface QueuedState {
  /** the addresses queued changes remove */
  removedEmails: QueuedRemovals;
  /**
   * usernames and employee ids (lower-cased) that queued changes replace: still the person's on the platform until the
   * queue is sent
   */
  replaced: Record<IdentityField, ReadonlyMap<string, UserRecord>>;
  /** the people only queued to be created, by stand-in id */
  creates: ReadonlyMap<number, QueuedCreate>;
  /** the credential and course assignments queued changes delete */
  deletions: QueuedDeletions;
}

export const NOTHING_QUEUED: QueuedState = {
  removedEmails: new Map(),
  replaced: { username: new Map(), employeeid: new Map() },
  creates: new Map(),
  deletions: NO_DELETIONS,
};

/** The usernames and employee ids queued edits replace, with the person (as they will be) who holds them until then. */
export function replacedIdentities(
  cached: readonly UserRecord[],
  effective: readonly WithPending<UserRecord>[],
): QueuedState['replaced'] {
  const touched = new Map<number, WithPending<UserRecord>>();
  for (const u of effective)
    if (
      u.pending?.change === 'update' &&
      u.pending.fields?.some((f) => f === 'username' || f === 'employeeid')
    )
      touched.set(u.userid, u);
  const out = { username: new Map<string, UserRecord>(), employeeid: new Map<string, UserRecord>() };
  if (touched.size === 0) return out;
  for (const before of cached) {
    const after = touched.get(before.userid);
    if (!after) continue;
    for (const field of ['username', 'employeeid'] as const) {
      if (before[field] && before[field].toLowerCase() !== after[field].toLowerCase())
        out[field].set(before[field].toLowerCase(), after);
    }
  }
  return out;
}

/** The people the Outbox's unsent ops create, by the stand-in id the views give them. */
export function queuedCreates(ops: readonly OutboxOp[]): ReadonlyMap<number, QueuedCreate> {
  const out = new Map<number, QueuedCreate>();
  for (const op of ops)
    if (op.status !== 'done' && op.op.kind === 'user.create')
      out.set(tempUserId(op), { opId: op.id, targetKey: op.targetKey });
  return out;
}

/** Who holds `value` of `field` until a queued change to them is sent (they are renamed, or their id changes). */
export function heldUntilSent(
  queued: QueuedState | undefined,
  field: string,
  value: string,
): UserRecord | undefined {
  return field === 'username' || field === 'employeeid'
    ? queued?.replaced[field].get(value.toLowerCase())
    : undefined;
}
