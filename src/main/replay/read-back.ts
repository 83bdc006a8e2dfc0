/**
 * The platform's answer after an op is done: the records it touched as the
 * server now holds them, including what the platform changed on its own (a
 * person created "Offline", a grantee made a Supervisor). An update's record
 * already comes back with it (read for the conflict check). Read after the write, never instead of it: a read that
 * fails costs only freshness, the op stays done and the next sync brings it.
 */
import type { OpSpec, ReplayOutcome } from '../../shared/ipc.ts';
import { itemsOf, type ReplayClient } from './read.ts';
import { readState } from './kinds.ts';

type Done = ReplayOutcome & { status: 'done' };

/** Whose person record an op may change as a side effect (null: none). */
export function personOf(op: OpSpec, outcome: Done): number | null {
  switch (op.kind) {
    case 'user.create':
      return typeof outcome.createdId === 'number' ? outcome.createdId : null;
    case 'groupAccess.grant':
    case 'groupAccess.revoke':
    case 'moduleAccess.grant':
    case 'moduleAccess.revoke':
    case 'credentialAssignment.create':
      return op.userid;
    default:
      return null;
  }
}

/** Does the op's own record come back from the server (the platform fills in fields of its own)? */
function readsOwnRecord(op: OpSpec): boolean {
  return op.kind === 'credentialAssignment.create' || op.kind === 'credentialAssignment.update';
}

export async function withReadBack(
  client: ReplayClient,
  op: OpSpec,
  outcome: Done,
  signal?: AbortSignal,
): Promise<Done> {
  let out = outcome;
  if (readsOwnRecord(op)) {
    try {
      const state = await readState(client, op, signal);
      if (state.present) out = { ...out, after: state.record };
    } catch {
      // freshness only: the op is done
    }
  }
  const userid = personOf(op, outcome);
  if (userid !== null) {
    try {
      const answer = await client.request('GET', `/users/${userid}`, {
        retry: 'auto',
        ...(signal ? { signal } : {}),
      });
      const user = itemsOf(answer.body, ['users'], 'user').find((u) => u.userid === userid);
      if (user) out = { ...out, readBack: { user: { ...user } } };
    } catch {
      // freshness only: the op is done
    }
  }
  return out;
}
