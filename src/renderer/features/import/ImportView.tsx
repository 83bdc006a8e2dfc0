/**
 * Import employees from a spreadsheet: drop or pick a CSV/XLSX, map its
 * columns, see every row's outcome (create, update, unchanged, or why not),
 * and queue the creates and updates. A broken file gives a clear error and
 * changes nothing.
 */
import type { UserRecord } from '../../../shared/records.ts';
import { useMemo, useState, type DragEvent } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useActiveDb, useSession } from '../../app/session.ts';
import { formatCount } from '../../app/format.ts';
import { enqueueOps } from '../../../shared/replay-queue/queue.ts';
import { firstWriteRefusal } from '../../../shared/access.ts';
import { outboxStore, queueChanged } from '../../outbox/runtime.ts';
import { parseSpreadsheet, type Sheet } from './parse.ts';
import { draftsOf, emailsByUser, FIELD_LABELS, guessMapping, IMPORT_FIELDS, planImport, rowsOf, type ColumnMapping, type ImportField } from './rows.ts';

const NONE: UserRecord[] = [];

export default function ImportView() {
  const db = useActiveDb();
  // the import creates and updates people and adds their e-mails: the write rule of each (shared/access.ts)
  const access = useSession((s) => s.activeProfile?.access ?? 'unknown');
  const refusal = firstWriteRefusal(access, ['user.create', 'user.update', 'email.add']);
  const cannotQueue = refusal !== null;
  const sites = useLiveQuery(async () => (db ? db.sites.toArray() : []), [db]) ?? [];
  const users = useLiveQuery(async () => (db ? db.users.toArray() : []), [db]) ?? NONE;
  const emails = useLiveQuery(async () => emailsByUser(db ? await db.emails.toArray() : []), [db]);
  const [fileName, setFileName] = useState<string | null>(null);
  const [sheet, setSheet] = useState<Sheet | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [siteChoice, setSiteChoice] = useState<number | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const siteid = siteChoice ?? sites[0]?.siteid ?? 0;

  // planned once the cached e-mails are read, so an address already known is never queued again
  const plans = useMemo(() => (sheet && emails ? planImport(rowsOf(sheet, mapping), users, siteid, emails) : []), [sheet, mapping, users, siteid, emails]);
  const counts = useMemo(() => {
    const c = { create: 0, update: 0, unchanged: 0, error: 0 };
    for (const p of plans) c[p.action] += 1;
    return c;
  }, [plans]);

  const load = async (file: File) => {
    setMessage(null);
    const result = await parseSpreadsheet(file.name, await file.arrayBuffer());
    if (!result.ok) {
      setError(`${file.name}: ${result.error}`);
      return;
    }
    setError(null);
    setFileName(file.name);
    setSheet(result.sheet);
    setMapping(guessMapping(result.sheet.headers));
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) void load(file);
  };
  const queue = async () => {
    const odb = outboxStore.getState().db;
    if (!odb || cannotQueue) return;
    const drafts = draftsOf(plans, siteid);
    if (drafts.length === 0) return;
    await enqueueOps(odb, drafts);
    await queueChanged();
    setMessage(`Queued ${formatCount(drafts.length)} changes from ${fileName ?? 'the file'}. See them in the Outbox.`);
    setSheet(null);
  };

  return (
    <section className="view import-view" aria-labelledby="import-heading" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      <h1 id="import-heading">Import employees</h1>
      {cannotQueue && (
        <p role="alert">{refusal} An import can be previewed but not queued.</p>
      )}
      <div className="dropzone">
        <p>Drop a .csv or .xlsx file here, or</p>
        <label>
          choose a file <input type="file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" onChange={(e) => e.target.files?.[0] && void load(e.target.files[0])} />
        </label>
      </div>
      {error && <p role="alert" className="error">{error}</p>}
      {message && <p role="status">{message}</p>}
      {sheet && (
        <>
          <fieldset>
            <legend>Columns of {fileName}</legend>
            {sites.length > 1 && (
              <label>
                Site{' '}
                <select value={siteid} onChange={(e) => setSiteChoice(Number(e.target.value))}>
                  {sites.map((s) => (
                    <option key={s.siteid} value={s.siteid}>{s.sitename}</option>
                  ))}
                </select>
              </label>
            )}
            {IMPORT_FIELDS.map((field) => (
              <label key={field}>
                {FIELD_LABELS[field]}{' '}
                <select value={mapping[field] ?? -1} onChange={(e) => setMapping(remap(mapping, field, Number(e.target.value)))}>
                  <option value={-1}>(not in the file)</option>
                  {sheet.headers.map((h, i) => (
                    <option key={i} value={i}>{h || `Column ${i + 1}`}</option>
                  ))}
                </select>
              </label>
            ))}
          </fieldset>
          <p role="status">
            {formatCount(counts.create)} to create, {formatCount(counts.update)} to update, {formatCount(counts.unchanged)} unchanged, {formatCount(counts.error)} with errors (not queued).
          </p>
          <button type="button" onClick={() => void queue()} disabled={cannotQueue || counts.create + counts.update === 0}>
            Queue {formatCount(counts.create + counts.update)} changes
          </button>
          <table aria-label="Rows of the file">
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Outcome</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {plans.slice(0, 1000).map((p) => (
                <tr key={p.rowNumber} className={`import-${p.action}`}>
                  <td>{p.rowNumber}</td>
                  <td>{p.action === 'error' ? 'Error' : p.action === 'create' ? 'Create' : p.action === 'update' ? 'Update' : 'Unchanged'}</td>
                  <td>
                    {p.action === 'error' && p.errors.join(' ')}
                    {p.action === 'create' && `${p.values.username}: ${p.values.firstname} ${p.values.lastname}`}
                    {p.action === 'update' && `${p.user.username}: ${Object.entries(p.changes).map(([f, v]) => `${f} → ${v}`).join(', ')}`}
                    {p.action === 'unchanged' && p.user.username}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

function remap(mapping: ColumnMapping, field: ImportField, column: number): ColumnMapping {
  const next = { ...mapping };
  if (column < 0) delete next[field];
  else next[field] = column;
  return next;
}
