/**
 * An XLSX / XLSM workbook read as the spreadsheet shows it, streaming: the
 * first visible sheet with data, its cells through their number formats and
 * shared strings. Rows and columns are counted as they are read, so a sheet
 * past a limit is refused without being built.
 */
import { attributes, runsText, unescapeXml } from './xml.ts';
import { entryText, inflateEntry, NOT_A_ZIP, zipEntries, type ZipEntry } from './zip.ts';
import { formatNumber, numberFormatOf, plainNumber, type NumberFormat } from './numfmt.ts';
import { ReadError, type Limits } from './limits.ts';
import type { ProgressHook, RawRow, RawTable } from './table.ts';

const P = '(?:[A-Za-z_][\\w.-]*:)?';
const SHEET_TAG = new RegExp(`<${P}sheet\\b[^>]*>`, 'g');
const NUMFMT_TAG = new RegExp(`<${P}numFmt\\b[^>]*>`, 'g');
const XF_TAG = new RegExp(`<${P}xf\\b[^>]*>`, 'g');
const CELL_XFS = new RegExp(`<${P}cellXfs\\b[\\s\\S]*?<\\/${P}cellXfs>`);
const ROW_START = new RegExp(`<${P}row\\b`, 'g');
const ROW_END = new RegExp(`<\\/${P}row>`, 'g');
const CELL = new RegExp(`<${P}c\\b([^>]*?)(?:\\/>|>([\\s\\S]*?)<\\/${P}c>)`, 'g');
const VALUE = new RegExp(`<${P}v(?:\\s[^>]*)?>([\\s\\S]*?)<\\/${P}v>`);
const INLINE = new RegExp(`<${P}is>([\\s\\S]*?)<\\/${P}is>`);
const SI_END = new RegExp(`<\\/${P}si>`, 'g');

interface Styles {
  formats: NumberFormat[];
}

function readStyles(xml: string): Styles {
  const custom = new Map<number, string>();
  for (const m of xml.matchAll(NUMFMT_TAG)) {
    const a = attributes(m[0]);
    if (a.numFmtId && a.formatCode !== undefined) custom.set(Number(a.numFmtId), a.formatCode);
  }
  const xfs = CELL_XFS.exec(xml)?.[0] ?? '';
  const formats = [...xfs.matchAll(XF_TAG)].map((m) => numberFormatOf(Number(attributes(m[0]).numFmtId ?? 0), custom));
  return { formats };
}

function readSharedStrings(bytes: Uint8Array, entry: ZipEntry | undefined, limits: Limits, budget: { left: number }): string[] {
  const strings: string[] = [];
  if (!entry) return strings;
  const decoder = new TextDecoder();
  let buffer = '';
  inflateEntry(bytes, entry, limits, budget, (chunk) => {
    buffer += decoder.decode(chunk, { stream: true });
    let last = 0;
    SI_END.lastIndex = 0;
    for (let m = SI_END.exec(buffer); m; m = SI_END.exec(buffer)) {
      strings.push(runsText(buffer.slice(last, m.index)));
      last = m.index + m[0].length;
    }
    buffer = buffer.slice(last);
    if (strings.length > limits.cells) throw new ReadError(`The workbook holds more than ${limits.cells.toLocaleString('en')} texts: it is too large to import. Split it into smaller files.`);
  });
  return strings;
}

