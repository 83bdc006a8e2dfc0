/**
 * Reading a dropped spreadsheet of employees: CSV through PapaParse, XLSX
 * through read-excel-file. A broken file gives one clear error and nothing else
 * happens (nothing is queued, nothing already queued is touched).
 */
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/universal';

export interface Sheet {
  headers: string[];
  /** data rows as text, one cell per header; row numbers are the spreadsheet's (header = row 1) */
  rows: { rowNumber: number; cells: string[] }[];
}

export type ParseResult = { ok: true; sheet: Sheet } | { ok: false; error: string };

export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 50_000;

export type SpreadsheetKind = 'csv' | 'xlsx';

export function kindOfFile(name: string): SpreadsheetKind | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.csv') || lower.endsWith('.txt')) return 'csv';
  if (lower.endsWith('.xlsx')) return 'xlsx';
  return null;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  return String(value).trim();
}

/** Headers from the first row, the rest as rows; blank rows are dropped. */
export function sheetOf(table: unknown[][]): ParseResult {
  const [head, ...body] = table;
  const headers = (head ?? []).map(cellText);
  if (headers.filter(Boolean).length === 0) return { ok: false, error: 'The file has no header row: the first row should name the columns (username, first name, ...).' };
  const rows: Sheet['rows'] = [];
  body.forEach((row, index) => {
    const cells = headers.map((_, column) => cellText(row[column]));
    if (cells.some(Boolean)) rows.push({ rowNumber: index + 2, cells });
  });
  if (rows.length > MAX_IMPORT_ROWS) return { ok: false, error: `The file has ${rows.length} rows; at most ${MAX_IMPORT_ROWS} can be imported at once.` };
  return { ok: true, sheet: { headers, rows } };
}

export function parseCsv(text: string): ParseResult {
  const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const fatal = result.errors.find((e) => e.type === 'Quotes' || e.type === 'Delimiter');
  if (fatal) return { ok: false, error: `The CSV file could not be read (row ${fatal.row === undefined ? '?' : fatal.row + 1}: ${fatal.message}).` };
  if (result.data.length === 0) return { ok: false, error: 'The file is empty.' };
  return sheetOf(result.data);
}

export async function parseXlsx(bytes: ArrayBuffer): Promise<ParseResult> {
  try {
    const sheets = await readXlsxFile(bytes);
    const first = sheets[0];
    if (!first || first.data.length === 0) return { ok: false, error: 'The workbook has no data on its first sheet.' };
    return sheetOf(first.data as unknown[][]);
  } catch {
    return { ok: false, error: 'The file is not a readable Excel workbook (.xlsx). Save it again as .xlsx or .csv and retry.' };
  }
}

/** A dropped or picked file, by its name. */
export async function parseSpreadsheet(name: string, bytes: ArrayBuffer): Promise<ParseResult> {
  if (bytes.byteLength === 0) return { ok: false, error: 'The file is empty.' };
  if (bytes.byteLength > MAX_IMPORT_BYTES) return { ok: false, error: 'The file is larger than 20 MB.' };
  const kind = kindOfFile(name);
  if (kind === 'xlsx') return parseXlsx(bytes);
  if (kind === 'csv') {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    if (text.includes('\u0000')) return { ok: false, error: 'The file does not look like text: is it really a CSV file?' };
    return parseCsv(text);
  }
  return { ok: false, error: 'Only .csv and .xlsx files can be imported.' };
}
