/** What the Outbox and Conflict views show, computed from the ops. Pure. */
import type { OutboxOp, OutboxStatus } from '../../../shared/outbox.ts';
import { sameTextIgnoringCase } from './compare.ts';
import { OP_KIND_TABLE } from '../../../shared/op-kinds.ts';
import { formatCount } from '../../app/format.ts';
import { plural } from '../../app/words.ts';

export const STATUS_LABELS: Record<OutboxStatus, string> = {
  pending: 'Pending',
  sending: 'Sending',
  done: 'Done',
  failed: 'Failed',
  conflict: 'Conflict',
  'needs-review': 'Needs review',
};

export interface BatchSummary {
  batchId: string;
  createdAt: string;
  total: number;
  counts: Partial<Record<OutboxStatus, number>>;
  /** what the batch was named when it was queued ("Import of staff.xlsx"), if anything */
  label: string | undefined;
  /** the batch this one undoes */
  undoes: string | undefined;
}

/** Batches, newest first, each with its count per status; the ops of each in queue order. */
export function batchesOf(ops: readonly OutboxOp[]): BatchSummary[] {
  const batches = new Map<string, BatchSummary>();
  for (const op of [...ops].sort((a, b) => a.seq - b.seq)) {
    const batch = batches.get(op.batchId) ?? {
      batchId: op.batchId,
      createdAt: op.createdAt,
      total: 0,
      counts: {},
      label: op.batchLabel,
      undoes: op.undoes,
    };
    batch.total += 1;
    batch.counts[op.status] = (batch.counts[op.status] ?? 0) + 1;
    batches.set(op.batchId, batch);
  }
  return [...batches.values()].reverse();
}

/** Each status as the state of a batch's changes, in the order a coordinator reads them. */
const STATE_WORDS: readonly [OutboxStatus, string, string][] = [
  ['done', 'sent', 'sent'],
  ['sending', 'being sent', 'being sent'],
  ['pending', 'waiting', 'waiting'],
  ['conflict', 'conflict', 'conflicts'],
  ['needs-review', 'to review', 'to review'],
  ['failed', 'failed', 'failed'],
];

/** "48 changes: 45 sent, 2 waiting, 1 conflict" */
export function batchState(batch: Pick<BatchSummary, 'total' | 'counts'>): string {
  const parts = STATE_WORDS.filter(([status]) => (batch.counts[status] ?? 0) > 0).map(
    ([status, one, other]) => {
      const n = batch.counts[status] ?? 0;
      return `${formatCount(n)} ${n === 1 ? one : other}`;
    },
  );
  return `${plural(batch.total, 'change')}: ${parts.join(', ')}`;
}

/** What "Discard batch" drops: never what was sent, nor what is being sent right now. */
export const DISCARDABLE: readonly OutboxStatus[] = ['pending', 'needs-review', 'failed', 'conflict'];

export interface BatchActions {
  /** some changes were refused or failed: sending them again may work */
  retry: boolean;
  /** some changes have not gone (waiting, refused, in conflict): they can be dropped */
  discard: boolean;
  /** some changes were applied: they can be put back */
  undo: boolean;
}

/** The actions that do something on a batch; none of them on what is being sent right now. */
export function batchActions(batch: Pick<BatchSummary, 'counts'>): BatchActions {
  const n = (status: OutboxStatus) => batch.counts[status] ?? 0;
  return {
    retry: n('needs-review') + n('failed') > 0,
    discard: discardableCount(batch) > 0,
    undo: n('done') > 0,
  };
}

/** The changes of a batch that "Discard batch" drops: those not sent yet, refused or in conflict. */
export function discardableCount(batch: Pick<BatchSummary, 'counts'>): number {
  return DISCARDABLE.reduce((sum, status) => sum + (batch.counts[status] ?? 0), 0);
}

/**
 * The Outbox's line of what is waiting: "14 to send.", "1 in conflict, 2 to review."; a part that counts nothing is
 * left out ("0 in conflict, 0 to review" told the coordinator nothing), and nothing at all waiting is said so.
 */
export function waitingSummary(counts: Record<OutboxStatus, number>): string {
  const parts = [
    [counts.pending + counts.sending, 'to send'],
    [counts.conflict, 'in conflict'],
    [counts['needs-review'] + counts.failed, 'to review'],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, what]) => `${formatCount(n)} ${what}`);
  return said.length > 0 ? `${said.join(', ')}.` : 'Nothing waiting to be sent.';
}

export function statusCounts(ops: readonly OutboxOp[]): Record<OutboxStatus, number> {
  const counts: Record<OutboxStatus, number> = {
    pending: 0,
    sending: 0,
    done: 0,
    failed: 0,
    conflict: 0,
    'needs-review': 0,
  };
  for (const op of ops) counts[op.status] += 1;
  return counts;
}

export interface ConflictField {
  field: string;
  base: unknown;
  mine: unknown;
  theirs: unknown;
}

/** base / mine / theirs of each field in conflict. */
/** What a removal leaves in each field, as the conflict view shows it. */
const REMOVED = '(removed)';

export function conflictFieldsOf(op: OutboxOp): ConflictField[] {
  const spec = op.op as { changes?: Record<string, unknown> };
  const mine = spec.changes ?? {};
  const fields = op.conflictFields ?? Object.keys(mine);
  // a removal's "yours" is the record gone, whatever the field
  const removal = OP_KIND_TABLE[op.op.kind].effect === 'delete';
  return fields.map((field) => ({
    field,
    base: op.base[field] ?? null,
    mine: removal ? REMOVED : (mine[field] ?? null),
    theirs: op.theirs?.[field] ?? null,
  }));
}

/** Conflicts "alike" this one: same kind of change, same fields, same values of mine and theirs. */
export function alikeConflicts(ops: readonly OutboxOp[], op: OutboxOp): OutboxOp[] {
  const shape = conflictFieldsOf(op);
  return ops.filter((other) => {
    if (other.status !== 'conflict' || other.op.kind !== op.op.kind) return false;
    const fields = conflictFieldsOf(other);
    if (fields.length !== shape.length) return false;
    return fields.every((f, i) => {
      const s = shape[i]!;
      return (
        f.field === s.field &&
        sameTextIgnoringCase(f.mine, s.mine) &&
        sameTextIgnoringCase(f.theirs, s.theirs)
      );
    });
  });
}

/**
 * The ops as the Outbox shows them: one the engine is sending now reads "Sending", with no Undo or Edit, even when
 * its stored record still says waiting (an update's "being sent" is never stored). The same list when none is.
 */
export function withOnItsWay(ops: readonly OutboxOp[], sending: ReadonlySet<string>): readonly OutboxOp[] {
  if (sending.size === 0) return ops;
  const onItsWay = (op: OutboxOp) => op.status === 'pending' && sending.has(op.id);
  if (!ops.some(onItsWay)) return ops;
  return ops.map((op): OutboxOp => (onItsWay(op) ? { ...op, status: 'sending' } : op));
}
