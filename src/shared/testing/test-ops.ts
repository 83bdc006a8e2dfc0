/** Building outbox ops for tests. */
import type { OpSpec } from '../ipc.ts';
import type { OutboxOp } from '../outbox.ts';
import { targetKeyOf } from '../op-kinds.ts';
import { PENDING_STATE } from '../replay-queue/queue.ts';

let counter = 0;

export function outboxOp(op: OpSpec, extra: Partial<OutboxOp> = {}): OutboxOp {
  counter += 1;
  return {
    id: `op${counter}`,
    batchId: 'b1',
    seq: counter,
    targetKey: targetKeyOf(op),
    dependsOn: [],
    op,
    base: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    ...PENDING_STATE,
    summary: op.kind,
    ...extra,
  };
}

export const statusOp = (userid: number, status: string, extra: Partial<OutboxOp> = {}) =>
  outboxOp({ kind: 'user.update', userid, changes: { status } }, extra);
