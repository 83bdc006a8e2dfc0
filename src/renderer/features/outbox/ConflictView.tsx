/**
 * Conflicts: edits whose record changed on the server since they were made.
 * For each: every field in conflict in words, with the value it was edited
 * from, mine and the server's; the user keeps mine or the server's field by
 * field (or all at once) and the merged change goes back to the queue, checked
 * against the server again. One at a time, or for all conflicts alike.
 */
import type { OpSpec } from '../../../shared/ipc.ts';
import type { OutboxOp } from '../../../shared/outbox.ts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useActiveDb } from '../../app/session.ts';
import { resolveConflicts } from '../../../shared/replay-queue/queue.ts';
import { allFields, type FieldChoice, type FieldChoices } from '../../../shared/replay-queue/merge.ts';
import { OP_KIND_TABLE } from '../../../shared/op-kinds.ts';
import { outboxStore, personsWrite, useOutbox } from '../../outbox/runtime.ts';
import { fieldInSentence, fieldLabel, plural } from '../../app/words.ts';
import { ErrorMessage, errorFromUnknown } from '../../components/ErrorMessage.tsx';
import { fieldValue } from './compare.ts';
import { alikeConflicts, conflictFieldsOf, type ConflictField } from './view-model.ts';
import { describeOp, NO_NAMES } from './describe.ts';
import { loadOpNames } from './names.ts';
import { resolutionWords } from './conflict-words.ts';

const NONE: OutboxOp[] = [];

/** The confirmation of the last resolution: it takes the keyboard focus (not the page body) when it appears. */
function Confirmation({ done }: { done: Done | null }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (done) ref.current?.focus();
  }, [done]);
  if (!done) return null;
  return (
    <p role="status" className="confirmation" tabIndex={-1} ref={ref}>
      {done.message}
    </p>
  );
}

/** A new object per resolution: the same words twice still move the focus. */
interface Done {
  message: string;
}

export default function ConflictView() {
  const db = useActiveDb();
  const conflicts =
    useLiveQuery(
      async () =>
        db
          ? (await db.outbox.where('status').equals('conflict').toArray()).sort((a, b) => a.seq - b.seq)
          : [],
      [db],
    ) ?? NONE;
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set());
  const [done, setDone] = useState<Done | null>(null);
  const current = useMemo(() => conflicts.find((op) => !skipped.has(op.id)) ?? null, [conflicts, skipped]);
  const names =
    useLiveQuery(async () => (db && current ? loadOpNames(db, [current]) : NO_NAMES), [db, current]) ??
    NO_NAMES;

  return (
    <section className="view conflict-view" aria-labelledby="conflicts-heading">
      <h1 id="conflicts-heading">Conflicts{conflicts.length > 0 ? ` (${conflicts.length})` : ''}</h1>
      <Confirmation done={done} />
      {current ? (
        <ConflictForm
          key={current.id}
          op={current}
          what={describeOp(current, names)}
          conflicts={conflicts}
          onDone={(message) => setDone({ message })}
          onSkip={(ids) => setSkipped(new Set([...skipped, ...ids]))}
        />
      ) : (
        <>
          <p>{conflicts.length === 0 ? 'No conflicts.' : `${conflicts.length} skipped for now.`}</p>
          {skipped.size > 0 && (
            <button type="button" onClick={() => setSkipped(new Set())}>
              Review the skipped ones again
            </button>
          )}
        </>
      )}
    </section>
  );
}

interface FormProps {
  op: OutboxOp;
  what: string;
  conflicts: readonly OutboxOp[];
  onDone: (message: string) => void;
  onSkip: (ids: string[]) => void;
}

