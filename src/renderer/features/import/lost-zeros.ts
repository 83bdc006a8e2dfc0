/**
 * Employee ids that a spreadsheet program turned into numbers lose their
 * leading zeros (`007123` → `7123`: LibreOffice's default CSV import, a
 * workbook cell typed as a number). Such a column is recognised by its
 * lengths: ids of one length are usual (in the file and on the site), and
 * some are shorter; or by cells the workbook stores as numbers. The user then
 * chooses: pad them to the usual length, or keep them as written. Pure.
 */
import type { Sheet } from './header.ts';
import { yieldToEventLoop } from '../../../shared/yield.ts';

export interface LostZeros {
  /** the usual length of an id */
  width: number;
  /** the rows whose id is shorter */
  rows: number[];
  /** some of those ids are numbers in the workbook (not text) */
  numeric: boolean;
}

/** too few ids to say what is usual */
const ENOUGH = 5;
/** the share of ids of one length that makes it the usual one */
const USUAL = 0.6;

/** Whether `s` is made of digits only (no regular expression: this runs on every row of 100,000). */
function isDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** The most common length among these counts of digit-only ids by length, when it is usual enough. */
function usualLength(byLength: ReadonlyMap<number, number>): number | null {
  let total = 0;
  let best: [number, number] | null = null;
  for (const [length, count] of byLength) {
    total += count;
    if (!best || count > best[1] || (count === best[1] && length > best[0])) best = [length, count];
  }
  if (!best || total < ENOUGH) return null;
  return best[1] / total >= USUAL && best[0] >= 3 ? best[0] : null;
}

/** What a scan of the rows gathers: ids by length, the longest, and whether the workbook stores any as numbers. */
interface Scan {
  byLength: Map<number, number>;
  longest: number;
  numbers: boolean;
  short: number[];
  numericShort: boolean;
}

/** Pass 1 over rows from..to: the lengths of the digit-only ids. */
function countLengths(scan: Scan, rows: Sheet['rows'], column: number, from: number, to: number): void {
  for (let i = from; i < to; i += 1) {
    const row = rows[i]!;
    const id = row.cells[column] ?? '';
    if (!isDigits(id)) continue;
    scan.byLength.set(id.length, (scan.byLength.get(id.length) ?? 0) + 1);
    if (id.length > scan.longest) scan.longest = id.length;
    scan.numbers ||= row.numbers?.includes(column) ?? false;
  }
}

/** Pass 2 over rows from..to: the rows whose digit-only id is shorter than `width`. */
function findShort(
  scan: Scan,
  rows: Sheet['rows'],
  column: number,
  width: number,
  from: number,
  to: number,
): void {
  for (let i = from; i < to; i += 1) {
    const row = rows[i]!;
    const id = row.cells[column] ?? '';
    if (id.length >= width || !isDigits(id)) continue;
    scan.short.push(row.rowNumber);
    scan.numericShort ||= row.numbers?.includes(column) ?? false;
  }
}

/**
 * The usual width once the file's ids are counted: the site's ids count too; else, for numbers in a workbook, the
 * file's
 * longest. The site's own usual width wins when it is wider: a file of new people whose ids all lost their zeros
 * outnumbers the site's ids without making the shorter length right.
 */
function widthOf(scan: Scan, siteIds: readonly string[]): number | null {
  const site = new Map<number, number>();
  for (const id of siteIds) if (isDigits(id)) site.set(id.length, (site.get(id.length) ?? 0) + 1);
  for (const [length, count] of site) scan.byLength.set(length, (scan.byLength.get(length) ?? 0) + count);
  const fromFile = usualLength(scan.byLength) ?? (scan.numbers ? scan.longest : null);
  const ofSite = usualLength(site);
  return ofSite !== null && (fromFile === null || ofSite > fromFile) ? ofSite : fromFile;
}

const newScan = (): Scan => ({
  byLength: new Map(),
  longest: 0,
  numbers: false,
  short: [],
  numericShort: false,
});
const found = (scan: Scan, width: number): LostZeros | null =>
  scan.short.length > 0 ? { width, rows: scan.short, numeric: scan.numericShort } : null;

/** The rows of the sheet whose employee id looks stripped of its leading zeros; null when none does. */
export function lostLeadingZeros(
  sheet: Sheet,
  column: number | undefined,
  siteIds: readonly string[],
): LostZeros | null {
  if (column === undefined) return null;
  const scan = newScan();
  countLengths(scan, sheet.rows, column, 0, sheet.rows.length);
  const width = widthOf(scan, siteIds);
  if (width === null) return null;
  findShort(scan, sheet.rows, column, width, 0, sheet.rows.length);
  return found(scan, width);
}

/**
 * The same, a slice of rows at a time (the window stays responsive on 100,000 rows); undefined when `stopped()` turns
 * true.
 */
export async function lostLeadingZerosInSlices(
  sheet: Sheet,
  column: number | undefined,
  siteIds: readonly string[],
  stopped: () => boolean,
  slice = 10_000,
): Promise<LostZeros | null | undefined> {
  if (column === undefined) return null;
  const { rows } = sheet;
  const scan = newScan();
  for (let at = 0; at < rows.length; at += slice) {
    await yieldToEventLoop();
    if (stopped()) return undefined;
    countLengths(scan, rows, column, at, Math.min(at + slice, rows.length));
  }
  const width = widthOf(scan, siteIds);
  if (width === null) return null;
  for (let at = 0; at < rows.length; at += slice) {
    await yieldToEventLoop();
    if (stopped()) return undefined;
    findShort(scan, rows, column, width, at, Math.min(at + slice, rows.length));
  }
  return found(scan, width);
}

/** An id as the platform holds it once padded: `7123` → `007123` for a width of 6. */
export function padId(id: string, width: number): string {
  return isDigits(id) ? id.padStart(width, '0') : id;
}
