/**
 * Import employees from a spreadsheet: drop or pick a file; it is read in a
 * worker (progress, Cancel; the last file dropped wins; a refused file clears
 * the previous preview). Then choose the header row, the columns, the key that
 * finds people and the mode; see every row's outcome by category; exclude rows,
 * tick identity changes; queue the rest as one batch.
 */
import type { UserRecord } from '../../../shared/records.ts';
import { useMemo, useRef, useState, type DragEvent } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useActiveDb, useSession } from '../../app/session.ts';
import { formatCount } from '../../app/format.ts';
import { enqueueOps } from '../../../shared/replay-queue/queue.ts';
import { firstWriteRefusal } from '../../../shared/access.ts';
import { outboxStore, queueChanged } from '../../outbox/runtime.ts';
import { useFileReading } from './useFileReading.ts';
import type { RawTable } from './read/table.ts';
import { ACCEPTED_EXTENSIONS } from './read/extensions.ts';
import { findHeaderRow, sheetOf } from './header.ts';
import { columnLetter } from '../../../shared/spreadsheet-export.ts';
import { FIELD_LABELS, guessMapping, ignoredColumns, IMPORT_FIELDS, type ColumnMapping, type ImportField } from './mapping.ts';
import { emailsByUser, type ImportMode, type MatchKey } from './match.ts';
import { useImportPlans } from './useImportPlans.ts';
import { draftsInSlices, isQueued } from './rows.ts';
import { ImportResults, useLastImport } from './ImportResults.tsx';
import { ImportPreview } from './ImportPreview.tsx';
import { applyPreset, deletePreset, loadPresets, presetFor, savePreset, type ImportPreset } from './presets.ts';
import { applyPendingToEmails, applyPendingToUsers } from '../../outbox/pending.ts';
import { memoUnsentOps } from '../../outbox/ops-memo.ts';
import { usePendingVersion } from '../../outbox/runtime.ts';
import { extraKinds, extrasEffects, extrasRefusal, requiredOfRows, type ImportExtras } from './extras.ts';
import type { DayMonthOrder } from './text-date.ts';
import { ImportExtrasForm } from './ImportExtrasForm.tsx';
import type { GroupRef } from './match.ts';

const NONE: UserRecord[] = [];
const KEY_LABELS: Record<MatchKey, string> = { employeeid: 'Employee ID', username: 'Username', email: 'E-mail' };
const MODE_LABELS: Record<ImportMode, string> = { upsert: 'Create new people and update known ones', create: 'Only create new people', update: 'Only update people already on the site' };

