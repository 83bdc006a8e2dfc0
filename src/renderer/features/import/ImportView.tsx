/**
 * Import employees from a spreadsheet: drop or pick a file; it is read in a
 * worker (progress, Cancel; the last file dropped wins; a refused file clears
 * the previous preview). Then choose the header row, the columns, the key that
 * finds people and the mode; see every row's outcome by category; exclude rows,
 * tick identity changes; queue the rest as one batch.
 */
import { useMemo, useState, type DragEvent } from 'react';
import { useSession } from '../../app/session.ts';
import { formatCount } from '../../app/format.ts';
import { plural } from '../../app/words.ts';
import { firstWriteRefusal } from '../../../shared/access.ts';
import { useFileReading } from './useFileReading.ts';
import { ACCEPTED_EXTENSIONS } from './read/extensions.ts';
import { findHeaderRow, sheetOf } from './header.ts';
import { useImportPlans } from './useImportPlans.ts';
import { isQueued } from './rows.ts';
import { ImportResults } from './ImportResults.tsx';
import { ImportPreview } from './ImportPreview.tsx';
import { extraKinds, extrasEffects, extrasRefusal, requiredOfRows, type ImportExtras } from './extras.ts';
import { ImportExtrasForm } from './ImportExtrasForm.tsx';
import { ImportColumnsForm } from './ImportColumnsForm.tsx';
import { useImportCache } from './useImportCache.ts';
import { useImportQueue } from './useImportQueue.ts';
import { useColumnChoices } from './useColumnChoices.ts';
import { ImportZerosChoice, useLostZeros } from './ImportZerosChoice.tsx';
import { ImportEncodingChoice } from './ImportEncodingChoice.tsx';
import { hasDeletions } from './queued-assignments.ts';
import { ImportCacheNotices } from './ImportCacheNotices.tsx';
import { ImportHrChoices, useHrChoices } from './ImportHrChoices.tsx';

const NO_EXTRAS: ImportExtras = {};

