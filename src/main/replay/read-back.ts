/**
 * The platform's answer after an op is done: the records it touched as the
 * server now holds them, including what the platform changed on its own (a
 * person created "Offline", a grantee made a Supervisor). An update's record
 * already comes back with it (read for the conflict check). Read after the write, never instead of it: a read that
 * fails costs only freshness, the op stays done and the next sync brings it.
 */
import type { OpSpec, ReplayOutcome } from '../../shared/ipc.ts';
import { itemsOf, type ReplayClient } from './read.ts';
import { readState, replayKindOf } from './kinds.ts';

type Done = ReplayOutcome & { status: 'done' };

export async function withReadBack(
  client: ReplayClient,
  op: OpSpec,
  outcome: Done,
  signal?: AbortSignal,
): Promise<Done> {
  let out = outcome;
  if (replayKindOf(op).readsBack) {
    try {
      const state = await readState(client, op, signal);
      if (state.present) out = { ...out, after: state.record };
    } catch {
      // freshness only: the op is done
    }
  }
  const userid = replayKindOf(op).personChanged(op, outcome.createdId);
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
