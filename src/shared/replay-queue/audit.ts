/** Audit entries: one per outcome, kept after the outbox is cleared. */
import type { ReplayOutcome } from '../ipc.ts';
import type { AuditEntry, OutboxOp } from '../outbox.ts';

export type AuditOutcome = AuditEntry['outcome'];

export function auditEntryOf(
  op: OutboxOp,
  outcome: AuditOutcome,
  actor: string,
  at: string,
  replay?: ReplayOutcome,
): AuditEntry {
  return {
    opId: op.id,
    batchId: op.batchId,
    at,
    actor,
    kind: op.op.kind,
    targetKey: op.targetKey,
    outcome,
    before: Object.keys(op.base).length > 0 ? { ...op.base } : null,
    after: afterOf(op, replay),
    response: op.response ?? null,
    message: messageOf(op, outcome, replay),
    ...(op.undoes ? { undoes: op.undoes } : {}),
  };
}

function afterOf(op: OutboxOp, replay?: ReplayOutcome): Record<string, unknown> | null {
  if (replay?.status === 'done' && replay.after) return replay.after;
  if (replay?.status === 'conflict') return replay.theirs;
  const spec = op.op as Record<string, unknown>;
  const changes = spec['changes'] ?? spec['fields'];
  return changes && typeof changes === 'object' ? { ...(changes as Record<string, unknown>) } : null;
}

function messageOf(op: OutboxOp, outcome: AuditOutcome, replay?: ReplayOutcome): string {
  switch (outcome) {
    case 'done':
      return replay?.status === 'done' && replay.alreadyApplied
        ? `${op.summary}: already in effect on the server`
        : `${op.summary}: done`;
    case 'conflict':
      return `${op.summary}: changed on the server meanwhile (${op.conflictFields?.join(', ') ?? ''})`;
    case 'needs-review':
    case 'failed':
      return `${op.summary}: ${op.lastError?.message ?? 'refused'}`;
    case 'discarded':
      return `${op.summary}: discarded before it was sent`;
    case 'resolved':
      return `${op.summary}: resolved`;
  }
}
