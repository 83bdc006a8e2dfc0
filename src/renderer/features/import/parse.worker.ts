/**
 * The import's reader, off the main thread: a same-origin module worker that
 * electron-vite bundles (allowed by `worker-src 'self'`; it starts no worker of
 * its own and evaluates no code). It reads the dropped file, reports progress,
 * and hands the rows back in slices so the window never waits on one big
 * message. Cancel = the window terminates it.
 */
import { readSpreadsheet, ReadError } from './read/index.ts';
import type { WorkerReply, WorkerRequest } from './worker-protocol.ts';

const SLICE = 5000;

const post = (reply: WorkerReply) => (self as unknown as Worker).postMessage(reply);

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const { name, bytes } = event.data;
  try {
    const table = readSpreadsheet(name, new Uint8Array(bytes), (p) => post({ type: 'progress', rows: p.rows }));
    for (let at = 0; at < table.rows.length; at += SLICE) post({ type: 'rows', rows: table.rows.slice(at, at + SLICE) });
    post({ type: 'done', source: table.source, notes: table.notes, count: table.rows.length });
  } catch (error) {
    const message = error instanceof ReadError ? error.message : 'The file could not be read: it may be damaged. Open it in Excel or LibreOffice and save it again as .xlsx or .csv.';
    post({ type: 'error', message });
  }
};
