/**
 * Just enough of ZIP to read a workbook's parts one by one, synchronously and
 * streaming (fflate's `Inflate`, which never starts a worker): the central
 * directory says where each part is; a part is inflated in small chunks and
 * handed on as it comes, so the size limits and the zip-bomb ratio are checked
 * while unzipping, never after.
 */
import { Inflate } from 'fflate';
import { ReadError, type Limits } from './limits.ts';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const NOT_A_ZIP =
  'The file is not a readable Excel workbook (.xlsx): it may be damaged or cut short. Open it in Excel and save it again as .xlsx or .csv.';

export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
  );
}

/** The entries of the central directory, by name. */
export function zipEntries(bytes: Uint8Array): Map<string, ZipEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // the end-of-central-directory record: in the last 22 + 65,535 bytes
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i -= 1) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ReadError(NOT_A_ZIP);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries = new Map<string, ZipEntry>();
  const decoder = new TextDecoder();
  for (let n = 0; n < count; n += 1) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw new ReadError(NOT_A_ZIP);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const entry: ZipEntry = {
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)).replace(/^\//, ''),
    };
    entries.set(entry.name, entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

const CHUNK = 16 * 1024;

/**
 * Unzips one entry, handing its bytes on chunk by chunk; refuses past `limits` (part size, ratio) and past
 * `budget.left` total bytes.
 */
export function inflateEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  limits: Limits,
  budget: { left: number },
  onData: (chunk: Uint8Array) => void,
): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = entry.localOffset;
  if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) throw new ReadError(NOT_A_ZIP);
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  const stop = start + entry.compressedSize;
  if (stop > bytes.length) throw new ReadError(NOT_A_ZIP);
  const data = bytes.subarray(start, stop);
  let produced = 0;
  const take = (chunk: Uint8Array, consumed: number) => {
    produced += chunk.length;
    if (produced > limits.partBytes || produced > budget.left) throw new ReadError(tooBig(entry.name));
    if (produced > 8 * 1024 * 1024 && produced / Math.max(consumed, 1) > limits.ratio)
      throw new ReadError(tooBig(entry.name));
    onData(chunk);
  };
  if (entry.method === 0) {
    for (let at = 0; at < data.length; at += CHUNK) take(data.subarray(at, at + CHUNK), at + CHUNK);
  } else if (entry.method === 8) {
    let consumed = 0;
    const inflate = new Inflate((chunk) => take(chunk, consumed));
    try {
      for (let at = 0; at < data.length; at += CHUNK) {
        consumed = Math.min(at + CHUNK, data.length);
        inflate.push(data.subarray(at, at + CHUNK), consumed === data.length);
      }
      if (data.length === 0) inflate.push(new Uint8Array(0), true);
    } catch (error) {
      if (error instanceof ReadError) throw error;
      throw new ReadError(NOT_A_ZIP);
    }
  } else {
    throw new ReadError(
      'The workbook uses a compression that Fieldbook cannot read. Open it in Excel and save it again as .xlsx or .csv.',
    );
  }
  budget.left -= produced;
}

function tooBig(part: string): string {
  return `The workbook unpacks to far more data than a spreadsheet holds (in ${part}): it looks like a zip bomb or a damaged file, and is refused. Save the sheet again as .xlsx or .csv.`;
}

/** A whole (small) entry as text, under the same limits. */
export function entryText(
  bytes: Uint8Array,
  entry: ZipEntry | undefined,
  limits: Limits,
  budget: { left: number },
): string {
  if (!entry) return '';
  const decoder = new TextDecoder();
  let text = '';
  inflateEntry(bytes, entry, limits, budget, (chunk) => {
    text += decoder.decode(chunk, { stream: true });
  });
  return text + decoder.decode();
}

export { NOT_A_ZIP };