// eslint-disable-next-line max-lines-per-function -- over 80 lines once Prettier unpacked it: to be split into named steps (issue 36)
export default function ImportView() {
  // the import creates and updates people and adds their e-mails: the write rule of each (shared/access.ts)
  const access = useSession((s) => s.activeProfile?.access ?? 'unknown');
  const [extras, setExtras] = useState<ImportExtras>({});
  const columns = useColumnChoices();
  const { choices, headerIndex, excluded, ticked } = columns;
  const { key, mode, mapping, dateOrder } = choices;
  const refusal = firstWriteRefusal(access, [
    'user.create',
    'user.update',
    'email.add',
    ...extraKinds(extras, mapping.group !== undefined),
  ]);
  const extrasProblem = extrasRefusal(extras, new Set(Object.keys(mapping)));
  const requires = useMemo(() => requiredOfRows(extras), [extras]);
  const requiresKey = requires.join(',');
  const {
    sites,
    users,
    emails,
    queued: queuedState,
    groups,
    siteid,
    unknownCache,
  } = useImportCache(choices.siteChoice);
  const [message, setMessage] = useState<string | null>(null);
  const [hr, setHr] = useHrChoices();
  const {
    fileName,
    table,
    reading,
    error,
    load: read,
    cancel,
    clear,
    encoding,
  } = useFileReading(() => setMessage(null));
  const queue = useImportQueue((queuedMessage) => {
    setMessage(queuedMessage);
    clear();
  });

  const sheet = useMemo(() => (table ? sheetOf(table.rows, headerIndex) : null), [table, headerIndex]);
  const zeros = useLostZeros(sheet, mapping.employeeid, users, siteid);
  // the sites whose people the cache holds: main's index answers for the others
  const cachedSites = useMemo(() => sites.map((s) => s.siteid), [sites]);
  // the extras matter to the plan only where a queued change deletes what they give (queued-assignments.ts): otherwise typing a date does not re-plan the file
  const extrasKept = useMemo(
    () => (queuedState && hasDeletions(queuedState.deletions) ? extras : NO_EXTRAS),
    [queuedState, extras],
  );
  // Planned a slice of rows at a time (the window stays responsive on 200,000 rows), and only
  // once the cached e-mails are read, so an address already known is never queued again.
  const inputs = useMemo(
    () =>
      sheet && emails && queuedState && groups && siteid !== null && unknownCache !== undefined
        ? {
            sheet,
            mapping,
            users,
            siteid,
            cachedSites,
            emails,
            queued: queuedState,
            extras: extrasKept,
            key,
            mode,
            groups,
            dateOrder,
            requires,
            padIds: zeros.padIds,
            unknownCache,
            hr,
          }
        : null,
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `requires` changes only when its key does
    [
      sheet,
      mapping,
      users,
      siteid,
      cachedSites,
      emails,
      queuedState,
      extrasKept,
      key,
      mode,
      groups,
      dateOrder,
      requiresKey,
      zeros.padIds,
      unknownCache,
      hr,
    ],
  );
  const { current, shown: plans, notKept } = useImportPlans(inputs, sheet);
  // what the user must settle first: the right to write, the extras, the encoding, the site, ids without their zeros
  const cannotQueue =
    refusal !== null ||
    extrasProblem !== null ||
    encoding.undecided ||
    reading !== null ||
    siteid === null ||
    zeros.undecided;
  const queued = useMemo(
    () => (current ? current.filter((p) => isQueued(p, excluded, ticked)).length : 0),
    [current, excluded, ticked],
  );

  const load = async (file: File) => {
    const got = await read(file);
    if (got) columns.chooseHeader(findHeaderRow(got.rows), got.rows);
  };
  const onQueue = () => {
    if (cannotQueue || !sheet || !current || !groups || siteid === null) return;
    void queue({ fileName, sheet, plans: current, siteid, excluded, ticked, give: { extras, groups } });
  };

  return (
    <section
      className="view import-view"
      aria-labelledby="import-heading"
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => onDropped(e, load)}
    >
      <h1 id="import-heading">Import employees</h1>
      {refusal !== null && <p role="alert">{refusal} An import can be previewed but not queued.</p>}
      <div className="dropzone">
        <p>Drop a spreadsheet here (.xlsx, .xlsm, .csv, .tsv or .txt), or</p>
        <label>
          choose a file{' '}
          <input
            type="file"
            accept={ACCEPTED_EXTENSIONS.join(',')}
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f) void load(f);
            }}
          />
        </label>
      </div>
      {reading && <ReadingStatus reading={reading} onCancel={cancel} />}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {message && <p role="status">{message}</p>}
      {!table && !reading && <ImportResults />}
      {table && sheet && (
        <>
          <ImportColumnsForm
            fileName={fileName}
            table={table}
            sheet={sheet}
            sites={sites}
            choices={{ headerIndex, siteid, key, mode, mapping, dateOrder }}
            onHeader={(index) => columns.chooseHeader(index, table.rows)}
            onChange={columns.change}
            presetApplied={columns.presetApplied}
            onForgetPreset={columns.forgetPreset}
            onSavePreset={(name) => columns.keepAsPreset(name, sheet.headers)}
          />
          {encoding.question && (
            <ImportEncodingChoice
              question={encoding.question}
              answer={encoding.answer}
              onAnswer={encoding.onAnswer}
              busy={reading !== null}
            />
          )}
          {zeros.lost && mapping.employeeid !== undefined && (
            <ImportZerosChoice
              lost={zeros.lost}
              sheet={sheet}
              column={mapping.employeeid}
              choice={zeros.choice}
              onChoose={zeros.choose}
            />
          )}
          <ImportHrChoices sheet={sheet} mapping={mapping} choices={hr} onChange={setHr} />
          {siteid !== null && <ImportExtrasForm siteid={siteid} extras={extras} onChange={setExtras} />}
          {extrasProblem && <p role="alert">{extrasProblem}</p>}
          {!current && siteid !== null && (
            <p role="status" aria-label="Preparing the preview">
              Checking {formatCount(sheet.rows.length)} rows against the people on the site…
            </p>
          )}
          <ImportCacheNotices unknownCache={unknownCache ?? null} notKept={notKept} />
          {plans && (
            <ImportPreview
              plans={plans}
              effects={extrasEffects(extras, mapping.group !== undefined)}
              excluded={excluded}
              ticked={ticked}
              onExclude={columns.setExcluded}
              onTick={columns.setTicked}
            />
          )}
          <button type="button" onClick={onQueue} disabled={cannotQueue || queued === 0}>
            Queue {plural(queued, 'row')}
          </button>
        </>
      )}
    </section>
  );
}

/** A file dropped anywhere on the view is read (the first, when several). */
function onDropped(e: DragEvent, load: (file: File) => Promise<void>): void {
  e.preventDefault();
  const file = e.dataTransfer.files[0];
  if (file) void load(file);
}

function ReadingStatus({
  reading,
  onCancel,
}: {
  reading: { name: string; rows: number };
  onCancel: () => void;
}) {
  return (
    <p role="status" aria-label="Reading the file">
      {/* the count keeps its width as it grows, so Cancel does not move under the pointer */}
      Reading {reading.name}: <span className="reading-count">{formatCount(reading.rows)}</span> rows read…{' '}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </p>
  );
}