/** The choices made on a conflict, the conflicts alike it applies to, and resolving them. */
function useConflictResolution({ op, what, conflicts, onDone }: Omit<FormProps, 'onSkip'>) {
  const actor = useOutbox((s) => s.actor);
  const [choices, setChoices] = useState<FieldChoices>({});
  const [forAllAlike, setForAllAlike] = useState(false);
  const [error, setError] = useState<ReturnType<typeof errorFromUnknown> | null>(null);
  const alike = useMemo(() => alikeConflicts(conflicts, op), [conflicts, op]);
  const removal = OP_KIND_TABLE[op.op.kind].effect === 'delete';
  const words = resolutionWords(op, choices, what);
  const targets = forAllAlike ? alike : [op];
  // a removal is all or nothing: a choice on one field is the choice for the record
  const choose = (field: string, choice: FieldChoice) =>
    setChoices(removal ? allFields(op, choice) : { ...choices, [field]: choice });
  const resolve = async () => {
    const odb = outboxStore.getState().db;
    if (!odb || !words.ready) return;
    try {
      const ids = targets.map((t) => t.id);
      await personsWrite(() => resolveConflicts(odb, ids, choices, actor, { fieldName: fieldInSentence }));
      const others = ` The same for ${plural(targets.length - 1, 'other conflict')} alike.`;
      onDone(targets.length > 1 ? `${words.done}${others}` : words.done);
    } catch (e) {
      setError(errorFromUnknown(e));
    }
  };
  const state = { choices, setChoices, forAllAlike, setForAllAlike, error, setError };
  return { ...state, alike, removal, words, targets, choose, resolve };
}

function ConflictForm(props: FormProps) {
  const { op, what, onSkip } = props;
  const form = useConflictResolution(props);
  const { choices, alike, words, targets } = form;
  return (
    <>
      <h2>{what}</h2>
      <p>
        {form.removal
          ? 'This record was changed on the server after you chose to remove it.'
          : 'This record was changed on the server after your edit was made. For each field, keep yours or the server’s.'}
      </p>
      <ErrorMessage error={form.error} onDismiss={() => form.setError(null)} />
      <ConflictTable op={op} choices={choices} onChoose={form.choose} />
      {alike.length > 1 && (
        <label className="inline">
          <input
            type="checkbox"
            checked={form.forAllAlike}
            onChange={(e) => form.setForAllAlike(e.target.checked)}
          />{' '}
          Apply to all {alike.length} conflicts alike
        </label>
      )}
      <div className="toolbar">
        <button type="button" onClick={() => form.setChoices(allFields(op, 'mine'))}>
          All mine
        </button>
        <button type="button" onClick={() => form.setChoices(allFields(op, 'theirs'))}>
          All theirs
        </button>
        <button type="button" className="primary" onClick={() => void form.resolve()} disabled={!words.ready}>
          {words.action}
        </button>
        <button type="button" onClick={() => onSkip(targets.map((t) => t.id))}>
          Skip
        </button>
      </div>
    </>
  );
}

function ConflictTable({
  op,
  choices,
  onChoose,
}: {
  op: OutboxOp;
  choices: FieldChoices;
  onChoose: (field: string, choice: FieldChoice) => void;
}) {
  return (
    <table className="conflict-table" aria-label="Values in conflict">
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">When you edited</th>
          <th scope="col">Yours</th>
          <th scope="col">On the server now</th>
        </tr>
      </thead>
      <tbody>
        {conflictFieldsOf(op).map((f) => (
          <FieldRow
            key={f.field}
            spec={op.op}
            field={f}
            choice={choices[f.field]}
            onChoose={(c) => onChoose(f.field, c)}
          />
        ))}
      </tbody>
    </table>
  );
}

function FieldRow({
  spec,
  field: f,
  choice,
  onChoose,
}: {
  spec: OpSpec;
  field: ConflictField;
  choice: FieldChoice | undefined;
  onChoose: (choice: FieldChoice) => void;
}) {
  const label = fieldLabel(f.field);
  const option = (side: FieldChoice, value: unknown) => (
    <label className="choice">
      <input
        type="radio"
        name={`keep-${f.field}`}
        checked={choice === side}
        onChange={() => onChoose(side)}
      />
      <span className="visually-hidden">
        {label}: keep {side === 'mine' ? 'yours' : 'the server’s'},{' '}
      </span>
      {fieldValue(f.field, value, spec)}
    </label>
  );
  return (
    <tr className={choice ? `chosen-${choice}` : undefined}>
      <th scope="row">{label}</th>
      <td>{fieldValue(f.field, f.base, spec)}</td>
      <td>{option('mine', f.mine)}</td>
      <td>{option('theirs', f.theirs)}</td>
    </tr>
  );
}
