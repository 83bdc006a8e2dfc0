/**
 * The undo preview, the pure part: a batch's done ops, last first, each with
 * its reversal; judged against what each record holds now (the server's
 * answer online, the cache's offline); and the drafts of the undo batch.
 *
 * A record that still holds what the batch left is reverted; one already as
 * it was before needs nothing; one changed since the batch was applied is a
 * conflict (base / applied / now) and is reverted only when the user says so.
 * Several ops of the batch on one record are judged in turn, each against the
 * record as the undo will have left it.
 */
import type { OpSpec, RecordState } from '../ipc.ts';
import type { BaseValues, OutboxOp } from '../outbox.ts';
import { definitionOf, targetKeyOf } from '../op-kinds.ts';
import type { OpDraft } from '../replay-queue/queue.ts';
import { sameValue } from '../same-value.ts';
import { reverseOp, type Reversal, type ReversalStep, type Shape, type ShapeValue } from './reverse.ts';

export interface UndoLine {
  op: OutboxOp;
  /** null: the op was never applied (not done), so there is nothing to undo */
  reversal: Reversal | null;
  /** the step the line can take: the reversal, or the offer of an irreversible op */
  step: ReversalStep | null;
}

/** The ops of a batch, last first (an undo runs backwards), each with its reversal. */
export function undoLines(batchOps: readonly OutboxOp[]): UndoLine[] {
  return [...batchOps]
    .sort((a, b) => b.seq - a.seq)
    .map((op) => {
      if (op.status !== 'done') return { op, reversal: null, step: null };
      const reversal = reverseOp(op);
      return { op, reversal, step: reversal.kind === 'reverse' ? reversal.step : (reversal.offer ?? null) };
    });
}

/** The record an op reads and changes: steps with one key are judged in turn against one record. */
function recordKeyOf(op: OpSpec): string {
  return definitionOf(op).undoRecordKey?.(op) ?? targetKeyOf(op);
}

/** One op per record to read (the first step on it, since undo runs backwards). */
export function readsOf(lines: readonly UndoLine[]): Map<string, OpSpec> {
  const reads = new Map<string, OpSpec>();
  for (const line of lines) {
    if (!line.step) continue;
    const key = recordKeyOf(line.step.op);
    if (!reads.has(key)) reads.set(key, line.step.op);
  }
  return reads;
}

export type Verdict = 'revert' | 'already' | 'conflict';

export interface FieldCompare {
  field: string;
  /** before the batch (what the undo restores) */
  base: ShapeValue | undefined;
  /** right after the batch */
  applied: ShapeValue | undefined;
  now: unknown;
}

export interface JudgedLine {
  line: UndoLine;
  /** null: nothing to judge (not applied, or irreversible without an offer), or the record could not be read */
  verdict: Verdict | null;
  /** the record as the undo finds it */
  now: RecordState | null;
  compare: FieldCompare[];
  /** the line goes into the undo batch */
  goes: boolean;
}

export interface UndoChoices {
  /** ops whose conflict the user chose to revert anyway */
  force: ReadonlySet<string>;
  /** irreversible ops whose offer the user took (set a created person Inactive) */
  offers: ReadonlySet<string>;
}

const NO_CHOICES: UndoChoices = { force: new Set(), offers: new Set() };

function matches(shape: Shape, state: RecordState): boolean {
  if (shape.present !== state.present) return false;
  if (!state.present) return true;
  return Object.entries(shape.fields).every(([field, value]) => sameValue(field, value, state.record[field]));
}

/** The record once the step has put it back. */
function restored(state: RecordState, before: Shape): RecordState {
  if (!before.present) return { present: false };
  return { present: true, record: { ...(state.present ? state.record : {}), ...before.fields } };
}

const presence = (present: boolean) => (present ? 'present' : 'absent');

function compareOf(step: ReversalStep, now: RecordState): FieldCompare[] {
  const out: FieldCompare[] = [];
  if (step.before.present !== step.applied.present || !now.present) {
    out.push({
      field: 'record',
      base: presence(step.before.present),
      applied: presence(step.applied.present),
      now: presence(now.present),
    });
  }
  const fields = new Set([...Object.keys(step.before.fields), ...Object.keys(step.applied.fields)]);
  for (const field of fields)
    out.push({
      field,
      base: step.before.fields[field],
      applied: step.applied.fields[field],
      now: now.present ? now.record[field] : undefined,
    });
  return out;
}

export function judgeUndo(
  lines: readonly UndoLine[],
  nowByRecord: ReadonlyMap<string, RecordState>,
  choices: UndoChoices = NO_CHOICES,
): JudgedLine[] {
  const state = new Map(nowByRecord);
  return lines.map((line): JudgedLine => {
    const step = line.step;
    const key = step ? recordKeyOf(step.op) : '';
    const now = step ? state.get(key) : undefined;
    if (!step || !now) return { line, verdict: null, now: now ?? null, compare: [], goes: false };
    const verdict: Verdict = matches(step.before, now)
      ? 'already'
      : matches(step.applied, now)
        ? 'revert'
        : 'conflict';
    const included = line.reversal?.kind === 'reverse' || choices.offers.has(line.op.id);
    const goes =
      included && (verdict === 'revert' || (verdict === 'conflict' && choices.force.has(line.op.id)));
    if (goes || (included && verdict === 'already')) state.set(key, restored(now, step.before));
    return { line, verdict, now, compare: compareOf(step, now), goes };
  });
}

/** A value the base check can hold. */
function baseValue(value: unknown): ShapeValue {
  if (value === undefined) return null;
  return typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    value === null
    ? value
    : JSON.stringify(value);
}

/**
 * The undo batch. A conflict reverted anyway is checked against what the user
 * saw (the record as read), so a change made after the preview still stops it.
 */
export function undoDrafts(
  judged: readonly JudgedLine[],
  summaryOf: (line: UndoLine, step: ReversalStep) => string = (_line, step) => step.summary,
): OpDraft[] {
  const drafts: OpDraft[] = [];
  for (const j of judged) {
    const step = j.line.step;
    if (!j.goes || !step) continue;
    let base: BaseValues = step.base;
    if (j.verdict === 'conflict') {
      base = {};
      for (const field of Object.keys(step.base))
        base[field] = j.now?.present ? baseValue(j.now.record[field]) : null;
    }
    drafts.push({ op: step.op, base, summary: summaryOf(j.line, step) });
  }
  return drafts;
}

export interface UndoCounts {
  revert: number;
  already: number;
  conflict: number;
  irreversible: number;
  notApplied: number;
  /** the record could not be read (online) or is not in the cache */
  unknown: number;
}

export function undoCounts(judged: readonly JudgedLine[]): UndoCounts {
  const counts: UndoCounts = {
    revert: 0,
    already: 0,
    conflict: 0,
    irreversible: 0,
    notApplied: 0,
    unknown: 0,
  };
  for (const j of judged) {
    if (!j.line.reversal) counts.notApplied += 1;
    else if (j.line.reversal.kind === 'irreversible') counts.irreversible += 1;
    else if (j.verdict === null) counts.unknown += 1;
    else counts[j.verdict] += 1;
  }
  return counts;
}
