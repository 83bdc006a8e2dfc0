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
import { relationshipsOf, relsPathOf } from './parts.ts';
import type { ProgressHook, RawRow, RawTable } from './table.ts';

const P = '(?:[A-Za-z_][\\w.-]*:)?';
const SHEET_TAG = new RegExp(`<${P}sheet\\b[^>]*>`, 'g');
const NUMFMT_TAG = new RegExp(`<${P}numFmt\\b[^>]*>`, 'g');
const XF_TAG = new RegExp(`<${P}xf\\b[^>]*>`, 'g');
const CELL_XFS = new RegExp(`<${P}cellXfs\\b[\\s\\S]*?<\\/${P}cellXfs>`);
const ROW_START = new RegExp(`<(${P})row\\b`, 'g');
// A body never runs past the start of the next element of its name, and a value or attributes never hold '<':
// a hostile run of unclosed tags (<c><c><c>...) then costs linear time, not a scan to the row's end from each.
const CELL = new RegExp(`<${P}c\\b([^<>]*?)(?:\\/>|>((?:[^<]|<(?!${P}c\\b))*?)<\\/${P}c>)`, 'g');
const VALUE = new RegExp(`<${P}v(?:\\s[^<>]*)?>([^<]*)<\\/${P}v>`);
const INLINE = new RegExp(`<${P}is>((?:[^<]|<(?!${P}is>))*?)<\\/${P}is>`);
const SI_START = new RegExp(`<(${P})si\\b`, 'g');

/**
 * XML held for one shared string, at most. Excel's cells hold 32,767
 * characters (about 200 KB of XML even with every character escaped); past
 * this the file is damaged or hostile, and holding it would cost memory.
 */
const STRING_XML_MAX = 1024 * 1024;
/** XML held for one row, at most: room for hundreds of long cells, far more than any real export. */
const ROW_XML_MAX = 4 * 1024 * 1024;

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
  const formats = [...xfs.matchAll(XF_TAG)].map((m) =>
    numberFormatOf(Number(attributes(m[0]).numFmtId ?? 0), custom),
  );
  return { formats };
}

interface OpenElement {
  /** where it starts in the buffer (0 once held over a chunk's end) */
  start: number;
  /** where its start tag ends (-1: not seen yet) */
  tagEnd: number;
  /** its end tag, with the start tag's prefix */
  close: string;
  /** where the search for its start tag's end or for its end tag resumes */
  from: number;
}

/**
 * Cuts XML that arrives in chunks into the elements of one name (<row>, <si>).
 * An element still open at the end of a chunk is kept at the start of the
 * buffer, and the search for its end resumes where the previous one stopped:
 * a huge element costs time linear in its size, never a rescan per chunk.
 * `held` lets the caller refuse an element past a size cap.
 */
class ElementStream {
  private buffer = '';
  private open: OpenElement | null = null;
  private readonly startTag: RegExp;
  private readonly name: string;

  /** `startTag`: a global RegExp of the start tag's `<` and name, its namespace prefix captured */
  constructor(startTag: RegExp, name: string) {
    this.startTag = startTag;
    this.name = name;
  }

  /** characters held: the element still open, or a few of a tag cut by the chunk's end */
  get held(): number {
    return this.buffer.length;
  }

  /** the start tag of the element still open, once it is whole */
  get openTag(): string | null {
    return this.open && this.open.tagEnd >= 0 ? this.buffer.slice(0, this.open.tagEnd + 1) : null;
  }

