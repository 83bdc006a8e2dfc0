/**
 * The undo preview in words, in the undo's own direction: undoing "status
 * Active → Inactive" reads "status Inactive → Active" (what the undo will do,
 * not the change it undoes). Pure over the names the cache knows.
 */
import type { OpSpec } from '../../../shared/ipc.ts';
import type { OutboxOp } from '../../../shared/outbox.ts';
import type { ReversalStep } from '../../../shared/undo/reverse.ts';
import type { FieldCompare, UndoCounts, Verdict } from '../../../shared/undo/plan.ts';
import { fieldInSentence, fieldLabel, NOT_ON_THIS_LAPTOP as NOT_HERE, plural } from '../../app/words.ts';
import { describeOp, namesFor, type OpNames } from '../outbox/describe.ts';
import { rendererKindOf } from '../../op-kinds.ts';
import type { Named } from '../../op-kinds/definition.ts';
import { fieldValue } from '../outbox/compare.ts';
import { formatCount } from '../../app/format.ts';

/**
 * The names of an undo's records: a person not on this laptop is said so, a credential or course without its name
 * is "credential" or "training".
 */
function undoNames(op: OutboxOp, names: OpNames): Named {
  return {
    ...namesFor(op, names, new Map()),
    person: (userid) => names.users.get(userid) ?? NOT_HERE.person,
    credential: (credentialid) => names.credentials.get(credentialid) ?? 'credential',
    course: (courseid) => names.courses.get(courseid) ?? 'training',
  };
}

/** Whose record an update changes: "Priya Costa", "Priya Costa's Rigging" (its kind's words). */
function recordOf(spec: OpSpec, names: OpNames, undone: OutboxOp): string {
  return rendererKindOf(spec).whose?.(spec, undoNames(undone, names)) ?? '';
}

/**
 * One field of an update step: "status Inactive → Active"; a field whose value after the batch was not recorded (a
 * person created without a status, offered to be set Inactive) is "set status to Inactive", never "status — → …".
 */
function fieldMove(field: string, step: ReversalStep): string {
  const to = fieldValue(field, step.before.fields[field], step.op);
  const from = step.applied.fields[field];
  return from === undefined
    ? `set ${fieldInSentence(field)} to ${to}`
    : `${fieldInSentence(field)} ${fieldValue(field, from, step.op)} → ${to}`;
}

/** What one step of the undo does: "Priya Costa: status Inactive → Active", "Remove Rigging from Priya Costa". */
export function undoStepWords(step: ReversalStep, names: OpNames, undone: OutboxOp): string {
  const spec = step.op;
  if ('changes' in spec) {
    const moves = Object.keys(spec.changes).map((f) => fieldMove(f, step));
    return `${recordOf(spec, names, undone)}: ${moves.join(', ')}`;
  }
  // the undo's op described as any op is (without the "Undo:" of the batch it belongs to)
  const { undoes: _undoes, bindings: _bindings, ...plain } = undone;
  return describeOp({ ...plain, op: spec }, names);
}

const PRESENCE: Record<string, string> = { present: 'there', absent: 'not there' };

/** "Status: before Active, after the batch Inactive, now Offline (never signed in)", as the op's kind words them */
export function compareWords(c: FieldCompare, spec?: OpSpec): string {
  const value = (v: unknown) =>
    c.field === 'record' && typeof v === 'string' ? (PRESENCE[v] ?? v) : fieldValue(c.field, v, spec);
  return `${fieldLabel(c.field)}: before ${value(c.base)}, after the batch ${value(c.applied)}, now ${value(c.now)}`;
}

export interface QueueButtonState {
  /** the check reads the platform (online) or the copy on this laptop */
  online: boolean;
  /** the check is running, or about to */
  checking: boolean;
  /** a check has answered */
  checked: boolean;
  /** changes the undo would queue */
  changes: number;
  /** changes queued by this view, once it has */
  queued: number | null;
}

/**
 * The main button says what it will queue, or what it waits for: never "Queue the undo (0 changes)" before the check.
 */
export function queueButtonText(s: QueueButtonState): string {
  if (s.queued !== null) return `Undo queued (${plural(s.queued, 'change')})`;
  if (s.checking) return s.online ? 'Checking with the platform…' : 'Checking the copy on this laptop…';
  if (!s.checked) return 'Check the records first';
  if (s.changes === 0) return 'Nothing to undo';
  return `Queue the undo (${plural(s.changes, 'change')})`;
}

/** Where the records were checked, in the coordinator's words: the platform online, this laptop's copy offline. */
export function checkedWhere(online: boolean, at: string): string {
  return online
    ? `Checked with the platform (${at})`
    : `Offline: checked against the copy on this laptop (${at}); each record is checked with the platform again before its undo is sent`;
}

/**
 * What checking the records found: "2 to revert, 2 the platform cannot reverse."; a part that counts nothing is left
 * out ("0 already as before, … 0 never applied" told the coordinator nothing).
 */
export function checkedFound(counts: UndoCounts): string {
  const parts = [
    [counts.revert, 'to revert'],
    [counts.already, 'already as before'],
    [counts.conflict, 'changed since (not reverted unless you choose)'],
    [counts.irreversible, 'the platform cannot reverse'],
    [counts.notApplied, 'never applied'],
    [counts.unknown, 'could not be checked'],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, what]) => `${formatCount(n)} ${what}`);
  return said.length > 0 ? `${said.join(', ')}.` : 'Nothing to undo.';
}

/** The button that (re)runs the check. */
export function checkButtonText(online: boolean, checked: boolean): string {
  const where = online ? 'with the platform' : 'against the copy on this laptop (offline)';
  return `${checked ? 'Check again' : 'Check the records'} ${where}`;
}

/** What an undo does once queued, said as the coordinator sees it happen. */
export const UNDO_LIKE_ANY_BATCH =
  'The undo is queued as a batch of its own and goes like any other: it is sent to the platform, each record is read back to confirm the change took, and it stays in the Outbox and its audit log.';

const VERDICT_TEXT: Record<Verdict, string> = {
  revert: 'Will be put back',
  already: 'Already as before: nothing to send',
  conflict: 'Changed since the batch was applied',
};

/** What the preview's "Record now" says of a change the platform cannot reverse, left as it is. */
export const STAYS_AS_IT_IS = 'Stays as it is: the platform cannot undo this';

/** What the preview's "Record now" says of a change the platform cannot reverse, the offer instead chosen. */
export const GETS_THE_OFFER = 'Will get the change offered instead';

/**
 * The "Record now" column of an undo line: a change the platform cannot reverse stays as it is, or, its offer
 * chosen, gets that change (never "Will be put back" beside "cannot be deleted"); otherwise what checking the record
 * found.
 */
export function recordNowWords(
  verdict: Verdict | null,
  cannotReverse: boolean,
  offerChosen: boolean,
): string {
  if (cannotReverse && !offerChosen) return STAYS_AS_IT_IS;
  if (cannotReverse && verdict === 'revert') return GETS_THE_OFFER;
  return verdict ? VERDICT_TEXT[verdict] : 'Not on this laptop: cannot be checked offline';
}
