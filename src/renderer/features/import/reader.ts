/**
 * Reading a dropped file in the import worker, from the window's side: one
 * reading at a time (a new file cancels the one before, so the last file
 * dropped always wins), progress as rows are read, and Cancel; a profile switch
 * cancels it too.
 */
import type { RawRow, RawTable } from './read/table.ts';
import type { WorkerReply, WorkerRequest } from './worker-protocol.ts';
import { onProfileEnd } from '../../app/profile-stores.ts';
import { unpackRows } from './rows-sender.ts';

export type ReadOutcome =
  { ok: true; table: RawTable } | { ok: false; error: string } | { ok: false; cancelled: true };

export interface Reading {
  done: Promise<ReadOutcome>;
  cancel: () => void;
}

let current: Reading | null = null;

const newReader = () =>
  new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module', name: 'import-reader' });

/**
 * A reader started ahead of the next file, while the Import view is open: a worker's start (its thread, then
 * fetching, decoding and compiling its 1.3 MB module) took 250-900 ms between the drop and the first byte read in
 * `npm run bench -- import`, every time, as each reading ends with its worker. `failed`: its module did not load.
 */
let spare: { worker: Worker; failed: boolean } | null = null;
let warmViews = 0;

function startSpare(): void {
  const started = { worker: newReader(), failed: false };
  started.worker.onerror = (event) => {
    event.preventDefault();
    started.failed = true;
  };
  spare = started;
}

/**
 * The reader started ahead when there is one that loaded (the next is started once this one is done), else a new
 * one.
 */
function takeReader(): Worker {
  const taken = spare;
  spare = null;
  if (taken && !taken.failed) return taken.worker;
  taken?.worker.terminate();
  return newReader();
}

/** Keeps a reader started ahead while the Import view is open; the returned function is for its closing. */
export function warmReader(): () => void {
  warmViews += 1;
  if (!spare) startSpare();
  return () => {
    warmViews -= 1;
    if (warmViews > 0 || !spare) return;
    spare.worker.terminate();
    spare = null;
  };
}
// a file dropped in one profile is matched against that profile's cache: a switch stops its reading
onProfileEnd(() => current?.cancel());

/**
 * Starts reading `file` in a new worker (a text file in `encoding` when given); any reading still under way is
 * cancelled first.
 */
export function readInWorker(file: File, onProgress: (rows: number) => void, encoding?: string): Reading {
  current?.cancel();
  const worker = takeReader();
  let settle: (outcome: ReadOutcome) => void = () => {};
  const done = new Promise<ReadOutcome>((resolve) => {
    settle = resolve;
  });
  let finished = false;
  const finish = (outcome: ReadOutcome) => {
    if (finished) return;
    finished = true;
    worker.terminate();
    if (current === reading) current = null;
    if (warmViews > 0 && !spare) startSpare();
    settle(outcome);
  };
  const rows: RawRow[] = [];
  worker.onmessage = (event: MessageEvent<WorkerReply>) => {
    const reply = event.data;
    if (reply.type === 'rows') {
      for (const row of unpackRows(reply.rows)) rows.push(row);
      onProgress(rows.length);
    } else if (reply.type === 'done')
      finish({
        ok: true,
        table: {
          rows,
          source: reply.source,
          notes: reply.notes,
          ...(reply.encoding ? { encoding: reply.encoding } : {}),
        },
      });
    else if (reply.type === 'error') finish({ ok: false, error: reply.message });
  };
  worker.onerror = (event) => {
    event.preventDefault();
    finish({
      ok: false,
      error:
        'The file could not be read (the reader stopped). Try again; if it happens again, save the file as .csv and import that.',
    });
  };
  const reading: Reading = { done, cancel: () => finish({ ok: false, cancelled: true }) };
  current = reading;
  void file.arrayBuffer().then(
    (bytes) => {
      if (!finished)
        worker.postMessage(
          { type: 'read', name: file.name, bytes, ...(encoding ? { encoding } : {}) } satisfies WorkerRequest,
          [bytes],
        );
    },
    () => finish({ ok: false, error: 'The file could not be opened: it may have been moved or deleted.' }),
  );
  return reading;
}

/** Writes a results table (CSV or XLSX) in a worker of its own: the window never waits on it. */
export function writeInWorker(rows: string[][], format: 'csv' | 'xlsx', sheetName: string): Promise<Blob> {
  const worker = new Worker(new URL('./parse.worker.ts', import.meta.url), {
    type: 'module',
    name: 'import-writer',
  });
  return new Promise<Blob>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      worker.terminate();
      if (event.data.type === 'written')
        resolve(
          new Blob([event.data.bytes], {
            type:
              format === 'csv'
                ? 'text/csv;charset=utf-8'
                : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          }),
        );
      else reject(new Error('The results file could not be written.'));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      reject(new Error('The results file could not be written.'));
    };
    worker.postMessage({ type: 'write', rows, format, sheetName } satisfies WorkerRequest);
  });
}
