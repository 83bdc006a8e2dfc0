/**
 * Typed cells of an exported sheet: a spreadsheet filters dates by date and
 * sums counts only when they are stored as such. Dates are day numbers with the
 * spreadsheet's short-date format (shown in the reader's own locale), counts are
 * numbers, ids and codes are text (leading zeros kept, no "number stored as
 * text"). Every text cell goes through the shared formula rule.
 */
import { neutralizeExportCell } from './formula.ts';

/** 'date': an ISO day ("2026-03-01"); 'datetime': an ISO instant, written in local time. */
export type CellType = 'text' | 'number' | 'date' | 'datetime';

// eslint-disable-next-line no-control-regex -- characters XML 1.0 cannot carry
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
export const escapeXml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(NOT_XML, (c) => `_x${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}_`);

/** Style indexes of STYLES_XML's cellXfs. */
const STYLE = { plain: 0, header: 1, date: 2, datetime: 3 } as const;

/**
 * Built-in formats 14 (short date) and 22 (short date and time): Excel and LibreOffice show them in the reader's
 * locale.
 */
export const STYLES_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="22" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?$/;
/** Headers of columns that name things rather than count them: always text. */
const ID_HEADER = /\b(?:ids?|codes?|numbers?|no\.?|username|e-?mail|batch|operation|target)\b/i;
/** "UserID", "Employee ID": case matters ("Valid" is a count). */
const ID_SUFFIX = /ID$/;
const DAY_MS = 86_400_000;
/** Day 0 of a spreadsheet's dates (1899-12-30) is 25569 days before the Unix epoch. */
const EPOCH_OFFSET = 25_569;

const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

function serialOf(value: unknown, type: 'date' | 'datetime'): number | null {
  if (typeof value !== 'string') return null;
  const day = ISO_DAY.exec(value);
  if (day) return Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) / DAY_MS + EPOCH_OFFSET;
  if (type !== 'datetime' || !ISO_INSTANT.test(value)) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return null;
  return (at.getTime() - at.getTimezoneOffset() * 60_000) / DAY_MS + EPOCH_OFFSET;
}

function inferType(header: unknown, values: readonly unknown[]): CellType {
  if (typeof header === 'string' && (ID_HEADER.test(header) || ID_SUFFIX.test(header))) return 'text';
  const filled = values.filter((v) => !isEmpty(v));
  if (filled.length === 0) return 'text';
  if (filled.every((v) => typeof v === 'number' && Number.isFinite(v))) return 'number';
  if (filled.every((v) => typeof v === 'string' && ISO_DAY.test(v))) return 'date';
  if (filled.every((v) => typeof v === 'string' && (ISO_DAY.test(v) || ISO_INSTANT.test(v))))
    return 'datetime';
  return 'text';
}

/** Each column's type: the one given, else inferred from its header and values. */
export function columnTypes(
  rows: readonly (readonly unknown[])[],
  given: readonly (CellType | undefined)[] = [],
): CellType[] {
  const width = Math.max(0, ...rows.map((row) => row.length));
  return Array.from(
    { length: width },
    (_, c) =>
      given[c] ??
      inferType(
        rows[0]?.[c],
        rows.slice(1).map((row) => row[c]),
      ),
  );
}

const textCell = (ref: string, value: unknown, style: number) => {
  const text = neutralizeExportCell(value);
  return text === ''
    ? ''
    : `<c r="${ref}"${style ? ` s="${style}"` : ''} t="inlineStr"><is><t xml:space="preserve">${escapeXml(text)}</t></is></c>`;
};

/** One cell of a row; the header row is bold text. A value that does not fit its column's type is written as text. */
export function cellXml(ref: string, value: unknown, type: CellType | 'header'): string {
  if (isEmpty(value)) return '';
  if (type === 'header') return textCell(ref, value, STYLE.header);
  if (type === 'number' && typeof value === 'number' && Number.isFinite(value))
    return `<c r="${ref}"><v>${value}</v></c>`;
  if (type === 'date' || type === 'datetime') {
    const serial = serialOf(value, type);
    if (serial !== null) return `<c r="${ref}" s="${STYLE[type]}"><v>${serial}</v></c>`;
  }
  return textCell(ref, value, STYLE.plain);
}

/**
 * A column's width in characters: its longest value (of the first 2,000 rows) and room for the filter button, within
 * 8..60.
 */
export function columnWidth(rows: readonly (readonly unknown[])[], column: number, type: CellType): number {
  let longest = type === 'date' ? 10 : type === 'datetime' ? 16 : 0;
  for (const row of rows.slice(0, 2000)) {
    const value = row[column];
    if (isEmpty(value) || ((type === 'date' || type === 'datetime') && row !== rows[0])) continue;
    const text = typeof value === 'number' ? String(value) : neutralizeExportCell(value);
    longest = Math.max(longest, ...text.split('\n').map((line) => line.length));
  }
  return Math.min(60, Math.max(8, longest + 3));
}