// eslint-disable-next-line max-lines-per-function -- not split yet (issue 9 stays open for it): the columns fieldset, presets and queueing are still inline
export default function ImportView() {
  const db = useActiveDb();
  // the import creates and updates people and adds their e-mails: the write rule of each (shared/access.ts)
  const access = useSession((s) => s.activeProfile?.access ?? 'unknown');
  const [extras, setExtras] = useState<ImportExtras>({});
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const refusal = firstWriteRefusal(access, ['user.create', 'user.update', 'email.add', ...extraKinds(extras, mapping.group !== undefined)]);
  const extrasProblem = extrasRefusal(extras, new Set(Object.keys(mapping)));
  const [dateOrder, setDateOrder] = useState<DayMonthOrder | undefined>(undefined);
  const requires = useMemo(() => requiredOfRows(extras), [extras]);
  const requiresKey = requires.join(',');
  const cannotQueue = refusal !== null || extrasProblem !== null;
  const sites = useLiveQuery(async () => (db ? db.sites.toArray() : []), [db]) ?? [];
  // planned against the effective state: people and e-mails still waiting in the Outbox count,
  // so the same file dropped twice before a replay never queues anyone twice
  const pendingVersion = usePendingVersion();
  const users = useLiveQuery(async () => (db ? applyPendingToUsers(await db.users.toArray(), await memoUnsentOps(db)) : []), [db, pendingVersion]) ?? NONE;
  const emails = useLiveQuery(
    async () => (db ? emailsByUser(applyPendingToEmails(await db.emails.toArray(), await memoUnsentOps(db))) : emailsByUser([])),
    [db, pendingVersion],
  );
  const [headerIndex, setHeaderIndex] = useState(0);
  const [key, setKey] = useState<MatchKey>('username');
  const [mode, setMode] = useState<ImportMode>('upsert');
  const [excluded, setExcluded] = useState<ReadonlySet<number>>(new Set());
  const [ticked, setTicked] = useState<ReadonlySet<number>>(new Set());
  const [siteChoice, setSiteChoice] = useState<number | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const { fileName, table, reading, error, load: read, cancel, clear } = useFileReading(() => setMessage(null));
  const [presets, setPresets] = useState<ImportPreset[]>(() => loadPresets());
  const [presetApplied, setPresetApplied] = useState<string | null>(null);
  const [presetName, setPresetName] = useState('');
  const siteid = siteChoice ?? sites[0]?.siteid ?? 0;
  // the site's groups by name: a Profile group column must name one of them
  const groups = useLiveQuery(
    async () => new Map<string, GroupRef>((db ? await db.groups.toArray() : []).filter((g) => g.siteid === siteid).map((g) => [g.groupname.toLowerCase(), { groupid: g.groupid, groupname: g.groupname }])),
    [db, siteid],
  );

  const sheet = useMemo(() => (table ? sheetOf(table.rows, headerIndex) : null), [table, headerIndex]);
  // Planned a slice of rows at a time (the window stays responsive on 200,000 rows), and only
  // once the cached e-mails are read, so an address already known is never queued again.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `requires` changes only when its key does
  const inputs = useMemo(() => (sheet && emails && groups ? { sheet, mapping, users, siteid, emails, key, mode, groups, dateOrder, requires } : null), [sheet, mapping, users, siteid, emails, key, mode, groups, dateOrder, requiresKey]);
  const { current, shown: plans } = useImportPlans(inputs, sheet);
  const queued = useMemo(() => (current ? current.filter((p) => isQueued(p, excluded, ticked)).length : 0), [current, excluded, ticked]);

  const chooseHeader = (index: number, rows: RawTable['rows']) => {
    setHeaderIndex(index);
    // the header as the sheet uses it (result columns of an earlier import left out)
    const headers = sheetOf(rows, index).headers;
    const preset = presetFor(headers, presets);
    setPresetApplied(preset?.name ?? null);
    if (preset) {
      setMapping(applyPreset(preset, headers));
      setKey(preset.key);
      setMode(preset.mode);
    } else {
      const next = guessMapping(headers);
      setMapping(next);
      setKey(next.employeeid !== undefined ? 'employeeid' : next.username !== undefined ? 'username' : next.email !== undefined ? 'email' : 'username');
    }
    setExcluded(new Set());
    setTicked(new Set());
  };

  const load = async (file: File) => {
    const got = await read(file);
    if (got) chooseHeader(findHeaderRow(got.rows), got.rows);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) void load(file);
  };
  const queueing = useRef(false);
  const queue = async () => {
    const odb = outboxStore.getState().db;
    if (!odb || cannotQueue || queueing.current) return;
    if (!sheet || !current || !inputs) return;
    // the drafts are made and stored with yields between slices: a second click meanwhile queues nothing
    queueing.current = true;
    try {
      await queueDrafts(odb);
    } finally {
      queueing.current = false;
    }
  };
  const queueDrafts = async (odb: NonNullable<ReturnType<typeof outboxStore.getState>['db']>) => {
    if (!sheet || !current || !inputs) return;
    const { drafts, rows } = await draftsInSlices(current, siteid, excluded, ticked, { extras, groups: inputs.groups });
    if (drafts.length === 0) return;
    const ops = await enqueueOps(odb, drafts);
    const opsByRow = new Map<number, string[]>();
    ops.forEach((op, i) => {
      const row = rows[i]!;
      const list = opsByRow.get(row);
      if (list) list.push(op.id);
      else opsByRow.set(row, [op.id]);
    });
    useLastImport.setState({ run: { fileName: fileName ?? 'import', headers: sheet.headers, rows: sheet.rows, plans: new Map(current.map((p) => [p.rowNumber, p])), opsByRow } });
    // the batch is stored: say so now; the outbox engine then loads it (for 100,000 ops, seconds)
    setMessage(`Queued ${formatCount(drafts.length)} changes from ${fileName ?? 'the file'}. See them in the Outbox.`);
    clear();
    await queueChanged();
  };
  const ignored = sheet ? ignoredColumns(sheet.headers, mapping) : [];

  return (
    <section className="view import-view" aria-labelledby="import-heading" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      <h1 id="import-heading">Import employees</h1>
      {refusal !== null && (
        <p role="alert">{refusal} An import can be previewed but not queued.</p>
      )}
      <div className="dropzone">
        <p>Drop a spreadsheet here (.xlsx, .xlsm, .csv, .tsv or .txt), or</p>
        <label>
          choose a file <input type="file" accept={ACCEPTED_EXTENSIONS.join(',')} onChange={(e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) void load(f); }} />
        </label>
      </div>
      {reading && (
        <p role="status" aria-label="Reading the file">
          Reading {reading.name}: {formatCount(reading.rows)} rows read…{' '}
          <button type="button" onClick={cancel}>Cancel</button>
        </p>
      )}
      {error && <p role="alert" className="error">{error}</p>}
      {message && <p role="status">{message}</p>}
      {!table && !reading && <ImportResults />}
      {table && sheet && (
        <>
          <fieldset>
            <legend>Columns of {fileName}</legend>
            <p>Read as {table.source}: {formatCount(table.rows.length)} rows with data.</p>
            {[...table.notes, ...sheet.warnings].map((w) => <p key={w} className="import-note">{w}</p>)}
            <label>
              Header row{' '}
              <select value={headerIndex} onChange={(e) => chooseHeader(Number(e.target.value), table.rows)}>
                {table.rows.slice(0, 30).map((r, i) => (
                  <option key={r.rowNumber} value={i}>Row {r.rowNumber}: {r.cells.filter(Boolean).slice(0, 4).join(', ').slice(0, 80)}</option>
                ))}
              </select>
            </label>
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
            <label>
              Find people by{' '}
              <select value={key} onChange={(e) => setKey(e.target.value as MatchKey)}>
                {(Object.keys(KEY_LABELS) as MatchKey[]).map((k) => <option key={k} value={k}>{KEY_LABELS[k]}</option>)}
              </select>
            </label>
            <label>
              Mode{' '}
              <select value={mode} onChange={(e) => setMode(e.target.value as ImportMode)}>
                {(Object.keys(MODE_LABELS) as ImportMode[]).map((m) => <option key={m} value={m}>{MODE_LABELS[m]}</option>)}
              </select>
            </label>
            {IMPORT_FIELDS.map((field) => (
              <label key={field}>
                {FIELD_LABELS[field]}{' '}
                <select value={mapping[field] ?? -1} onChange={(e) => setMapping(remap(mapping, field, Number(e.target.value)))}>
                  <option value={-1}>(not in the file)</option>
                  {sheet.headers.map((h, i) => (
                    <option key={i} value={i}>{h || `Column ${columnLetter(i)}`}</option>
                  ))}
                </select>
              </label>
            ))}
            <label>
              Dates written as{' '}
              <select value={dateOrder ?? ''} onChange={(e) => setDateOrder(e.target.value === '' ? undefined : (e.target.value as DayMonthOrder))}>
                <option value="">Unambiguous only (03/04/2026 is refused)</option>
                <option value="dmy">Day first (03/04/2026 is 3 April)</option>
                <option value="mdy">Month first (03/04/2026 is March 4)</option>
              </select>
            </label>
            {ignored.length > 0 && <p>Ignored columns: {ignored.map((i) => sheet.headers[i]).join(', ')}.</p>}
            {presetApplied && (
              <p role="status">
                Preset “{presetApplied}” applied (saved for these headers).{' '}
                <button type="button" onClick={() => { setPresets(deletePreset(presetApplied)); setPresetApplied(null); }}>Forget this preset</button>
              </p>
            )}
            <label>
              Save these columns as a preset{' '}
              <input value={presetName} onChange={(e) => setPresetName(e.target.value)} placeholder="e.g. HR weekly export" />
            </label>{' '}
            <button type="button" disabled={!presetName.trim()} onClick={() => { setPresets(savePreset(presetName, sheet.headers, mapping, key, mode)); setPresetApplied(presetName.trim()); setPresetName(''); }}>
              Save preset
            </button>
          </fieldset>
          <ImportExtrasForm siteid={siteid} extras={extras} onChange={setExtras} />
          {extrasProblem && <p role="alert">{extrasProblem}</p>}
          {!current && <p role="status" aria-label="Preparing the preview">Checking {formatCount(sheet.rows.length)} rows against the people on the site…</p>}
          {plans && <ImportPreview plans={plans} effects={extrasEffects(extras, mapping.group !== undefined)} excluded={excluded} ticked={ticked} onExclude={setExcluded} onTick={setTicked} />}
          <button type="button" onClick={() => void queue()} disabled={cannotQueue || queued === 0}>
            Queue {formatCount(queued)} rows
          </button>
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
