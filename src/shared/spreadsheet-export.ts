/**
 * Exported spreadsheets (XLSX and CSV), for every export of the app. XLSX is
 * written synchronously with fflate's `zipSync`, which never starts a worker:
 * write-excel-file's `toBlob()` uses fflate's async `zip`, which starts blob:
 * workers for any part over 160 kB, and the app's CSP refuses them. Cells are
 * typed so people can filter and sort them (sheet-cells.ts): dates as dates,
 * counts as numbers, ids and codes as text; every text cell goes through the
 * shared formula rule (formula.ts), so no spreadsheet computes it. Each sheet
 * has sized columns, a frozen header row and an autofilter. Large tables:
 * call it in a worker.
 */
import { strToU8, zipSync } from 'fflate';
import { neutralizeExportCell } from './formula.ts';
import { cellXml, columnTypes, columnWidth, escapeXml, STYLES_XML, type CellType } from './sheet-cells.ts';

/** "A", "B", ... "AA": a column as a spreadsheet names it. */
export function columnLetter(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function sheetXml(rows: readonly (readonly unknown[])[], types: readonly CellType[]): string {
  const width = Math.max(0, ...rows.map((row) => row.length));
  const last = `${columnLetter(Math.max(0, width - 1))}${Math.max(1, rows.length)}`;
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">',
  ];
  // the header row stays in view while scrolling
  parts.push(
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>',
  );
  if (width > 0)
    parts.push(
      `<cols>${types.map((type, c) => `<col min="${c + 1}" max="${c + 1}" width="${columnWidth(rows, c, type)}" customWidth="1"/>`).join('')}</cols>`,
    );
  parts.push('<sheetData>');
  rows.forEach((row, r) => {
    parts.push(`<row r="${r + 1}">`);
    row.forEach((value, c) =>
      parts.push(cellXml(`${columnLetter(c)}${r + 1}`, value, r === 0 ? 'header' : (types[c] ?? 'text'))),
    );
    parts.push('</row>');
  });
  parts.push('</sheetData>');
  if (width > 0) parts.push(`<autoFilter ref="A1:${last}"/>`);
  parts.push('</worksheet>');
  return parts.join('');
}

/** A sheet of an exported workbook: its name and its rows (the first row is the header). */
export interface ExportSheet {
  name: string;
  rows: readonly (readonly unknown[])[];
  /** each column's type; a column left out is inferred from its header and values (sheet-cells.ts) */
  types?: readonly (CellType | undefined)[];
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const SHEET_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';

/** An .xlsx file of one or more sheets; names are made valid (31 characters, no []:*?/\\) and unique. */
export function writeXlsxSheets(sheets: readonly ExportSheet[]): Uint8Array<ArrayBuffer> {
  const used = new Set<string>();
  const names = sheets.map((sheet, i) => {
    let name =
      sheet.name
        .replace(/[\\/?*[\]:]/g, ' ')
        .slice(0, 31)
        .trim() || `Sheet${i + 1}`;
    while (used.has(name.toLowerCase())) name = `${name.slice(0, 27)} (${i + 1})`;
    used.add(name.toLowerCase());
    return name;
  });
  const sheetTypes = sheets.map((sheet) => columnTypes(sheet.rows, sheet.types));
  const filterNames = sheets
    .map((sheet, i) => {
      const width = Math.max(0, ...sheet.rows.map((row) => row.length));
      if (width === 0) return '';
      const ref = `'${names[i]!.replace(/'/g, "''")}'!$A$1:$${columnLetter(width - 1)}$${Math.max(1, sheet.rows.length)}`;
      return `<definedName name="_xlnm._FilterDatabase" localSheetId="${i}" hidden="1">${escapeXml(ref)}</definedName>`;
    })
    .join('');
  const n = sheets.map((_, i) => i + 1);
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${n.map((i) => `<Override PartName="/xl/worksheets/sheet${i}.xml" ContentType="${SHEET_TYPE}"/>`).join('')}</Types>`,
    ),
    '_rels/.rels': strToU8(
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `${XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${n.map((i) => `<sheet name="${escapeXml(names[i - 1]!)}" sheetId="${i}" r:id="rId${i}"/>`).join('')}</sheets>${filterNames ? `<definedNames>${filterNames}</definedNames>` : ''}</workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${n.map((i) => `<Relationship Id="rId${i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i}.xml"/>`).join('')}<Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    ),
    'xl/styles.xml': strToU8(STYLES_XML),
  };
  sheets.forEach(
    (sheet, i) => (files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(sheetXml(sheet.rows, sheetTypes[i]!))),
  );
  return zipSync(files, { level: 6 });
}

/** An .xlsx file of one sheet: the first row is the header. */
export function writeXlsx(
  rows: readonly (readonly unknown[])[],
  sheetName: string,
  types?: readonly (CellType | undefined)[],
): Uint8Array<ArrayBuffer> {
  return writeXlsxSheets([{ name: sheetName, rows, ...(types ? { types } : {}) }]);
}

/** The same table as CSV (RFC 4180, every cell quoted and neutralised, CRLF, with a BOM so Excel reads UTF-8). */
export function writeCsv(rows: readonly (readonly unknown[])[]): string {
  return `\ufeff${rows.map((row) => row.map((value) => `"${neutralizeExportCell(value).replace(/"/g, '""')}"`).join(',')).join('\r\n')}\r\n`;
}
