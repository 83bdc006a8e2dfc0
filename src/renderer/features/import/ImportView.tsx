/**
 * Import employees from a spreadsheet: drop or pick a file; it is read in a
 * worker (progress, Cancel; the last file dropped wins; a refused file clears
 * the previous preview). Then choose the header row, the columns, the key that
 * finds people and the mode; see every row's outcome by category; exclude rows,
 * tick identity changes; queue the rest as one batch.
 */
import { useEffect, useMemo, useReducer, useState, type DragEvent } from 'react';
import { useSession } from '../../app/session.ts';
import { formatCount } from '../../app/format.ts';
import { plural } from '../../app/words.ts';
import { useFileReading } from './useFileReading.ts';
import { warmReader } from './reader.ts';
import { ACCEPTED_EXTENSIONS } from './read/extensions.ts';
import { findHeaderRow, sheetOf, type Sheet } from './header.ts';
import { useImportPlans, useWarmPeopleIndex, type PlanInputs } from './useImportPlans.ts';
import { ImportResults } from './ImportResults.tsx';
import { ImportPreview } from './ImportPreview.tsx';
import { extrasEffects } from './extras.ts';
import { ImportExtrasForm } from './ImportExtrasForm.tsx';
import { ImportColumnsForm } from './ImportColumnsForm.tsx';
import { useImportCache } from './useImportCache.ts';
import { useImportQueue } from './useImportQueue.ts';
import { useColumnChoices } from './useColumnChoices.ts';
import { ImportZerosChoice, useLostZeros } from './ImportZerosChoice.tsx';
import { ImportEncodingChoice } from './ImportEncodingChoice.tsx';
import { ImportCacheNotices } from './ImportCacheNotices.tsx';
import { ImportHrChoices, useHrChoices } from './ImportHrChoices.tsx';
import {
  cannotQueueOf,
  extrasProblemOf,
  FIRST_IMPORT_VIEW_STATE,
  importRefusal,
  importViewReducer,
  planInputsOf,
  queuedCountOf,
  samePlanInputs,
} from './import-view-state.ts';

export default function ImportView() {
  const view = useImportView();
  // the next file dropped is read by a worker already started
  useEffect(() => warmReader(), []);
  const { refusal, reading, error, message, table, sheet } = view;
  return (
    <section
      className="view import-view"
      aria-labelledby="import-heading"
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => onDropped(e, view.load)}
    >
      <h1 id="import-heading">Import employees</h1>
      {refusal !== null && <p role="alert">{refusal} An import can be previewed but not queued.</p>}
      <ImportDropzone onFile={view.load} />
      {reading && <ReadingStatus reading={reading} onCancel={view.cancel} />}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {message && <p role="status">{message}</p>}
      {!table && !reading && <ImportResults />}
      {table && sheet && <ImportWorkspace view={view} sheet={sheet} />}
    </section>
  );
}

/** Plan inputs that keep their identity while nothing the plan reads has changed (derived state, no effect). */
function useSamePlanInputs(next: PlanInputs | null): PlanInputs | null {
  const [kept, setKept] = useState(next);
  if (samePlanInputs(kept, next)) return kept;
  setKept(next);
  return next;
}

/** The file being read, its sheet and the choices made of its columns. */
function useImportFile(onStart: () => void) {
  const columns = useColumnChoices();
  const file = useFileReading(onStart);
  const { table } = file;
  const { headerIndex } = columns;
  const sheet = useMemo(() => (table ? sheetOf(table.rows, headerIndex) : null), [table, headerIndex]);
  const load = async (picked: File) => {
    const got = await file.load(picked);
    if (got) columns.chooseHeader(findHeaderRow(got.rows), got.rows);
  };
  return { columns, file, sheet, load };
}

