/**
 * The shapes of an undo after apply, and the steps every kind's reverse is made
 * of (each kind's own reverse is in its module, src/shared/op-kinds/): the op
 * that puts a done op's record back, what the record looked like before the op
 * and right after it (what the undo restores, and what it expects to find). Pure.
 */
import type { OpSpec } from '../ipc.ts';
import type { BaseValues, OutboxOp } from '../outbox.ts';

export type ShapeValue = string | number | boolean | null;

/**
 * A record as expected at one moment: absent, or present with (at least) these field values (in the op's
 * field names).
 */
export interface Shape {
  present: boolean;
  fields: Record<string, ShapeValue>;
}

export interface ReversalStep {
  /** the op that puts the record back */
  op: OpSpec;
  /** what the apply left: the replay's conflict rule checks the server still holds it before sending */
  base: BaseValues;
  summary: string;
  /** the record before the batch's op (what the undo restores) */
  before: Shape;
  /** the record right after the batch's op (what the undo expects to find) */
  applied: Shape;
  /** what this reversal does not bring back (the API cannot) */
  caveat?: string;
}

export type Reversal =
  | { kind: 'reverse'; step: ReversalStep }
  | {
      kind: 'irreversible';
      reason: string;
      /** a partial remedy the user may choose instead (a created person set Inactive) */
      offer?: ReversalStep & { label: string };
    };

export const ABSENT: Shape = { present: false, fields: {} };
export const present = (fields: Record<string, ShapeValue> = {}): Shape => ({ present: true, fields });

export function createdNumber(op: OutboxOp): number | null {
  const id = typeof op.createdId === 'number' ? op.createdId : Number(op.createdId);
  return op.createdId !== null && op.createdId !== undefined && Number.isInteger(id) && id > 0 ? id : null;
}

export function text(value: ShapeValue | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/** Only the fields given (an optional field absent stays absent). */
export function defined(fields: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(fields)) if (value !== undefined) out[field] = value;
  return out;
}

/** An update is put back field by field from its base; a field changed without a base cannot be. */
export function reverseUpdate(
  op: OutboxOp,
  changes: Record<string, string | undefined>,
  make: (restore: Record<string, string>) => OpSpec,
): Reversal {
  const applied = defined(changes);
  const missing = Object.keys(applied).filter((field) => !(field in op.base));
  if (missing.length > 0)
    return {
      kind: 'irreversible',
      reason: `No before-image of ${missing.join(', ')} was recorded, so it cannot be put back.`,
    };
  const restore: Record<string, string> = {};
  for (const field of Object.keys(applied)) restore[field] = text(op.base[field]);
  return {
    kind: 'reverse',
    step: {
      op: make(restore),
      base: { ...applied },
      summary: `Undo: ${op.summary}`,
      before: present(restore),
      applied: present(applied),
    },
  };
}

/**
 * A removal that undoes a create carries what the create left as its base: the replay
 * sends it only while the server still holds that (an assignment renewed or moved by
 * someone since is a conflict, also when the undo was checked against the cache offline).
 */
export function reverseByRemoving(op: OutboxOp, spec: OpSpec, applied: Shape): Reversal {
  return reversal(op, spec, { ...applied.fields }, ABSENT, applied);
}

/** What a removal took away is added back, as the before-image recorded it. */
export function reverseByAdding(op: OutboxOp, spec: OpSpec, before: Shape, caveat?: string): Reversal {
  return reversal(op, spec, {}, before, ABSENT, caveat);
}

function reversal(
  op: OutboxOp,
  spec: OpSpec,
  base: BaseValues,
  before: Shape,
  applied: Shape,
  caveat?: string,
): Reversal {
  return {
    kind: 'reverse',
    step: { op: spec, base, summary: `Undo: ${op.summary}`, before, applied, ...(caveat ? { caveat } : {}) },
  };
}
