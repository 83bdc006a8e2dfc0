/**
 * A conflict resolved field by field: for each field in conflict the user keeps
 * theirs (the server's value) or mine. The op then sent is the merged record —
 * my changes minus the fields given to the server — and it is checked like any
 * update: its base becomes what the server held when the conflict was found, so
 * a further change made behind the user's back is a conflict again. Pure.
 */
import type { OpSpec } from '../ipc.ts';
import type { BaseValues, OutboxOp } from '../outbox.ts';
import { OP_KIND_TABLE } from '../op-kinds.ts';

export type FieldChoice = 'mine' | 'theirs';
export type FieldChoices = Readonly<Record<string, FieldChoice>>;

export type MergedConflict =
  /** send `op`, checked against `base` (the server's values of the moment) */
  | { send: true; op: OpSpec; base: BaseValues; keptTheirs: string[] }
  /** every field went to the server: nothing left to send */
  | { send: false; keptTheirs: string[] };

/** The op's changed fields, when it is an update (user, credential or training assignment). */
function changesOf(op: OpSpec): Record<string, string | undefined> | null {
  return 'changes' in op ? op.changes : null;
}

/** The fields in conflict: as main reported them, else every field the op changes. */
export function conflictFieldNames(op: OutboxOp): string[] {
  return op.conflictFields ?? Object.keys(changesOf(op.op) ?? op.base);
}

/** A server value as a base the conflict check can hold. */
function baseValue(value: unknown): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? value
    : JSON.stringify(value);
}

/**
 * The base of the resolved op: the server's value of each field it still sends (or the old base where the server said
 * nothing).
 */
function rebased(fields: readonly string[], op: OutboxOp): BaseValues {
  const base: BaseValues = {};
  const theirs = op.theirs ?? {};
  for (const field of fields) {
    if (Object.prototype.hasOwnProperty.call(theirs, field)) base[field] = baseValue(theirs[field]);
    else if (field in op.base) base[field] = op.base[field]!;
  }
  return base;
}

function choiceFor(choices: FieldChoices, field: string): FieldChoice {
  const choice = choices[field];
  if (choice === undefined) throw new Error(`No choice was made for the field "${field}".`);
  return choice;
}

/**
 * Merge a conflict by the user's choices (one per field in conflict). A removal is
 * all or nothing: it goes (checked against the record as the server now holds it)
 * when every field is "mine", and is dropped otherwise.
 */
export function mergeConflict(op: OutboxOp, choices: FieldChoices): MergedConflict {
  const inConflict = conflictFieldNames(op);
  const keptTheirs = inConflict.filter((field) => choiceFor(choices, field) === 'theirs');
  const changes = changesOf(op.op);
  if (OP_KIND_TABLE[op.op.kind].effect === 'delete' || !changes) {
    if (keptTheirs.length > 0) return { send: false, keptTheirs: inConflict };
    return { send: true, op: op.op, base: rebased(Object.keys(op.base), op), keptTheirs: [] };
  }
  const merged: Record<string, string> = {};
  for (const [field, value] of Object.entries(changes)) {
    if (value !== undefined && !keptTheirs.includes(field)) merged[field] = value;
  }
  const fields = Object.keys(merged);
  if (fields.length === 0) return { send: false, keptTheirs };
  return { send: true, op: { ...op.op, changes: merged } as OpSpec, base: rebased(fields, op), keptTheirs };
}

/** The same choice for every field in conflict ("all mine", "all theirs"). */
export function allFields(op: OutboxOp, choice: FieldChoice): FieldChoices {
  return Object.fromEntries(conflictFieldNames(op).map((field) => [field, choice]));
}
