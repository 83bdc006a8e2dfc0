/** Building outbox ops for tests. */
import type { OpSpec } from '../ipc.ts';
import type { OutboxOp } from '../outbox.ts';
import { targetKeyOf } from '../op-kinds.ts';
import { PENDING_STATE, type OpDraft } from '../replay-queue/queue.ts';

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

/** A person's create ('create') and the e-mail ('email') that waits for their new id, as queued. */
export const CREATE_WITH_EMAIL: readonly OpDraft[] = [
  {
    id: 'create',
    op: { kind: 'user.create', siteid: 101, fields: { username: 'bo', firstname: 'Bo', lastname: 'Ray' } },
    summary: 'create bo',
  },
  {
    id: 'email',
    op: { kind: 'email.add', userid: 0, email: 'bo@example.com' },
    dependsOn: ['create'],
    bindings: [{ fromOp: 'create', field: 'userid' }],
    summary: 'add e-mail',
  },
];

/** A queued status change of one person (Active → `status`), as a draft for `enqueueOps`. */
export const statusDraft = (userid: number, status = 'Inactive'): OpDraft => ({
  op: { kind: 'user.update', userid, changes: { status } },
  base: { status: 'Active' },
  summary: `user ${userid} -> ${status}`,
});

/** `n` status changes of people 1 to n. */
export const statusDrafts = (n: number): OpDraft[] => Array.from({ length: n }, (_, i) => statusDraft(i + 1));