/** "BC" → 54 (0-based column of a cell reference) */
function columnOf(ref: string): number {
  let column = 0;
  for (let i = 0; i < ref.length; i += 1) {
    const code = ref.charCodeAt(i);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return column - 1;
}

export function refusedContainer(entries: ReadonlyMap<string, ZipEntry>): string | null {
  if (entries.has('xl/workbook.xml')) return null;
  if (entries.has('content.xml') || entries.has('mimetype')) return 'This is an OpenDocument spreadsheet (.ods). Open it in LibreOffice or Excel and save it as .xlsx or .csv.';
  if ([...entries.keys()].some((name) => name.startsWith('Index/'))) return 'This is a Numbers document. In Numbers choose File > Export To > Excel (or CSV), then import that file.';
  if (entries.has('word/document.xml')) return 'This is a Word document, not a spreadsheet. Save the table as .xlsx or .csv.';
  return NOT_A_ZIP;
}

export function readXlsx(bytes: Uint8Array, limits: Limits, progress: ProgressHook): RawTable {
  const entries = zipEntries(bytes);
  const refused = refusedContainer(entries);
  if (refused) throw new ReadError(refused);
  const budget = { left: limits.totalBytes };
  const workbook = entryText(bytes, entries.get('xl/workbook.xml'), limits, budget);
  const rels = entryText(bytes, entries.get('xl/_rels/workbook.xml.rels'), limits, budget);
  const targets = new Map<string, string>();
  for (const m of rels.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
    const a = attributes(m[0]);
    if (a.Id && a.Target) targets.set(a.Id, a.Target.startsWith('/') ? a.Target.slice(1) : `xl/${a.Target}`.replace(/\/\.\//g, '/'));
  }
  const date1904 = /date1904\s*=\s*["'](?:1|true)["']/.test(workbook);
  const sheets = [...workbook.matchAll(SHEET_TAG)].map((m) => attributes(m[0])).map((a) => ({ name: a.name ?? 'Sheet', hidden: a.state === 'hidden' || a.state === 'veryHidden', path: targets.get(a['r:id'] ?? '') }));
  const visible = sheets.filter((s) => !s.hidden && s.path && entries.has(s.path));
  if (visible.length === 0) throw new ReadError('The workbook has no sheet that can be read. Open it in Excel and save it again as .xlsx or .csv.');
  const styles = readStyles(entryText(bytes, entries.get('xl/styles.xml'), limits, budget));
  const strings = readSharedStrings(bytes, entries.get('xl/sharedStrings.xml'), limits, budget);
  for (const [index, sheet] of visible.entries()) {
    const rows = readSheet(bytes, entries.get(sheet.path!)!, { limits, budget, styles, strings, date1904, progress });
    if (rows.length > 0) {
      const notes = visible.length > 1 ? [`The workbook has ${visible.length} sheets; this is "${sheet.name}"${index > 0 ? ' (the sheets before it are empty)' : ''}. To import another sheet, move it first or save it on its own.`] : [];
      return { rows, source: `sheet "${sheet.name}"`, notes };
    }
  }
  throw new ReadError('The workbook has no data: every sheet is empty.');
}

interface SheetContext {
  limits: Limits;
  budget: { left: number };
  styles: Styles;
  strings: readonly string[];
  date1904: boolean;
  progress: ProgressHook;
}

function readSheet(bytes: Uint8Array, entry: ZipEntry, ctx: SheetContext): RawRow[] {
  const { limits } = ctx;
  const rows: RawRow[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  let nextRow = 1;
  let cells = 0;
  const tooManyColumns = () => new ReadError(`The sheet has more than ${limits.columns} columns: Fieldbook imports at most ${limits.columns}. Delete the empty or unneeded columns and save it again.`);
  const handleRow = (tag: string, body: string) => {
    const r = attr(tag, 'r');
    const rowNumber = r ? Number(r) : nextRow;
    nextRow = rowNumber + 1;
    if (rowNumber > limits.rows) throw new ReadError(`The sheet has more than ${limits.rows.toLocaleString('en')} rows: Fieldbook imports at most ${limits.rows.toLocaleString('en')} at once. Split it into smaller files.`);
    const row: string[] = [];
    let nextColumn = 0;
    CELL.lastIndex = 0;
    for (let m = CELL.exec(body); m; m = CELL.exec(body)) {
      const tagText = m[1] ?? '';
      const c = { r: attr(tagText, 'r'), s: attr(tagText, 's'), t: attr(tagText, 't') };
      const column = c.r ? columnOf(c.r) : nextColumn;
      nextColumn = column + 1;
      if (column >= limits.columns) throw tooManyColumns();
      const text = cellText(c, m[2] ?? '', ctx);
      if (text !== '') row[column] = text;
    }
    if (row.length === 0) return;
    for (let i = 0; i < row.length; i += 1) row[i] ??= '';
    cells += row.length;
    if (cells > limits.cells) throw new ReadError(`The sheet has more than ${limits.cells.toLocaleString('en')} filled cells: it is too large to import at once. Split it into smaller files.`);
    rows.push({ rowNumber, cells: row });
    if (rows.length % 2000 === 0) ctx.progress({ rows: rows.length });
  };
  inflateEntry(bytes, entry, limits, ctx.budget, (chunk) => {
    buffer += decoder.decode(chunk, { stream: true });
    let consumed = 0;
    for (;;) {
      ROW_START.lastIndex = consumed;
      const start = ROW_START.exec(buffer);
      if (!start) {
        consumed = Math.max(consumed, buffer.length - 16);
        break;
      }
      const tagEnd = buffer.indexOf('>', start.index);
      if (tagEnd < 0) {
        consumed = start.index;
        break;
      }
      const tag = buffer.slice(start.index, tagEnd + 1);
      if (tag.endsWith('/>')) {
        handleRow(tag, '');
        consumed = tagEnd + 1;
        continue;
      }
      ROW_END.lastIndex = tagEnd;
      const close = ROW_END.exec(buffer);
      if (!close) {
        consumed = start.index;
        break;
      }
      handleRow(tag, buffer.slice(tagEnd + 1, close.index));
      consumed = close.index + close[0].length;
    }
    buffer = buffer.slice(consumed);
    // a row still open after megabytes: count its cells now rather than wait for its end
    if (buffer.length > 1024 * 1024 && (buffer.match(/<(?:\w+:)?c\b/g)?.length ?? 0) > limits.columns) throw tooManyColumns();
    if (buffer.length > 64 * 1024 * 1024) throw new ReadError('A row of the sheet is larger than 64 MB: the file is damaged or not a real sheet.');
  });
  return rows;
}

/** One attribute of a tag, fast (the hot path: every cell). */
function attr(tag: string, name: string): string | undefined {
  let at = tag.indexOf(` ${name}=`);
  if (at < 0) return undefined;
  at += name.length + 2;
  const quote = tag[at];
  const end = tag.indexOf(quote!, at + 1);
  return end < 0 ? undefined : tag.slice(at + 1, end);
}

function cellText(c: { r?: string | undefined; s?: string | undefined; t?: string | undefined }, body: string, ctx: SheetContext): string {
  const type = c.t ?? 'n';
  if (type === 'inlineStr') return runsText(INLINE.exec(body)?.[1] ?? '').trim();
  const raw = VALUE.exec(body)?.[1];
  if (raw === undefined) return '';
  const value = unescapeXml(raw);
  switch (type) {
    case 's':
      return (ctx.strings[Number(value)] ?? '').trim();
    case 'b':
      return value === '1' ? 'TRUE' : 'FALSE';
    case 'e':
    case 'str':
    case 'd':
      return value.trim();
    default: {
      const number = Number(value);
      if (!Number.isFinite(number)) return value.trim();
      const format = ctx.styles.formats[Number(c.s ?? 0)];
      return format ? formatNumber(number, format, ctx.date1904) : plainNumber(number);
    }
  }
}
