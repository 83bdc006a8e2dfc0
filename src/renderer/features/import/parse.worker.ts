/**
 * The import's worker, off the main thread: a same-origin module worker that
 * electron-vite bundles (allowed by `worker-src 'self'`; it starts no worker of
 * its own and evaluates no code). It reads a dropped file, handing the rows
 * back in slices as they are read (the count read is the window's progress), so
 * the window never waits on one big message and starts on the first rows; and
 * it writes results files. Cancel = the window terminates it.
 */
import { readSpreadsheet, ReadError } from './read/index.ts';
import { writeCsv, writeXlsx } from '../../../shared/spreadsheet-export.ts';
import type { WorkerReply, WorkerRequest } from './worker-protocol.ts';
import { packedTransfer, rowsSender } from './rows-sender.ts';

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
    const sendRows = rowsSender((rows) => post({ type: 'rows', rows }, packedTransfer(rows)));
    const table = readSpreadsheet(
      request.name,
      new Uint8Array(request.bytes),
      (p) => sendRows(p.read, false),
      undefined,
      request.encoding,
    );
    sendRows(table.rows, true);
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
