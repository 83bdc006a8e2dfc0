/**
 * The outbox's unsent ops in queue order, bound to the people created offline
 * (as `unsentOps` gives them), made once per version of the ops' memo
 * (ops-memo.ts) and a slice at a time. At 100,000 queued ops, sorting and
 * binding them in one go held the window for over 50 ms, and every view query
 * and each of the import's reads did it again.
 */
import type { OutboxOp } from '../../shared/outbox.ts';
import { forEachSliced, mapSliced, sortSliced } from '../../shared/sliced.ts';
import { memoUnsentOps } from './ops-memo.ts';
import { boundToCreated, inQueueOrder, type Applier, type WithPending } from './pending.ts';

type OpsSource = Parameters<typeof memoUnsentOps>[0];

const ordered = new WeakMap<readonly OutboxOp[], Promise<OutboxOp[]>>();

/** `unsentOps(ops)`, a slice at a time. */
export async function unsentInSlices(ops: readonly OutboxOp[]): Promise<OutboxOp[]> {
  const byId = new Map<string, OutboxOp>();
  const unsent: OutboxOp[] = [];
  await forEachSliced(ops.length, (i) => {
    const op = ops[i]!;
    byId.set(op.id, op);
    if (op.status !== 'done') unsent.push(op);
  });
  const sorted = (await sortSliced(unsent, inQueueOrder)) ?? [];
  return (await mapSliced(sorted, (op) => boundToCreated(op, byId))) ?? [];
}

/** The unsent ops of the database in queue order (shared: callers must not mutate them). */
export async function memoUnsentInOrder(db: OpsSource): Promise<OutboxOp[]> {
  const ops = await memoUnsentOps(db);
  let inOrder = ordered.get(ops);
  if (!inOrder) ordered.set(ops, (inOrder = unsentInSlices(ops)));
  return inOrder;
}

/** Ops in queue order (`memoUnsentInOrder`) applied to records, a slice at a time. */
export async function appliedInSlices<T>(
  applier: Applier<T>,
  inOrder: readonly OutboxOp[],
): Promise<WithPending<T>[]> {
  await forEachSliced(inOrder.length, (i) => applier.add(inOrder[i]!));
  return applier.result();
}

/** The ops that `keep` picks, a slice at a time. */
export async function opsWhere(
  inOrder: readonly OutboxOp[],
  keep: (op: OutboxOp) => boolean,
): Promise<OutboxOp[]> {
  const out: OutboxOp[] = [];
  await forEachSliced(inOrder.length, (i) => {
    if (keep(inOrder[i]!)) out.push(inOrder[i]!);
  });
  return out;
}