  push(text: string, onElement: (tag: string, body: string) => void): void {
    const buffer = (this.buffer += text);
    let consumed = 0;
    for (;;) {
      const open = this.open ?? this.startAt(buffer, consumed);
      this.open = null;
      if (!open) {
        consumed = Math.max(consumed, tailFrom(buffer));
        break;
      }
      if (open.tagEnd < 0) {
        open.tagEnd = buffer.indexOf('>', open.from);
        if (open.tagEnd < 0) {
          consumed = this.hold(open, buffer.length);
          break;
        }
        open.from = open.tagEnd + 1;
        if (buffer[open.tagEnd - 1] === '/') {
          onElement(buffer.slice(open.start, open.tagEnd + 1), '');
          consumed = open.tagEnd + 1;
          continue;
        }
      }
      const end = buffer.indexOf(open.close, open.from);
      if (end < 0) {
        // the end tag may begin in the last characters: resume just before them
        consumed = this.hold(open, Math.max(open.from, buffer.length - open.close.length + 1));
        break;
      }
      onElement(buffer.slice(open.start, open.tagEnd + 1), buffer.slice(open.tagEnd + 1, end));
      consumed = end + open.close.length;
    }
    this.buffer = buffer.slice(consumed);
  }

  private startAt(buffer: string, from: number): OpenElement | null {
    this.startTag.lastIndex = from;
    const m = this.startTag.exec(buffer);
    // a name cut by the chunk's end ("<row" of "<rowBreaks") is not known yet
    if (!m || m.index + m[0].length >= buffer.length) return null;
    return { start: m.index, tagEnd: -1, close: `</${m[1] ?? ''}${this.name}>`, from: m.index + m[0].length };
  }

  /**
   * Keeps `open` for the next chunk, its positions made relative to its start (where the buffer is cut); returns that
   * cut.
   */
  private hold(open: OpenElement, resume: number): number {
    const { start } = open;
    this.open = {
      start: 0,
      tagEnd: open.tagEnd < 0 ? -1 : open.tagEnd - start,
      close: open.close,
      from: resume - start,
    };
    return start;
  }
}

/**
 * Where a buffer with no element open is kept from: a last '<' that may begin a start tag (a tag name is short), else
 * nowhere.
 */
function tailFrom(buffer: string): number {
  const lt = buffer.lastIndexOf('<');
  return lt >= 0 && buffer.length - lt < 256 ? lt : buffer.length;
}

