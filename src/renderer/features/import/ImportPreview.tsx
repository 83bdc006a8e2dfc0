/**
 * The preview of an import: counts by category, what the platform does as a
 * side effect, and the rows of one category at a time (create, update with
 * before → after, identity changes to tick, unchanged, skipped, conflict with
 * both people, ambiguous, invalid with the reason), each with its own row number.
 */
import { fieldLabel, plural } from '../../app/words.ts';
import { useMemo, useState } from 'react';
import { formatCount, formatDate } from '../../app/format.ts';
import { ACTIONS, who, type RowAction, type RowPlan } from './match.ts';
import type { UserRecord } from '../../../shared/records.ts';
import { RULE_WORDS } from './hr-files.ts';

const TITLES: Record<RowAction, string> = {
  create: 'To create',
  update: 'To update',
  identity: 'Username or employee ID changes (tick each to queue it)',
  unchanged: 'Unchanged',
  skipped: 'Skipped (not queued)',
  conflict: 'Conflicts (not queued)',
  ambiguous: 'Ambiguous (not queued)',
  invalid: 'Invalid (not queued)',
};
const PAGE = 200;

interface Props {
  plans: readonly RowPlan[];
  /** what the platform does because of what the new people are given */
  effects: readonly string[];
  excluded: ReadonlySet<number>;
  ticked: ReadonlySet<number>;
  onExclude: (next: ReadonlySet<number>) => void;
  onTick: (next: ReadonlySet<number>) => void;
}

/** Rows that override what the user queued: said above the rows, as the file wins unless the row is unticked. */
export function undoingNote(rows: number): string {
  const one = rows === 1;
  const override = one ? 'overrides a change' : 'override changes';
  const values = one ? 'value is' : 'values are';
  const after = one ? 'it' : 'them';
  const untick = one ? 'the row' : 'a row';
  return (
    `${plural(rows, 'row')} ${override} you queued (marked "your queued change"): ` +
    `the file's ${values} sent after ${after}. Untick ${untick} to keep your change instead.`
  );
}

/** Who a row finds; someone created offline (stand-in id < 0) is said to be waiting in the Outbox. */
const person = (user: UserRecord) =>
  user.userid < 0 ? `${who(user)}, waiting in the Outbox to be created` : who(user);

/** The e-mail a row adds, said against the queued removal it overrides or waits for. */
function emailWords(p: Extract<RowPlan, { action: 'update' | 'identity' }>): string {
  if (p.undoes?.includes('email')) return `add back e-mail ${p.emailAdded}, which your queued change removes`;
  if (p.emailAfter)
    return `add e-mail ${p.emailAdded} once your queued change has taken it off another person`;
  return `add e-mail ${p.emailAdded}`;
}

const toggle = (set: ReadonlySet<number>, n: number) => {
  const next = new Set(set);
  if (!next.delete(n)) next.add(n);
  return next;
};

/**
 * A row's outcome in words: an update shows each field before → after, the before marked when it is the user's own
 * queued change.
 */
/** "ann.lee (username derived from …): Ann Lee, employee ID 0042, e-mail ann@example.com, group Drivers" */
function createWords(p: Extract<RowPlan, { action: 'create' }>): string {
  const { values } = p;
  const derived = p.derivedFrom ? ` (username derived from ${RULE_WORDS[p.derivedFrom]})` : '';
  const extras = [
    values.employeeid ? `employee ID ${values.employeeid}` : '',
    values.email ? `e-mail ${values.email}` : '',
    values.group ? `group ${values.group}` : '',
  ].filter(Boolean);
  const named = `${values.username}${derived}: ${values.firstname} ${values.lastname}`;
  return [named, ...extras].join(', ');
}

/** "Status: Active (your queued change) → Inactive": one field of an update, before and after. */
function fieldChangeWords(
  p: Extract<RowPlan, { action: 'update' | 'identity' }>,
  field: string,
  after: string,
): string {
  const before = String(p.user[field as keyof typeof p.user] ?? '') || '(blank)';
  const yours = p.undoes?.includes(field as keyof typeof p.changes) ? ' (your queued change)' : '';
  return `${fieldLabel(field)}: ${before}${yours} → ${after}`;
}

/** The course an update keeps though a queued change removes it, with its due date when the file gives one. */
function keptCourseWords(course: { coursename: string; duedate?: string }): string {
  const due = course.duedate ? `, due ${formatDate(course.duedate)}` : '';
  return `keep the course ${course.coursename}, which your queued change removes (assigned again after it${due})`;
}

export function details(p: RowPlan): string {
  switch (p.action) {
    case 'create':
      return createWords(p);
    case 'update':
    case 'identity': {
      const changes = Object.entries(p.changes).map(([f, v]) => fieldChangeWords(p, f, String(v)));
      if (p.emailAdded) changes.push(emailWords(p));
      if (p.keeps?.credential)
        changes.push(
          `keep the credential ${p.keeps.credential.credentialname}, which your queued change removes (assigned again after it, with the file's values)`,
        );
      if (p.keeps?.course) changes.push(keptCourseWords(p.keeps.course));
      return `${person(p.user)}: ${changes.join('; ')}`;
    }
    case 'unchanged':
      return person(p.user);
    case 'skipped':
    case 'ambiguous':
      return p.reason;
    case 'conflict':
      return p.reasons.join(' ');
    case 'invalid':
      return p.errors.join(' ');
  }
}

