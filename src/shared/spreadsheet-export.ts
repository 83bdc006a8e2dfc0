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
  if (width > 0) {
    const cols = types.map((type, c) => {
      const at = c + 1;
      const characters = columnWidth(rows, c, type);
      return `<col min="${at}" max="${at}" width="${characters}" customWidth="1"/>`;
    });
    parts.push(`<cols>${cols.join('')}</cols>`);
  }
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
const WORKBOOK_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml';
const STYLES_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml';
const RELATIONSHIPS_TYPE = 'application/vnd.openxmlformats-package.relationships+xml';
const CONTENT_TYPES_NS = 'http://schemas.openxmlformats.org/package/2006/content-types';
const RELATIONSHIPS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const SPREADSHEET_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
/** The namespace of a part's relationships (`r:id`), and the stem of each relationship's type. */
const OFFICE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** [Content_Types].xml: what each part of the package is. */
function contentTypesXml(sheetNumbers: readonly number[]): string {
  const defaults = [
    `<Default Extension="rels" ContentType="${RELATIONSHIPS_TYPE}"/>`,
    '<Default Extension="xml" ContentType="application/xml"/>',
  ];
  const overrides = [
    `<Override PartName="/xl/workbook.xml" ContentType="${WORKBOOK_TYPE}"/>`,
    `<Override PartName="/xl/styles.xml" ContentType="${STYLES_TYPE}"/>`,
    ...sheetNumbers.map(
      (i) => `<Override PartName="/xl/worksheets/sheet${i}.xml" ContentType="${SHEET_TYPE}"/>`,
    ),
  ];
  return `${XML_HEAD}<Types xmlns="${CONTENT_TYPES_NS}">${defaults.join('')}${overrides.join('')}</Types>`;
}

/** _rels/.rels: the package's one document, the workbook. */
const PACKAGE_RELS_XML = [
  XML_HEAD,
  `<Relationships xmlns="${RELATIONSHIPS_NS}">`,
  `<Relationship Id="rId1" Type="${OFFICE_RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/>`,
  '</Relationships>',
].join('');

/** xl/workbook.xml: the sheets in order, and each sheet's autofilter range (`filterNames`). */
function workbookXml(names: readonly string[], filterNames: string): string {
  const sheets = names.map((name, index) => {
    const i = index + 1;
    return `<sheet name="${escapeXml(name)}" sheetId="${i}" r:id="rId${i}"/>`;
  });
  const definedNames = filterNames ? `<definedNames>${filterNames}</definedNames>` : '';
  const opening = `<workbook xmlns="${SPREADSHEET_NS}" xmlns:r="${OFFICE_RELATIONSHIPS}">`;
  return `${XML_HEAD}${opening}<sheets>${sheets.join('')}</sheets>${definedNames}</workbook>`;
}

/** xl/_rels/workbook.xml.rels: where the workbook finds each sheet and the styles. */
function workbookRelsXml(sheetNumbers: readonly number[]): string {
  const sheets = sheetNumbers.map(
    (i) =>
      `<Relationship Id="rId${i}" Type="${OFFICE_RELATIONSHIPS}/worksheet" Target="worksheets/sheet${i}.xml"/>`,
  );
  const styles = `<Relationship Id="rIdStyles" Type="${OFFICE_RELATIONSHIPS}/styles" Target="styles.xml"/>`;
  return `${XML_HEAD}<Relationships xmlns="${RELATIONSHIPS_NS}">${sheets.join('')}${styles}</Relationships>`;
}

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
      const quotedName = names[i]!.replace(/'/g, "''");
      const lastColumn = columnLetter(width - 1);
      const lastRow = Math.max(1, sheet.rows.length);
      const ref = `'${quotedName}'!$A$1:$${lastColumn}$${lastRow}`;
      return `<definedName name="_xlnm._FilterDatabase" localSheetId="${i}" hidden="1">${escapeXml(ref)}</definedName>`;
    })
    .join('');
  const n = sheets.map((_, i) => i + 1);
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(contentTypesXml(n)),
    '_rels/.rels': strToU8(PACKAGE_RELS_XML),
    'xl/workbook.xml': strToU8(workbookXml(names, filterNames)),
    'xl/_rels/workbook.xml.rels': strToU8(workbookRelsXml(n)),
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
  const quoted = (value: unknown) => `"${neutralizeExportCell(value).replace(/"/g, '""')}"`;
  const lines = rows.map((row) => row.map(quoted).join(','));
  return `\ufeff${lines.join('\r\n')}\r\n`;
}
