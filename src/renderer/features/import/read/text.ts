/**
 * CSV, TSV and TXT: the bytes decoded without ever replacing a character
 * unasked (UTF-8 with or without BOM through a fatal decoder, UTF-16 LE/BE by
 * their BOM; bytes that are not valid UTF-8 in the encoding the user confirms,
 * guessed first: read/encoding.ts), Excel's `sep=` line,
 * the delimiter found among , ; tab | or none (read/delimiter.ts), the text
 * parsed by PapaParse, and the rows numbered as a spreadsheet numbers them (a
 * blank line is a row, a quoted line break is not).
 */
import Papa from 'papaparse';
import { ReadError, type Limits } from './limits.ts';
import type { EncodingQuestion, ProgressHook, RawRow, RawTable } from './table.ts';
import { encodingName, guessEncodings, isKnownEncoding, isMostlyUtf8, utf8Candidate } from './encoding.ts';
import { detectLayout, type Layout } from './delimiter.ts';

export interface Decoded {
  text: string;
  /** what the source line calls it: "UTF-8", "Windows-1250" */
  encoding: string;
  /** not valid UTF-8: how it was read, and what else it could be */
  question?: Omit<EncodingQuestion, 'damagedRows'>;
}

/** "Central European (Windows-1250)" → "Windows-1250" */
const shortName = (encoding: string) => /\(([^)]+)\)$/.exec(encodingName(encoding))?.[1] ?? encoding;

/**
 * The text of the file. Without a BOM and not valid UTF-8, it is read in the
 * encoding `forced` (the user's choice), else as UTF-8 with its few stray bytes
 * replaced when it mostly is UTF-8, else in the likeliest encoding: either way
 * with the question for the user to answer.
 */
export function decodeText(bytes: Uint8Array, forced?: string): Decoded {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: strictDecode('utf-16le', bytes.subarray(2)), encoding: 'UTF-16' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: strictDecode('utf-16be', bytes.subarray(2)), encoding: 'UTF-16' };
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  const utf16 = utf16WithoutBom(body);
  if (utf16) return { text: strictDecode(utf16, body), encoding: 'UTF-16' };
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body),
      encoding: 'UTF-8',
    };
  } catch {
    if (bom)
      throw new ReadError(
        'The file says it is UTF-8 but holds bytes that are not: it is damaged. Save it again as "CSV UTF-8".',
      );
    if (forced !== undefined && forced !== 'utf-8' && !isKnownEncoding(forced))
      throw new ReadError(`Fieldbook does not know the encoding "${forced.slice(0, 40)}".`);
    const guessed = guessEncodings(body).map(({ encoding, name, sample }) => ({ encoding, name, sample }));
    // UTF-8 with a few stray bytes: read as UTF-8 (their rows named), and offered first
    const mostlyUtf8 = isMostlyUtf8(body);
    const candidates = mostlyUtf8 ? [utf8Candidate(body), ...guessed] : guessed;
    const read = forced ?? candidates[0]!.encoding;
    const text = new TextDecoder(read, { ignoreBOM: true }).decode(body);
    return { text, encoding: read === 'utf-8' ? 'UTF-8' : shortName(read), question: { read, candidates } };
  }
}

function strictDecode(encoding: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ReadError(
      'The file is UTF-16 text but some of its characters are damaged. Save it again as "CSV UTF-8".',
    );
  }
}

/** UTF-16 text saved without a BOM: every other byte of its start is zero. */
function utf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length & ~1, 512);
  if (n < 4) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZero += 1;
    if (bytes[i + 1] === 0) oddZero += 1;
  }
  const half = n / 2;
  if (oddZero > half * 0.7 && evenZero < half * 0.1) return 'utf-16le';
  if (evenZero > half * 0.7 && oddZero < half * 0.1) return 'utf-16be';
  return null;
}

