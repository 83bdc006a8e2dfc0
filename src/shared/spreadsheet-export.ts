/**
 * Exported spreadsheets (XLSX and CSV) of text cells, for every export of the
 * app. XLSX is written synchronously with fflate's `zipSync`, which never starts
 * a worker: write-excel-file's `toBlob()` uses fflate's async `zip`, which starts
 * blob: workers for any part over 160 kB, and the app's CSP refuses them. Every
 * cell goes through the shared formula rule (formula.ts) and is written as a
 * text cell, so no spreadsheet computes it. Large tables: call it in a worker.
 */
import { strToU8, zipSync } from 'fflate';
import { neutralizeExportCell } from './formula.ts';

/** "A", "B", ... "AA": a column as a spreadsheet names it. */
export function columnLetter(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

// eslint-disable-next-line no-control-regex -- characters XML 1.0 cannot carry
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(NOT_XML, (c) => `_x${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}_`);

function sheetXml(rows: readonly (readonly unknown[])[]): string {
  const parts: string[] = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'];
  rows.forEach((row, r) => {
    parts.push(`<row r="${r + 1}">`);
    row.forEach((value, c) => {
      const text = neutralizeExportCell(value);
      if (text !== '') parts.push(`<c r="${columnLetter(c)}${r + 1}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(text)}</t></is></c>`);
    });
    parts.push('</row>');
  });
  parts.push('</sheetData></worksheet>');
  return parts.join('');
}

/** A sheet of an exported workbook: its name and its rows (the first row is the header). */
export interface ExportSheet {
  name: string;
  rows: readonly (readonly unknown[])[];
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const SHEET_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';

/** An .xlsx file of one or more sheets; names are made valid (31 characters, no []:*?/\\) and unique. */
export function writeXlsxSheets(sheets: readonly ExportSheet[]): Uint8Array<ArrayBuffer> {
  const used = new Set<string>();
  const names = sheets.map((sheet, i) => {
    let name = sheet.name.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31).trim() || `Sheet${i + 1}`;
    while (used.has(name.toLowerCase())) name = `${name.slice(0, 27)} (${i + 1})`;
    used.add(name.toLowerCase());
    return escapeXml(name);
  });
  const n = sheets.map((_, i) => i + 1);
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(`${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${n.map((i) => `<Override PartName="/xl/worksheets/sheet${i}.xml" ContentType="${SHEET_TYPE}"/>`).join('')}</Types>`),
    '_rels/.rels': strToU8(`${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    'xl/workbook.xml': strToU8(`${XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${n.map((i) => `<sheet name="${names[i - 1]}" sheetId="${i}" r:id="rId${i}"/>`).join('')}</sheets></workbook>`),
    'xl/_rels/workbook.xml.rels': strToU8(`${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${n.map((i) => `<Relationship Id="rId${i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i}.xml"/>`).join('')}</Relationships>`),
  };
  sheets.forEach((sheet, i) => (files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(sheetXml(sheet.rows))));
  return zipSync(files, { level: 6 });
}

/** An .xlsx file of one sheet: the first row is the header. */
export function writeXlsx(rows: readonly (readonly unknown[])[], sheetName: string): Uint8Array<ArrayBuffer> {
  return writeXlsxSheets([{ name: sheetName, rows }]);
}

/** The same table as CSV (RFC 4180, every cell quoted and neutralised, CRLF, with a BOM so Excel reads UTF-8). */
export function writeCsv(rows: readonly (readonly unknown[])[]): string {
  return `\ufeff${rows.map((row) => row.map((value) => `"${neutralizeExportCell(value).replace(/"/g, '""')}"`).join(',')).join('\r\n')}\r\n`;
}
