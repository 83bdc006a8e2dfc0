/**
 * Single-record edits for the detail views: a user's fields and status, one
 * credential assignment (dates, number, notes, status, remove), one training
 * assignment (dates, course status, remove). Each queues an op with the base it
 * was made from and offers "Undo" until it is sent.
 *
 * Mount: <EditUserForm user={user} />, <EditCredentialAssignment assignment={a} label={credentialname} />,
 * <EditTrainingAssignment assignment={t} label={course_name} /> (records in their effective state).
 */
import { personStatusChoice } from '../../app/person-status.ts';
import { useState, type FormEvent, type ReactNode } from 'react';
import type {
  CredentialAssignmentRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../../shared/records.ts';
import type { OpDraft } from '../../../shared/replay-queue/queue.ts';
import type { OpKind } from '../../../shared/ipc.ts';
import { firstWriteRefusal } from '../../../shared/access.ts';
import { useSession } from '../../app/session.ts';
import { queueDrafts, undoOps } from '../../outbox/runtime.ts';
import { KNOWN_STATUSES } from '../import/rows.ts';
import { fieldLabel } from '../../app/words.ts';
import { COURSE_STATUSES, CREDENTIAL_ASSIGNMENT_STATUSES, statusChoices } from './status-choices.ts';
import {
  ASSIGNMENT_EDIT_FIELDS,
  credentialAssignmentDeleteDraft,
  credentialAssignmentEditDraft,
  trainingDeleteDraft,
  trainingEditDraft,
  USER_EDIT_FIELDS,
  userEditDraft,
} from './single-edit.ts';

/**
 * The training fields as the record names them (the op's `duedate` is the record's `due_date`), for the one label
 * table.
 */
const RECORD_NAME: Readonly<Record<string, string>> = { duedate: 'due_date', coursestatus: 'course_status' };
const labelOf = (field: string): string => fieldLabel(RECORD_NAME[field] ?? field);

/**
 * The frame every edit shares: the token's refusal (canWrite), queueing, "nothing changes", undo. `kinds`: the ops it
 * may queue.
 */
function EditFrame(props: {
  title: string;
  kinds: readonly OpKind[];
  children: ReactNode;
  draft: () => OpDraft | null;
  remove?: () => OpDraft;
}) {
  const access = useSession((s) => s.activeProfile?.access ?? 'unknown');
  const refusal = firstWriteRefusal(access, props.kinds);
  const [queued, setQueued] = useState<string[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const queue = async (draft: OpDraft | null) => {
    if (refusal) return;
    if (!draft) return setMessage('Nothing changes.');
    setQueued(await queueDrafts([draft]));
    setMessage('Queued: it is sent when the site is reachable.');
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void queue(props.draft());
  };
  return (
    <form className="record-edit" aria-label={props.title} onSubmit={submit}>
      <fieldset disabled={refusal !== null}>
        <legend>{props.title}</legend>
        {props.children}
        <button type="submit">Queue change</button>
        {props.remove && (
          <button type="button" onClick={() => void queue(props.remove!())}>
            Remove
          </button>
        )}
      </fieldset>
      {refusal && <p role="note">{refusal} Edits cannot be queued.</p>}
      {message && (
        <p role="status">
          {message}{' '}
          {queued && (
            <button
              type="button"
              onClick={() =>
                void undoOps(queued).then(() => {
                  setQueued(null);
                  setMessage('Undone.');
                })
              }
            >
              Undo
            </button>
          )}
        </p>
      )}
    </form>
  );
}

function useFields<K extends string>(initial: Record<K, string>) {
  const [values, setValues] = useState(initial);
  const input = (field: K, type: 'text' | 'date' = 'text') => (
    <label key={field}>
      {labelOf(field)}{' '}
      <input
        type={type}
        value={values[field]}
        onChange={(e) => setValues({ ...values, [field]: e.target.value })}
      />
    </label>
  );
  /** a status is chosen among those the platform accepts (the record's own value kept first), never typed */
  const choice = (field: K, known: readonly string[]) => (
    <label key={field}>
      {labelOf(field)}{' '}
      <select value={values[field]} onChange={(e) => setValues({ ...values, [field]: e.target.value })}>
        {statusChoices(known, initial[field]).map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
  return { values, setValues, input, choice };
}

export function EditUserForm({ user }: { user: UserRecord }) {
  const { values, setValues, input } = useFields({
    firstname: user.firstname,
    lastname: user.lastname,
    username: user.username,
    employeeid: user.employeeid,
    status: user.status,
  });
  const statuses = KNOWN_STATUSES.includes(user.status) ? KNOWN_STATUSES : [user.status, ...KNOWN_STATUSES];
  return (
    <EditFrame title="Edit this user" kinds={['user.update']} draft={() => userEditDraft(user, values)}>
      {USER_EDIT_FIELDS.filter((f) => f !== 'status').map((f) => input(f))}
      <label>
        Status{' '}
        <select value={values.status} onChange={(e) => setValues({ ...values, status: e.target.value })}>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {personStatusChoice(s)}
            </option>
          ))}
        </select>
      </label>
    </EditFrame>
  );
}

export function EditCredentialAssignment({
  assignment,
  label,
}: {
  assignment: CredentialAssignmentRecord;
  label: string;
}) {
  const { values, input, choice } = useFields({
    startdate: assignment.startIso,
    expirationdate: assignment.expirationIso,
    credentialnumber: assignment.credentialnumber,
    notes: assignment.notes,
    status: assignment.status,
  });
  return (
    <EditFrame
      title={`Edit ${label}`}
      kinds={['credentialAssignment.update', 'credentialAssignment.delete']}
      draft={() => credentialAssignmentEditDraft(assignment, values, label)}
      remove={() => credentialAssignmentDeleteDraft(assignment, label)}
    >
      {ASSIGNMENT_EDIT_FIELDS.map((f) =>
        f === 'status'
          ? choice(f, CREDENTIAL_ASSIGNMENT_STATUSES)
          : input(f, f.endsWith('date') ? 'date' : 'text'),
      )}
    </EditFrame>
  );
}

export function EditTrainingAssignment({
  assignment,
  label,
}: {
  assignment: TrainingAssignmentRecord;
  label: string;
}) {
  const { values, input, choice } = useFields({
    startdate: assignment.startIso,
    duedate: assignment.dueIso,
    coursestatus: assignment.course_status,
  });
  return (
    <EditFrame
      title={`Edit ${label}`}
      kinds={['trainingAssignment.update', 'trainingAssignment.delete']}
      draft={() => trainingEditDraft(assignment, values, label)}
      remove={() => trainingDeleteDraft(assignment, label)}
    >
      {input('startdate', 'date')}
      {input('duedate', 'date')}
      {choice('coursestatus', COURSE_STATUSES)}
    </EditFrame>
  );
}