/** Everything the Import view shows and does, derived from its reducer and its hooks by the selectors. */
function useImportView() {
  // the import creates and updates people and adds their e-mails: the write rule of each (shared/access.ts)
  const access = useSession((s) => s.activeProfile?.access ?? 'unknown');
  const [state, dispatch] = useReducer(importViewReducer, FIRST_IMPORT_VIEW_STATE);
  const { extras, message } = state;
  const { columns, file, sheet, load } = useImportFile(() => dispatch({ type: 'message', message: null }));
  const { choices, excluded, ticked } = columns;
  const { key, mode, mapping, dateOrder } = choices;
  const cache = useImportCache(choices.siteChoice);
  const { sites, users, siteid } = cache;
  const [hr, setHr] = useHrChoices();
  const queue = useImportQueue((queuedMessage) => {
    dispatch({ type: 'message', message: queuedMessage });
    file.clear();
  });
  const zeros = useLostZeros(sheet, mapping.employeeid, users, siteid);
  // the sites whose people the cache holds: main's index answers for the others
  const cachedSites = sites.map((s) => s.siteid);
  const { emails, queued, groups, unknownCache } = cache;
  useWarmPeopleIndex(users, siteid, emails);
  const sources = { sheet, mapping, users, siteid, cachedSites, emails, queued, extras, key, mode, groups };
  const inputs = useSamePlanInputs(
    planInputsOf({ ...sources, dateOrder, padIds: zeros.padIds, unknownCache, hr }),
  );
  // Planned a slice of rows at a time: the window stays responsive on 200,000 rows
  const { current, shown: plans, notKept } = useImportPlans(inputs, sheet);
  const refusal = importRefusal(access, extras, mapping);
  const extrasProblem = extrasProblemOf(extras, mapping);
  const { encoding, reading } = file;
  const blocks = { refusal, extrasProblem, encodingUndecided: encoding.undecided, reading: reading !== null };
  const cannotQueue = cannotQueueOf({ ...blocks, siteid, zerosUndecided: zeros.undecided });
  const onQueue = () => {
    if (cannotQueue || !sheet || !current || !groups || siteid === null) return;
    const give = { extras, groups };
    void queue({ fileName: file.fileName, sheet, plans: current, siteid, excluded, ticked, give });
  };
  const setExtras = (next: typeof extras) => dispatch({ type: 'extras', extras: next });
  const outcome = {
    current,
    plans,
    notKept,
    queuedCount: queuedCountOf(current, excluded, ticked),
    cannotQueue,
  };
  return {
    ...{ ...file, load, sheet, columns, sites, siteid, unknownCache, zeros, hr, setHr, extras, setExtras },
    ...{ message, refusal, extrasProblem, ...outcome, onQueue },
  };
}

type ImportViewModel = ReturnType<typeof useImportView>;

function ImportDropzone({ onFile }: { onFile: (file: File) => Promise<void> }) {
  return (
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
            if (f) void onFile(f);
          }}
        />
      </label>
    </div>
  );
}

/** The read file's columns, the questions it raises, its preview and the Queue button. */
function ImportWorkspace({ view, sheet }: { view: ImportViewModel; sheet: Sheet }) {
  const { columns, siteid, extras, current, plans } = view;
  const { mapping } = columns.choices;
  return (
    <>
      <ImportColumnsStep view={view} sheet={sheet} />
      <ImportQuestions view={view} sheet={sheet} />
      {siteid !== null && <ImportExtrasForm siteid={siteid} extras={extras} onChange={view.setExtras} />}
      {view.extrasProblem && <p role="alert">{view.extrasProblem}</p>}
      {!current && siteid !== null && (
        <p role="status" aria-label="Preparing the preview">
          Checking {formatCount(sheet.rows.length)} rows against the people on the site…
        </p>
      )}
      <ImportCacheNotices unknownCache={view.unknownCache ?? null} notKept={view.notKept} />
      {plans && (
        <ImportPreview
          plans={plans}
          effects={extrasEffects(extras, mapping.group !== undefined)}
          excluded={columns.excluded}
          ticked={columns.ticked}
          onExclude={columns.setExcluded}
          onTick={columns.setTicked}
        />
      )}
      <button type="button" onClick={view.onQueue} disabled={view.cannotQueue || view.queuedCount === 0}>
        Queue {plural(view.queuedCount, 'row')}
      </button>
    </>
  );
}

function ImportColumnsStep({ view, sheet }: { view: ImportViewModel; sheet: Sheet }) {
  const { columns, table } = view;
  const { key, mode, mapping, dateOrder } = columns.choices;
  if (!table) return null;
  return (
    <ImportColumnsForm
      fileName={view.fileName}
      table={table}
      sheet={sheet}
      sites={view.sites}
      choices={{ headerIndex: columns.headerIndex, siteid: view.siteid, key, mode, mapping, dateOrder }}
      onHeader={(index) => columns.chooseHeader(index, table.rows)}
      onChange={columns.change}
      presetApplied={columns.presetApplied}
      onForgetPreset={columns.forgetPreset}
      onSavePreset={(name) => columns.keepAsPreset(name, sheet.headers)}
    />
  );
}

/** What the file asks of the user before its preview can be trusted: its encoding, lost zeros, HR words. */
function ImportQuestions({ view, sheet }: { view: ImportViewModel; sheet: Sheet }) {
  const { encoding, zeros } = view;
  const { mapping } = view.columns.choices;
  return (
    <>
      {encoding.question && (
        <ImportEncodingChoice
          question={encoding.question}
          answer={encoding.answer}
          onAnswer={encoding.onAnswer}
          busy={view.reading !== null}
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
      <ImportHrChoices sheet={sheet} mapping={mapping} choices={view.hr} onChange={view.setHr} />
    </>
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
