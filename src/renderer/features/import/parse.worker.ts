/**
 * The import's worker, off the main thread: a same-origin module worker that
 * electron-vite bundles (allowed by `worker-src 'self'`; it starts no worker of
 * its own and evaluates no code). It reads a dropped file, reporting progress
 * and handing the rows back in slices so the window never waits on one big
 * message; and it writes results files. Cancel = the window terminates it.
 */
import { readSpreadsheet, ReadError } from './read/index.ts';
import { writeCsv, writeXlsx } from '../../../shared/spreadsheet-export.ts';
import type { WorkerReply, WorkerRequest } from './worker-protocol.ts';

const SLICE = 1000;

const post = (reply: WorkerReply, transfer: Transferable[] = []) =>
  (self as unknown as Worker).postMessage(reply, transfer);

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  if (request.type === 'write') {
    const bytes =
      request.format === 'xlsx'
        ? writeXlsx(request.rows, request.sheetName)
        : new TextEncoder().encode(writeCsv(request.rows));
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    post({ type: 'written', bytes: buffer }, [buffer]);
    return;
  }
  try {
    const table = readSpreadsheet(
      request.name,
      new Uint8Array(request.bytes),
      (p) => post({ type: 'progress', rows: p.rows }),
      undefined,
      request.encoding,
    );
    for (let at = 0; at < table.rows.length; at += SLICE)
      post({ type: 'rows', rows: table.rows.slice(at, at + SLICE) });
    post({
      type: 'done',
      source: table.source,
      notes: table.notes,
      count: table.rows.length,
      ...(table.encoding ? { encoding: table.encoding } : {}),
    });
  } catch (error) {
    const message =
      error instanceof ReadError
        ? error.message
        : 'The file could not be read: it may be damaged. Open it in Excel or LibreOffice and save it again as .xlsx or .csv.';
    post({ type: 'error', message });
  }
};