/** Text that is no spreadsheet: NUL or other control characters a CSV never holds. */
function looksBinary(text: string): boolean {
  const sample = text.slice(0, 4096);
  // eslint-disable-next-line no-control-regex
  const controls = sample.match(/[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/g)?.length ?? 0;
  return controls > 0 && controls > sample.length / 200;
}

const DELIMITER_NAMES: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' };

export function readText(
  bytes: Uint8Array,
  name: string,
  limits: Limits,
  progress: ProgressHook,
  forced?: string,
): RawTable {
  const { text: decoded, encoding, question } = decodeText(bytes, forced);
  if (looksBinary(decoded))
    throw new ReadError(
      'The file is not text: is it really a CSV file? Save the spreadsheet as .xlsx or .csv.',
    );
  let text = decoded.replace(/^\ufeff/, '');
  let layout: Layout;
  const firstRow = 1;
  const sep = /^sep=(.)[ \t]*\r?\n/i.exec(text);
  if (sep) {
    // Excel's own hint, never shown as a row
    layout = { delimiter: sep[1]!, quote: '"' };
    text = text.slice(sep[0].length);
  } else {
    layout = detectLayout(text, /\.tsv$/i.test(name));
  }
  const { delimiter } = layout;
  const rows = parseDelimited(text, delimiter, firstRow, limits, progress, layout.quote);
  if (rows.length === 0) throw new ReadError('The file has no data: it holds only blank lines.');
  const split = delimiter ? `${DELIMITER_NAMES[delimiter] ?? `"${delimiter}"`}-separated` : 'one column';
  const source = `${encoding} text, ${split}`;
  if (!question) return { rows, source, notes: [] };
  // a UTF-8 file with stray bytes: the rows they spoil, not the whole file read another way
  const damagedRows =
    question.read === 'utf-8'
      ? rows.filter((r) => r.cells.some((c) => c.includes('\ufffd'))).map((r) => r.rowNumber)
      : [];
  return {
    rows,
    source,
    notes: [],
    encoding: { ...question, ...(damagedRows.length > 0 ? { damagedRows } : {}) },
  };
}

/**
 * A delimiter for one-column files: PapaParse needs one, and this control character
 * never stands in a CSV (a text holding many is refused as binary above).
 */
const ONE_COLUMN = '\u001f';

/**
 * The rows of delimited text, parsed by PapaParse (RFC 4180 with the usual leniency)
 * a row at a time, each checked against the limits as it comes: a file past them is
 * refused at the row that crosses them, before the rest is kept.
 */
export function parseDelimited(
  text: string,
  delimiter: string | null,
  firstRow: number,
  limits: Limits,
  progress: ProgressHook,
  quote = '"',
): RawRow[] {
  const rows: RawRow[] = [];
  let rowNumber = firstRow - 1;
  let cells = 0;
  let refusal: ReadError | null = null;
  const keep = (fields: string[]) => {
    // the memory guard: no spreadsheet writes more fields than Excel has columns, empty or not
    if (fields.length > limits.fields) {
      const most = limits.fields.toLocaleString('en');
      throw new ReadError(
        `Row ${rowNumber} has more than ${most} columns: Fieldbook imports at most ${limits.columns}. Delete the unneeded columns and save the file again.`,
      );
    }
    // Excel ends every row of a CSV with the empty fields of its widest row: only the filled ones count against the
    // limit
    let last = fields.length;
    while (last > 0 && fields[last - 1] === '') last -= 1;
    if (last > limits.columns)
      throw new ReadError(
        `Row ${rowNumber} has ${last} columns: Fieldbook imports at most ${limits.columns}. Delete the unneeded columns and save the file again.`,
      );
    if (last === 0) return; // a blank line: a row of the spreadsheet, with nothing to import
    if (rowNumber > limits.rows) {
      const most = limits.rows.toLocaleString('en');
      throw new ReadError(
        `The file has more than ${most} rows: Fieldbook imports at most ${most} at once. Split it into smaller files.`,
      );
    }
    // the row's own array (PapaParse makes one per row), cut to its filled cells and trimmed where it stands
    const kept = fields.length === last ? fields : fields.slice(0, last);
    for (let i = 0; i < last; i += 1) kept[i] = kept[i]!.trim();
    cells += kept.length;
    if (cells > limits.cells) {
      const most = limits.cells.toLocaleString('en');
      throw new ReadError(
        `The file has more than ${most} filled cells: it is too large to import at once. Split it into smaller files.`,
      );
    }
    rows.push({ rowNumber, cells: kept });
    if (rows.length % 5000 === 0) progress({ rows: rows.length, read: rows });
  };
  Papa.parse<string[]>(text, {
    delimiter: delimiter ?? ONE_COLUMN,
    quoteChar: quote,
    escapeChar: quote,
    skipEmptyLines: false,
    // each record is a row as the spreadsheet numbers them: a blank line is one, a quoted line break is not
    step: (result, parser) => {
      rowNumber += 1;
      try {
        if (result.errors.some((e) => e.code === 'MissingQuotes'))
          throw new ReadError(
            `A quote opened on row ${rowNumber} is never closed: the file is cut short or damaged.`,
          );
        keep(result.data);
      } catch (err) {
        refusal = err instanceof ReadError ? err : new ReadError(String(err));
        parser.abort();
      }
    },
  });
  if (refusal) throw refusal;
  return rows;
}
