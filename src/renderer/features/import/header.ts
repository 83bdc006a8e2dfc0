/**
 * From the rows read to a sheet: the header row found (blank and title rows
 * above it skipped; the user can choose another), the data rows below it, and
 * what would otherwise be lost silently (duplicate column names, cells beyond
 * the last named column) reported.
 */
import type { RawRow } from './read/table.ts';
import { fieldOfHeader } from './mapping.ts';
import { resultColumnsAt } from './results.ts';
import { columnLetter } from '../../../shared/spreadsheet-export.ts';
import { plural } from '../../app/words.ts';

export interface Sheet {
  headers: string[];
  /** the spreadsheet's row number of the header row */
  headerRowNumber: number;
  /** data rows below the header; row numbers are the spreadsheet's own */
  rows: RawRow[];
  warnings: string[];
}

/**
 * Index (in `rows`) of the likeliest header row among the first rows: the one naming the most known fields, else the
 * first with several cells.
 */
export function findHeaderRow(rows: readonly RawRow[]): number {
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i < Math.min(rows.length, 30); i += 1) {
    const cells = rows[i]!.cells;
    const filled = cells.filter((c) => c !== '').length;
    const known = new Set(cells.map(fieldOfHeader).filter(Boolean)).size;
    const score = known * 100 + (filled >= 2 ? Math.min(filled, 50) : 0);
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}

const listRows = (numbers: number[]) =>
  numbers.length > 5
    ? `${numbers.slice(0, 5).join(', ')} and ${numbers.length - 5} more`
    : numbers.join(', ');

export function sheetOf(all: readonly RawRow[], headerIndex: number): Sheet {
  const header = all[headerIndex];
  if (!header) return { headers: [], headerRowNumber: 0, rows: [], warnings: [] };
  const named = header.cells.map((h) => h.replace(/\s+/g, ' ').trim());
  const warnings: string[] = [];
  // a results file dropped in again: its status, statuscode and message columns are not the people's
  const results = resultColumnsAt(named);
  const headers = results >= 0 ? named.slice(0, results) : named;
  if (results >= 0)
    warnings.push(
      'The last three columns (status, statuscode, message) are the results of an earlier import: they are ignored.',
    );
  if (headerIndex > 0)
    warnings.push(
      `Rows ${all[0]!.rowNumber}–${header.rowNumber - 1} above the header row are not imported (a title or notes).`,
    );
  const seen = new Map<string, number>();
  headers.forEach((h, i) => {
    const key = h.toLowerCase();
    if (!key) return;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else {
      const [firstColumn, column] = [columnLetter(first), columnLetter(i)];
      warnings.push(
        `Columns ${firstColumn} and ${column} are both named "${h}": check which one each field uses below.`,
      );
    }
  });
  const rows = all.slice(headerIndex + 1);
  if (rows.length === 0) warnings.push('The file has a header row but no rows of people below it.');
  const beyond = rows.filter((r) => r.cells.length > named.length).map((r) => r.rowNumber);
  if (beyond.length > 0) {
    const rowsHave = beyond.length > 1 ? `Rows ${listRows(beyond)} have` : `Row ${listRows(beyond)} has`;
    const lastNamed = columnLetter(named.length - 1);
    warnings.push(
      `${rowsHave} cells beyond the last named column (${lastNamed}): they are not imported. Name that column in the header row to import it.`,
    );
  }
  return { headers, headerRowNumber: header.rowNumber, rows, warnings };
}

/** What was read, said in people's rows: the header row (and any title above it) is not counted. */
export function readSummary(source: string, sheet: Sheet): string {
  const header = sheet.headerRowNumber > 0 ? ` below the header (row ${sheet.headerRowNumber})` : '';
  return `Read as ${source}: ${plural(sheet.rows.length, 'row', 'rows')} of people${header}.`;
}
