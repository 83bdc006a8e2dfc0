/**
 * Employee ids that a spreadsheet program turned into numbers lose their
 * leading zeros (`007123` → `7123`: LibreOffice's default CSV import, a
 * workbook cell typed as a number). Such a column is recognised by its
 * lengths: ids of one length are usual (in the file and on the site), and
 * some are shorter; or by cells the workbook stores as numbers. The user then
 * chooses: pad them to the usual length, or keep them as written. Pure.
 */
import type { Sheet } from './header.ts';

export interface LostZeros {
  /** the usual length of an id */
  width: number;
  /** the rows whose id is shorter */
  rows: number[];
  /** some of those ids are numbers in the workbook (not text) */
  numeric: boolean;
}

const DIGITS = /^\d+$/;
/** too few ids to say what is usual */
const ENOUGH = 5;
/** the share of ids of one length that makes it the usual one */
const USUAL = 0.6;

/** The most common length of the digit-only ids, when it is usual enough. */
function usualLength(ids: readonly string[]): number | null {
  const counts = new Map<number, number>();
  let total = 0;
  for (const id of ids) {
    if (!DIGITS.test(id)) continue;
    counts.set(id.length, (counts.get(id.length) ?? 0) + 1);
    total += 1;
  }
  if (total < ENOUGH) return null;
  const [length, count] = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]!;
  return count / total >= USUAL && length >= 3 ? length : null;
}

/** The rows of the sheet whose employee id looks stripped of its leading zeros; null when none does. */
export function lostLeadingZeros(sheet: Sheet, column: number | undefined, siteIds: readonly string[]): LostZeros | null {
  if (column === undefined) return null;
  const ids: { rowNumber: number; id: string; numeric: boolean }[] = [];
  for (const row of sheet.rows) {
    const id = (row.cells[column] ?? '').trim();
    if (DIGITS.test(id)) ids.push({ rowNumber: row.rowNumber, id, numeric: row.numbers?.includes(column) ?? false });
  }
  const numericCells = ids.filter((i) => i.numeric);
  // the usual length among the file's ids and the site's; else, for numbers in a workbook, the longest of them
  const width = usualLength([...ids.map((i) => i.id), ...siteIds]) ?? (numericCells.length > 0 ? Math.max(...ids.map((i) => i.id.length)) : null);
  if (width === null) return null;
  const short = ids.filter((i) => i.id.length < width);
  if (short.length === 0) return null;
  return { width, rows: short.map((i) => i.rowNumber), numeric: short.some((i) => i.numeric) };
}

/** An id as the platform holds it once padded: `7123` → `007123` for a width of 6. */
export function padId(id: string, width: number): string {
  return DIGITS.test(id) ? id.padStart(width, '0') : id;
}
