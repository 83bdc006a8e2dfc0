/**
 * The reader against files made by a real spreadsheet program (LibreOffice,
 * scripts/make-import-fixtures.mjs) and against broken and hostile ones.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { readSpreadsheet } from './index.ts';
import { LIMITS } from './limits.ts';
import type { RawTable } from './table.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(FIXTURES, name)));
const read = (name: string, bytes: Uint8Array = fixture(name)) => readSpreadsheet(name, bytes);
const refusal = (name: string, bytes?: Uint8Array) => {
  try {
    read(name, bytes);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${name} was read`);
};
const row = (table: RawTable, rowNumber: number) => table.rows.find((r) => r.rowNumber === rowNumber)?.cells;

const HEADER = ['Employee No.', 'Forename', 'Surname', 'Work Email', 'Status', 'Start date'];

describe('workbooks saved by LibreOffice as .xlsx', () => {
  it('shows numbers through their format: leading zeros kept, dates as dates', () => {
    const table = read('people.xlsx');
    expect(row(table, 4)).toEqual(['00123', 'José', 'Müller', 'jose.muller@example.com', 'Active', '2024-03-05']);
    expect(row(table, 7)?.[0]).toBe('90210');
  });

  it('keeps the spreadsheet row numbers: a merged title on row 1, a blank row 2, the header on row 3', () => {
    const table = read('people.xlsx');
    expect(table.rows.map((r) => r.rowNumber)).toEqual([1, 3, 4, 5, 6, 7, 8]);
    expect(row(table, 1)).toEqual(['HR export — staff list, November 2026']);
    expect(row(table, 3)).toEqual(HEADER);
  });

  it('reads the first sheet and says that the workbook has others', () => {
    const table = read('people.xlsx');
    expect(table.source).toBe('sheet "People"');
    expect(table.notes.join(' ')).toContain('2 sheets');
  });

  it('reads an .xlsm workbook the same way', () => {
    expect(row(read('people.xlsm'), 4)?.[0]).toBe('00123');
  });

  it('reads a workbook with a header row and no people', () => {
    expect(read('headers-only.xlsx').rows.map((r) => r.rowNumber)).toEqual([1, 3]);
  });
});

describe('text files saved by LibreOffice', () => {
  it.each([
    ['people-utf8.csv', 'UTF-8 text, comma-separated'],
    ['people-utf8-bom.csv', 'UTF-8 text, comma-separated'],
    ['people-utf16.txt', 'UTF-16 text, tab-separated'],
    ['people-windows1252.csv', 'Windows-1252 text, comma-separated'],
    ['people-semicolon.csv', 'UTF-8 text, semicolon-separated'],
    ['people-tab.tsv', 'UTF-8 text, tab-separated'],
  ])('reads %s without changing a character (%s)', (name, source) => {
    const table = read(name);
    expect(table.source).toBe(source);
    expect(row(table, 3)).toEqual(HEADER);
    expect(row(table, 4)).toEqual(['00123', 'José', 'Müller', 'jose.muller@example.com', 'Active', '05/03/2024']);
    expect(row(table, 5)?.slice(1, 3)).toEqual(['Zoë', 'Ødegård']);
    expect(row(table, 1)).toEqual(['HR export — staff list, November 2026']);
    expect(JSON.stringify(table.rows)).not.toContain('\ufffd');
  });

  it('says that a file that is not UTF-8 was read as Windows-1252', () => {
    expect(read('people-windows1252.csv').notes.join(' ')).toContain('Windows-1252');
  });
});

describe('decoding and splitting text', () => {
  const text = (name: string, content: string | Uint8Array) => readSpreadsheet(name, typeof content === 'string' ? strToU8(content) : content);

  it('never decodes Latin-1 bytes as broken UTF-8', () => {
    const bytes = new Uint8Array([...strToU8('username,firstname\njm,Jos'), 0xe9, 0x0a]);
    expect(text('p.csv', bytes).rows[1]?.cells).toEqual(['jm', 'José']);
  });

  it('refuses a file that claims UTF-8 with a BOM but holds broken bytes', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...strToU8('username\nJos'), 0xe9]);
    expect(() => text('p.csv', bytes)).toThrow(/not/);
  });

  it('reads UTF-16 big-endian by its byte-order mark', () => {
    const body = 'username\tfirstname\r\nzo\tZoë\r\n';
    const bytes = new Uint8Array(2 + body.length * 2);
    bytes.set([0xfe, 0xff]);
    for (let i = 0; i < body.length; i += 1) bytes.set([body.charCodeAt(i) >> 8, body.charCodeAt(i) & 0xff], 2 + i * 2);
    expect(text('p.txt', bytes).rows[1]?.cells).toEqual(['zo', 'Zoë']);
  });

  it('takes the delimiter from Excel\'s sep= line, which is not a row', () => {
    const table = text('p.csv', 'sep=;\nusername;first name\nann;Ann, Jr\n');
    expect(table.rows).toEqual([{ rowNumber: 1, cells: ['username', 'first name'] }, { rowNumber: 2, cells: ['ann', 'Ann, Jr'] }]);
  });

  it('reads pipe-separated and one-column files', () => {
    expect(text('p.txt', 'username|email\nann|a@x.io\n').rows[1]?.cells).toEqual(['ann', 'a@x.io']);
    expect(text('p.csv', 'username\nann\nbo\n').rows.map((r) => r.cells)).toEqual([['username'], ['ann'], ['bo']]);
  });

  it('numbers rows as the spreadsheet does: blank lines count, quoted line breaks do not', () => {
    const table = text('p.csv', 'username,notes\n\n\nann,"two\nlines"\n\nbo,x\n');
    expect(table.rows.map((r) => r.rowNumber)).toEqual([1, 4, 6]);
    expect(table.rows[1]?.cells).toEqual(['ann', 'two\nlines']);
  });

  it('refuses an unclosed quote with the row where it opened', () => {
    expect(() => text('p.csv', 'username,first\nann,Ann\nbo,"Bo\n')).toThrow('A quote opened on row 3 is never closed');
  });
});

describe('files that are not readable spreadsheets', () => {
  it.each([
    ['empty.csv', 'The file is empty'],
    ['image.xlsx', 'PNG image, not a spreadsheet'],
    ['truncated.xlsx', 'damaged or cut short'],
    ['people.ods', 'save it as .xlsx or .csv'],
  ])('%s: %s', (name, message) => {
    expect(refusal(name)).toContain(message);
  });

  it.each([
    ['people.xls', new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0])],
    ['people.numbers', strToU8('PK')],
    ['people.pdf', strToU8('%PDF-1.7')],
    ['people.docx', strToU8('PK')],
  ])('refuses %s with what to do instead', (name, bytes) => {
    expect(refusal(name, bytes)).toMatch(/save it as \.xlsx or \.csv|Export To > Excel/);
  });

  it('refuses a zip bomb quickly, before unpacking it all', () => {
    const bomb = zipSync({
      '[Content_Types].xml': strToU8('<Types/>'),
      'xl/workbook.xml': strToU8('<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>'),
      'xl/_rels/workbook.xml.rels': strToU8('<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>'),
      'xl/worksheets/sheet1.xml': new Uint8Array(48 * 1024 * 1024).fill(32),
    });
    expect(bomb.length).toBeLessThan(200_000);
    expect(refusal('bomb.xlsx', bomb)).toContain('zip bomb');
  });
});

describe('limits, enforced while reading', () => {
  const workbook = (sheetXml: string) => zipSync({
    '[Content_Types].xml': strToU8('<Types/>'),
    'xl/workbook.xml': strToU8('<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>'),
    'xl/_rels/workbook.xml.rels': strToU8('<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>'),
    'xl/worksheets/sheet1.xml': strToU8(`<worksheet><sheetData>${sheetXml}</sheetData></worksheet>`),
  });

  it('refuses a sheet past the row limit as soon as it reaches it (the 1,000,000-row case is timed in the benchmark)', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>u${i}</t></is></c></row>`).join('');
    let read = 0;
    const limits = { ...LIMITS, rows: 1000 };
    expect(() => readSpreadsheet('big.xlsx', workbook(rows), (p) => (read = p.rows), limits)).toThrow('more than 1,000 rows');
    expect(read).toBeLessThanOrEqual(1000);
  });

  it('refuses a sheet with more columns than the limit', () => {
    const cells = Array.from({ length: LIMITS.columns + 1 }, (_, i) => `<c t="inlineStr"><is><t>h${i}</t></is></c>`).join('');
    expect(refusal('wide.xlsx', workbook(`<row r="1">${cells}</row>`))).toContain(`more than ${LIMITS.columns} columns`);
  });

  it('refuses a CSV whose header has 200,000 columns', () => {
    expect(refusal('wide.csv', strToU8(`${'h,'.repeat(200_000)}h\n`))).toContain(`at most ${LIMITS.columns}`);
  });

  it('refuses a CSV with more rows than the limit', () => {
    expect(refusal('long.csv', strToU8(`username\n${'ann\n'.repeat(LIMITS.rows + 1)}`))).toContain('more than 200,000 rows');
  });

  it('reads a sheet with exactly as many rows as the limit', () => {
    expect(readSpreadsheet('long.csv', strToU8(`username\n${'ann\n'.repeat(LIMITS.rows - 1)}`)).rows).toHaveLength(LIMITS.rows);
  });
});
