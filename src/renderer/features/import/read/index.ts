/**
 * A dropped file to rows: by its name and, above all, by its bytes. A file that
 * is not a spreadsheet Fieldbook reads is refused with what to do instead.
 * Runs in the import worker (parse.worker.ts); pure and synchronous, so the
 * unit tests call it directly.
 */
import { isZip } from './zip.ts';
import { ACCEPTED_EXTENSIONS } from './extensions.ts';
import { readXlsx } from './xlsx.ts';
import { readText } from './text.ts';
import { LIMITS, ReadError, type Limits } from './limits.ts';
import type { ProgressHook, RawTable } from './table.ts';

const SAVE_AS = 'Open it in Excel or LibreOffice and save it as .xlsx or .csv, then import that file.';

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

/** What a file that is surely not readable is, by its first bytes; null when it may be text. */
function binaryKind(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0]))
    return 'an old Excel workbook (.xls) or a password-protected one';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) return 'a PNG image';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'a JPEG image';
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) return 'a PDF document';
  if (startsWith(bytes, [0x1f, 0x8b])) return 'a compressed archive';
  return null;
}

/** `encoding`: the one the user chose for a text file that is not UTF-8 (unset: guessed). */
export function readSpreadsheet(
  name: string,
  bytes: Uint8Array,
  progress: ProgressHook = () => {},
  limits: Limits = LIMITS,
  encoding?: string,
): RawTable {
  const extension = extensionOf(name);
  if (bytes.length === 0) throw new ReadError('The file is empty (0 bytes). Export the spreadsheet again.');
  if (bytes.length > limits.fileBytes)
    throw new ReadError(
      `The file is larger than ${Math.round(limits.fileBytes / 1024 / 1024)} MB: split it into smaller files.`,
    );
  if (extension === '.xls') throw new ReadError(`This is an old Excel workbook (.xls). ${SAVE_AS}`);
  if (extension === '.ods') throw new ReadError(`This is an OpenDocument spreadsheet (.ods). ${SAVE_AS}`);
  if (extension === '.numbers')
    throw new ReadError(
      'This is a Numbers document. In Numbers choose File > Export To > Excel (or CSV), then import that file.',
    );
  if (!(ACCEPTED_EXTENSIONS as readonly string[]).includes(extension))
    throw new ReadError(`Fieldbook imports spreadsheets: .xlsx, .xlsm, .csv, .tsv or .txt. ${SAVE_AS}`);
  if (isZip(bytes)) return readXlsx(bytes, limits, progress);
  const binary = binaryKind(bytes);
  if (binary) throw new ReadError(`This file is ${binary}, not a spreadsheet Fieldbook can read. ${SAVE_AS}`);
  if (extension === '.xlsx' || extension === '.xlsm')
    throw new ReadError(
      `The file is not a readable Excel workbook (.xlsx): it may be damaged or cut short. ${SAVE_AS}`,
    );
  return readText(bytes, name, limits, progress, encoding);
}

export { ReadError, LIMITS };
export type { RawTable };
