/** One operation in full, and editing its values before it is sent. */
import { useState } from 'react';
import type { OpSpec } from '../../../shared/ipc.ts';
import { opSpecSchema } from '../../../shared/ipc.ts';
import type { OutboxOp } from '../../../shared/outbox.ts';
import { editOp } from '../../../shared/replay-queue/queue.ts';
import { outboxStore, personsWrite } from '../../outbox/runtime.ts';
import { displayValue } from './compare.ts';
import { toIsoDate } from '../../../shared/dates.ts';
import { DATE_FIELDS } from '../../op-kinds/words.ts';
import { fieldLabel } from '../../app/words.ts';

/** The values an edit was made from, in words ("Status: Active"). */
/** Record ids a base keeps to name what it removed (the description above names them): not shown. */
const ID_FIELDS: ReadonlySet<string> = new Set([
  'userid',
  'courseid',
  'credentialid',
  'groupid',
  'transcriptid',
  'emailid',
  'siteid',
  'accessID',
]);

/** "Due date: Jun 1, 2026; Start date: —": the values an op was made from, without the internal ids. */
export function baseInWords(base: OutboxOp['base']): string {
  const entries = Object.entries(base).filter(([field]) => !ID_FIELDS.has(field));
  if (entries.length === 0) return '—';
  return entries.map(([field, value]) => `${fieldLabel(field)}: ${displayValue(value)}`).join('; ');
}

/** A date field's value as the date picker takes it (YYYY-MM-DD); other values as they are. */
export function inputValue(field: string, value: string): string {
  return DATE_FIELDS.has(field) ? toIsoDate(value) || value : value;
}

/** The editable text fields of an op (its changes or fields), if it has any. */
export function editableFields(op: OpSpec): Record<string, string> | null {
  const spec = op as { changes?: Record<string, unknown>; fields?: Record<string, unknown>; email?: string };
  const values = spec.changes ?? spec.fields;
  if (values)
    return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === undefined ? '' : String(v)]));
  return spec.email !== undefined ? { email: spec.email } : null;
}

/** The op with edited values, or the reason it is not valid. */
export function withEdits(
  op: OpSpec,
  values: Record<string, string>,
): { ok: true; op: OpSpec } | { ok: false; error: string } {
  const spec = op as Record<string, unknown>;
  const next =
    'changes' in spec
      ? { ...spec, changes: values }
      : 'fields' in spec
        ? { ...spec, fields: values }
        : { ...spec, ...values };
  const parsed = opSpecSchema.safeParse(next);
  return parsed.success
    ? { ok: true, op: parsed.data }
    : { ok: false, error: parsed.error.issues[0]?.message ?? 'Not valid.' };
}

export function OpDetails({
  op,
  editable,
  description,
}: {
  op: OutboxOp;
  editable: boolean;
  description: string;
}) {
  return (
    <div className="op-inspect">
      <OpSummary op={op} description={description} />
      <TechnicalDetails op={op} />
      {editable && <OpEditForm op={op} description={description} />}
    </div>
  );
}

function OpSummary({ op, description }: { op: OutboxOp; description: string }) {
  return (
    <dl>
      <dt>What</dt>
      <dd>{description}</dd>
      <dt>Made from</dt>
      <dd>{baseInWords(op.base)}</dd>
      {op.response && (
        <>
          <dt>The site answered</dt>
          <dd>{op.response.developermessage || op.response.status}</dd>
        </>
      )}
      {op.lastError && (
        <>
          <dt>Last error</dt>
          <dd>{op.lastError.message}</dd>
        </>
      )}
    </dl>
  );
}

function TechnicalDetails({ op }: { op: OutboxOp }) {
  return (
    <details>
      <summary>Technical details</summary>
      <dl>
        <dt>Operation</dt>
        <dd>{op.op.kind}</dd>
        <dt>Target</dt>
        <dd>{op.targetKey}</dd>
        <dt>Batch</dt>
        <dd>{op.batchId}</dd>
        <dt>Payload</dt>
        <dd>{displayValue(op.op)}</dd>
        {op.response && (
          <>
            <dt>Server response</dt>
            <dd>{displayValue(op.response)}</dd>
          </>
        )}
      </dl>
    </details>
  );
}

/** The op's values to edit before it is sent, and what saving them did; nothing for an op with no values. */
function OpEditForm({ op, description }: { op: OutboxOp; description: string }) {
  const [values, setValues] = useState<Record<string, string> | null>(() => editableFields(op.op));
  const [message, setMessage] = useState<string | null>(null);
  const save = async () => {
    if (!values) return;
    const edited = withEdits(op.op, values);
    if (!edited.ok) return setMessage(edited.error);
    const db = outboxStore.getState().db;
    if (!db) return;
    const summary = `${description} (edited)`;
    const change = await personsWrite((sending) => editOp(db, op.id, edited.op, summary, { sending }));
    setMessage(
      change.written.length > 0
        ? 'Saved: it will be sent with the new values.'
        : 'It can no longer be edited: it is being sent, or was sent already.',
    );
  };
  return (
    <>
      {values && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          {Object.entries(values).map(([field, value]) => (
            <label key={field}>
              {fieldLabel(field)}{' '}
              <input
                type={DATE_FIELDS.has(field) ? 'date' : field === 'password' ? 'password' : 'text'}
                value={inputValue(field, value)}
                onChange={(e) => setValues({ ...values, [field]: e.target.value })}
              />
            </label>
          ))}
          <button type="submit">Save changes</button>
        </form>
      )}
      {message && <p role="status">{message}</p>}
    </>
  );
}