type Counts = Record<RowAction, number>;

export function ImportPreview({ plans, effects, excluded, ticked, onExclude, onTick }: Props) {
  const counts = useMemo(() => {
    const c = Object.fromEntries(ACTIONS.map((a) => [a, 0])) as Counts;
    for (const p of plans) c[p.action] += 1;
    return c;
  }, [plans]);
  const undoing = useMemo(() => plans.filter((p) => p.action === 'update' && p.undoes).length, [plans]);
  const firstShown = ACTIONS.find((a) => counts[a] > 0 && a !== 'unchanged') ?? 'unchanged';
  const [chosen, setChosen] = useState<RowAction | null>(null);
  const category = chosen && counts[chosen] > 0 ? chosen : firstShown;
  const [limit, setLimit] = useState(PAGE);
  const shown = useMemo(() => plans.filter((p) => p.action === category), [plans, category]);
  const choose = (a: RowAction) => {
    setChosen(a);
    setLimit(PAGE);
  };
  const row = { excluded, ticked, onExclude, onTick };
  return (
    <div className="import-preview">
      <PlanSummary counts={counts} effects={effects} undoing={undoing} />
      <CategoryButtons counts={counts} category={category} onChoose={choose} />
      <table aria-label="Rows of the file">
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col">Outcome</th>
            <th scope="col">Details</th>
            <th scope="col">Queue</th>
          </tr>
        </thead>
        <tbody>
          {shown.slice(0, limit).map((p) => (
            <PlanRow key={p.rowNumber} plan={p} {...row} />
          ))}
        </tbody>
      </table>
      {shown.length > limit && (
        <button type="button" onClick={() => setLimit(limit + PAGE)}>
          Show {formatCount(Math.min(PAGE, shown.length - limit))} more of {formatCount(shown.length)}
        </button>
      )}
    </div>
  );
}

function PlanSummary({
  counts,
  effects,
  undoing,
}: {
  counts: Counts;
  effects: readonly string[];
  undoing: number;
}) {
  return (
    <>
      <p role="status" aria-label="Import summary">
        {formatCount(counts.create)} to create, {formatCount(counts.update)} to update,{' '}
        {plural(counts.identity, 'identity change')}, {formatCount(counts.unchanged)} unchanged,{' '}
        {formatCount(counts.skipped)} skipped, {plural(counts.conflict, 'conflict')},{' '}
        {formatCount(counts.ambiguous)} ambiguous, {formatCount(counts.invalid)} invalid.
      </p>
      {counts.create > 0 && (
        <p>New people start as Offline on the platform unless the file gives their status.</p>
      )}
      {counts.create > 0 && effects.map((e) => <p key={e}>{e}</p>)}
      {undoing > 0 && <p role="note">{undoingNote(undoing)}</p>}
    </>
  );
}

function CategoryButtons({
  counts,
  category,
  onChoose,
}: {
  counts: Counts;
  category: RowAction;
  onChoose: (a: RowAction) => void;
}) {
  return (
    <div role="group" aria-label="Rows to show">
      {ACTIONS.filter((a) => counts[a] > 0).map((a) => (
        <button key={a} type="button" aria-pressed={a === category} onClick={() => onChoose(a)}>
          {TITLES[a]}: {formatCount(counts[a])}
        </button>
      ))}
    </div>
  );
}

/** One row of the file: its outcome, why, the people it could be, and whether it is queued. */
function PlanRow({
  plan: p,
  excluded,
  ticked,
  onExclude,
  onTick,
}: { plan: RowPlan } & Pick<Props, 'excluded' | 'ticked' | 'onExclude' | 'onTick'>) {
  return (
    <tr className={`import-${p.action}`}>
      <td>{p.rowNumber}</td>
      <td>{TITLES[p.action].replace(/ \(.*/, '')}</td>
      <td>
        {details(p)}
        {p.action === 'conflict' && p.people.length > 0 && (
          <ul aria-label={`People of row ${p.rowNumber}`}>
            {p.people.map((u) => (
              <li key={u.userid}>{who(u)}</li>
            ))}
          </ul>
        )}
        {p.action === 'ambiguous' && (
          <ul aria-label={`People of row ${p.rowNumber}`}>
            {p.people.map((u) => (
              <li key={u.userid}>{who(u)}</li>
            ))}
          </ul>
        )}
      </td>
      <td>
        {(p.action === 'create' || p.action === 'update') && (
          <input
            type="checkbox"
            aria-label={`Queue row ${p.rowNumber}`}
            checked={!excluded.has(p.rowNumber)}
            onChange={() => onExclude(toggle(excluded, p.rowNumber))}
          />
        )}
        {p.action === 'identity' && (
          <input
            type="checkbox"
            aria-label={`Apply the change of row ${p.rowNumber}`}
            checked={ticked.has(p.rowNumber)}
            onChange={() => onTick(toggle(ticked, p.rowNumber))}
          />
        )}
      </td>
    </tr>
  );
}
