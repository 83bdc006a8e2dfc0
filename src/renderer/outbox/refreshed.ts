/**
 * The pieces the cache's refresh after a done op shares between its kinds
 * (src/renderer/op-kinds/, `afterDone`) and the batched refresh
 * (cache-refresh.ts): a person as refreshed, the person an update came back
 * with, the id a create was given. Imports no kind, so each kind can use them.
 */
import type { OutboxOp } from '../../shared/outbox.ts';
import { normalizeUser, userSearchKeys, userSortName, type UserRecord } from '../../shared/records.ts';
import { schemas } from '../../shared/api/wire.ts';
import type { DoneOutcome } from '../op-kinds/definition.ts';

/** A field of the server's answer as the cache's text, or the fallback when the answer has none. */
export const text = (v: unknown, fallback = ''): string =>
  v === undefined || v === null ? fallback : String(v);

/** A person with changes over what the cache held (or over the fallback), their search keys made again. */
export function refreshedUser(
  current: UserRecord | undefined,
  changes: Partial<UserRecord>,
  fallback: Partial<UserRecord> & { userid: number; siteid: number },
): UserRecord {
  const merged = {
    username: '',
    firstname: '',
    lastname: '',
    employeeid: '',
    status: '',
    usertype: 'User',
    ...fallback,
    ...current,
    ...changes,
  } as UserRecord;
  return { ...merged, searchKeys: userSearchKeys(merged), sortName: userSortName(merged) };
}

/**
 * The person an update came back with (the server's record with the change on it), marked as refreshed from the
 * site; null when the answer carries none.
 */
export function updatedUserOf(op: OutboxOp, outcome: DoneOutcome): UserRecord | null {
  if (op.op.kind !== 'user.update' || outcome.readBack?.user) return null;
  const after = schemas.user.safeParse(outcome.after);
  if (!after.success || after.data.userid !== op.op.userid) return null;
  return { ...normalizeUser(after.data), refreshedAt: new Date().toISOString() };
}

/** The id the server gave a create, as a number (NaN when it gave none). */
export const createdNumberOf = (outcome: DoneOutcome): number =>
  typeof outcome.createdId === 'number' ? outcome.createdId : Number(outcome.createdId);