function readSharedStrings(
  bytes: Uint8Array,
  entry: ZipEntry | undefined,
  limits: Limits,
  budget: { left: number },
): string[] {
  const strings: string[] = [];
  if (!entry) return strings;
  const decoder = new TextDecoder();
  const stream = new ElementStream(SI_START, 'si');
  inflateEntry(bytes, entry, limits, budget, (chunk) => {
    stream.push(decoder.decode(chunk, { stream: true }), (_, body) => strings.push(runsText(body)));
    if (strings.length > limits.cells) {
      const most = limits.cells.toLocaleString('en');
      throw new ReadError(
        `The workbook holds more than ${most} texts: it is too large to import. Split it into smaller files.`,
      );
    }
    if (stream.held > STRING_XML_MAX) {
      const which = (strings.length + 1).toLocaleString('en');
      throw new ReadError(
        `Text ${which} of the workbook is larger than 1 MB, while a cell holds at most 32,767 characters: the file is damaged or not a real workbook. Save the sheet again as .xlsx or .csv.`,
      );
    }
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

export function refusedContainer(
  entries: ReadonlyMap<string, ZipEntry>,
  workbookPath = 'xl/workbook.xml',
): string | null {
  if (entries.has(workbookPath)) return null;
  if (entries.has('content.xml') || entries.has('mimetype'))
    return 'This is an OpenDocument spreadsheet (.ods). Open it in LibreOffice or Excel and save it as .xlsx or .csv.';
  if ([...entries.keys()].some((name) => name.startsWith('Index/')))
    return 'This is a Numbers document. In Numbers choose File > Export To > Excel (or CSV), then import that file.';
  if (entries.has('word/document.xml'))
    return 'This is a Word document, not a spreadsheet. Save the table as .xlsx or .csv.';
  return NOT_A_ZIP;
}

/**
 * The workbook part and its own relationships, found through the package's (`_rels/.rels`); `xl/` when the package
 * names none.
 */
function locateWorkbook(
  bytes: Uint8Array,
  entries: ReadonlyMap<string, ZipEntry>,
  limits: Limits,
  budget: { left: number },
) {
  const root = relationshipsOf('', entryText(bytes, entries.get(relsPathOf('')), limits, budget));
  const path =
    root.find((r) => r.type === 'officeDocument' && entries.has(r.path))?.path ?? 'xl/workbook.xml';
  const refused = refusedContainer(entries, path);
  if (refused) throw new ReadError(refused);
  const parts = relationshipsOf(path, entryText(bytes, entries.get(relsPathOf(path)), limits, budget));
  const dir = path.slice(0, path.lastIndexOf('/') + 1);
  const partOf = (type: string, usual: string) =>
    parts.find((r) => r.type === type && entries.has(r.path))?.path ?? `${dir}${usual}`;
  return {
    path,
    targets: new Map(parts.map((r) => [r.id, r.path])),
    styles: partOf('styles', 'styles.xml'),
    sharedStrings: partOf('sharedStrings', 'sharedStrings.xml'),
  };
}

export function readXlsx(bytes: Uint8Array, limits: Limits, progress: ProgressHook): RawTable {
  const entries = zipEntries(bytes);
  const budget = { left: limits.totalBytes };
  const found = locateWorkbook(bytes, entries, limits, budget);
  const workbook = entryText(bytes, entries.get(found.path), limits, budget);
  const date1904 = /date1904\s*=\s*["'](?:1|true)["']/.test(workbook);
  const sheets = [...workbook.matchAll(SHEET_TAG)]
    .map((m) => attributes(m[0]))
    .map((a) => ({
      name: a.name ?? 'Sheet',
      hidden: a.state === 'hidden' || a.state === 'veryHidden',
      path: found.targets.get(a['r:id'] ?? ''),
    }));
  const visible = sheets.filter((s) => !s.hidden && s.path && entries.has(s.path));
  if (visible.length === 0)
    throw new ReadError(
      'The workbook has no sheet that can be read. Open it in Excel and save it again as .xlsx or .csv.',
    );
  const styles = readStyles(entryText(bytes, entries.get(found.styles), limits, budget));
  const strings = readSharedStrings(bytes, entries.get(found.sharedStrings), limits, budget);
  for (const [index, sheet] of visible.entries()) {
    const rows = readSheet(bytes, entries.get(sheet.path!)!, {
      dates: new Map(),
      limits,
      budget,
      styles,
      strings,
      date1904,
      progress,
    });
    if (rows.length > 0) {
      const before = index > 0 ? ' (the sheets before it are empty)' : '';
      const notes =
        visible.length > 1
          ? [
              `The workbook has ${visible.length} sheets; this is "${sheet.name}"${before}. To import another sheet, move it first or save it on its own.`,
            ]
          : [];
      return { rows, source: `sheet "${sheet.name}"`, notes };
    }
  }
  throw new ReadError('The workbook has no data: every sheet is empty.');
}

interface SheetContext {
  /** dates as shown, by their format's kind ("date", "time", "datetime") and serial number */
  dates: Map<string, Map<number, string>>;
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
  const stream = new ElementStream(ROW_START, 'row');
  let nextRow = 1;
  let cells = 0;
  const handleRow = (tag: string, body: string) => {
    const r = attr(tag, 'r');
    const rowNumber = r ? Number(r) : nextRow;
    nextRow = rowNumber + 1;
    if (rowNumber > limits.rows) {
      const most = limits.rows.toLocaleString('en');
      throw new ReadError(
        `The sheet has more than ${most} rows: Fieldbook imports at most ${most} at once. Split it into smaller files.`,
      );
    }
    const numbers: number[] = [];
    const row = rowCells(body, rowNumber, ctx, numbers);
    if (row.length === 0) return;
    cells += row.length;
    if (cells > limits.cells) {
      const most = limits.cells.toLocaleString('en');
      throw new ReadError(
        `The sheet has more than ${most} filled cells: it is too large to import at once. Split it into smaller files.`,
      );
    }
    rows.push(numbers.length > 0 ? { rowNumber, cells: row, numbers } : { rowNumber, cells: row });
    if (rows.length % 2000 === 0) ctx.progress({ rows: rows.length, read: rows });
  };
  inflateEntry(bytes, entry, limits, ctx.budget, (chunk) => {
    stream.push(decoder.decode(chunk, { stream: true }), handleRow);
    if (stream.held > ROW_XML_MAX) {
      const tag = stream.openTag;
      const row = tag ? `Row ${attr(tag, 'r') ?? nextRow}` : 'A row';
      throw new ReadError(
        `${row} of the sheet is larger than 4 MB, while a cell holds at most 32,767 characters: the file is damaged or not a real sheet. Save it again as .xlsx or .csv.`,
      );
    }
  });
  return rows;
}

function tooManyColumns(rowNumber: number, limits: Limits): ReadError {
  return new ReadError(
    `Row ${rowNumber} has more than ${limits.columns} columns: Fieldbook imports at most ${limits.columns}. Delete the empty or unneeded columns and save it again.`,
  );
}

/**
 * The cells of a row as shown, up to its last filled one; `numbers` gets the columns of whole numbers shown without
 * leading zeros.
 */
function rowCells(body: string, rowNumber: number, ctx: SheetContext, numbers: number[]): string[] {
  const { limits } = ctx;
  const row: string[] = [];
  let nextColumn = 0;
  CELL.lastIndex = 0;
  for (let m = CELL.exec(body); m; m = CELL.exec(body)) {
    const tagText = m[1] ?? '';
    const c = { r: attr(tagText, 'r'), s: attr(tagText, 's'), t: attr(tagText, 't') };
    const column = c.r ? columnOf(c.r) : nextColumn;
    nextColumn = column + 1;
    // no spreadsheet has a cell past its last column, empty or not
    if (column >= limits.fields) throw tooManyColumns(rowNumber, limits);
    const text = cellText(c, m[2] ?? '', ctx);
    // Excel writes empty formatted cells far to the right: only a filled cell counts against the limit
    if (text === '') continue;
    if (column >= limits.columns) throw tooManyColumns(rowNumber, limits);
    row[column] = text;
    if ((c.t === undefined || c.t === 'n') && WHOLE_NUMBER.test(text)) numbers.push(column);
  }
  for (let i = 0; i < row.length; i += 1) row[i] ??= '';
  return row;
}

const WHOLE_NUMBER = /^[1-9]\d*$/;
const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}:\d{2}))?/;

/**
 * A cell stored as an ISO 8601 date (`t="d"`) shown as other dates are: "2024-03-05", or with its time when it has one.
 */
function isoCellDate(value: string): string {
  const m = ISO_DATE.exec(value.trim());
  if (!m) return value.trim();
  return m[2] && m[2] !== '00:00:00' ? `${m[1]} ${m[2]}` : m[1]!;
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

function cellText(
  c: { r?: string | undefined; s?: string | undefined; t?: string | undefined },
  body: string,
  ctx: SheetContext,
): string {
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
    case 'd':
      return isoCellDate(value);
    case 'e':
    case 'str':
      return value.trim();
    default: {
      const number = Number(value);
      if (!Number.isFinite(number)) return value.trim();
      const format = ctx.styles.formats[Number(c.s ?? 0)];
      if (format?.kind === 'date') return shownDate(number, format, ctx);
      return format ? formatNumber(number, format, ctx.date1904) : plainNumber(number);
    }
  }
}

/** Distinct dates kept as shown, at most: a sheet's dates repeat (start dates, expiry dates). */
const DATES_KEPT = 50_000;

/** A date cell as shown, made once per date and format (each is made through a Date and its ISO text). */
function shownDate(serial: number, format: NumberFormat, ctx: SheetContext): string {
  let shown = ctx.dates.get(format.code);
  if (!shown) ctx.dates.set(format.code, (shown = new Map()));
  let text = shown.get(serial);
  if (text === undefined) {
    text = formatNumber(serial, format, ctx.date1904);
    if (shown.size < DATES_KEPT) shown.set(serial, text);
  }
  return text;
}
