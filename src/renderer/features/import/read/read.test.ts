/**
 * The reader against files made by a real spreadsheet program (LibreOffice,
 * scripts/make-import-fixtures.mjs) and against broken and hostile ones.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
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
    expect(row(table, 4)).toEqual([
      '00123',
      'José',
      'Müller',
      'jose.muller@example.com',
      'Active',
      '2024-03-05',
    ]);
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
    // saved by LibreOffice as a macro-enabled workbook, not a renamed .xlsx
    expect(strFromU8(unzipSync(fixture('people.xlsm'))['[Content_Types].xml']!)).toContain(
      'sheet.macroEnabled.main+xml',
    );
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
    expect(row(table, 4)).toEqual([
      '00123',
      'José',
      'Müller',
      'jose.muller@example.com',
      'Active',
      '05/03/2024',
    ]);
    expect(row(table, 5)?.slice(1, 3)).toEqual(['Zoë', 'Ødegård']);
    expect(row(table, 1)).toEqual(['HR export — staff list, November 2026']);
    expect(JSON.stringify(table.rows)).not.toContain('\ufffd');
  });

  it('asks the user to confirm the encoding of a file that is not UTF-8, Windows-1252 guessed first', () => {
    expect(read('people-windows1252.csv').encoding?.candidates[0]?.encoding).toBe('windows-1252');
  });
});

describe('decoding and splitting text', () => {
  const text = (name: string, content: string | Uint8Array) =>
    readSpreadsheet(name, typeof content === 'string' ? strToU8(content) : content);

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
    for (let i = 0; i < body.length; i += 1)
      bytes.set([body.charCodeAt(i) >> 8, body.charCodeAt(i) & 0xff], 2 + i * 2);
    expect(text('p.txt', bytes).rows[1]?.cells).toEqual(['zo', 'Zoë']);
  });

  it("takes the delimiter from Excel's sep= line, which is not a row", () => {
    const table = text('p.csv', 'sep=;\nusername;first name\nann;Ann, Jr\n');
    expect(table.rows).toEqual([
      { rowNumber: 1, cells: ['username', 'first name'] },
      { rowNumber: 2, cells: ['ann', 'Ann, Jr'] },
    ]);
  });

  it('reads each cell without the spaces around it, and a row without the empty cells that end it', () => {
    const table = text('p.csv', 'username,first name,,\n  ann , Ann Lee\t,,\nbo,Bo,,\n');
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['username', 'first name'],
      ['ann', 'Ann Lee'],
      ['bo', 'Bo'],
    ]);
  });

  it('reads pipe-separated and one-column files', () => {
    expect(text('p.txt', 'username|email\nann|a@x.io\n').rows[1]?.cells).toEqual(['ann', 'a@x.io']);
    expect(text('p.csv', 'username\nann\nbo\n').rows.map((r) => r.cells)).toEqual([
      ['username'],
      ['ann'],
      ['bo'],
    ]);
  });

  it('chooses the delimiter that splits every line alike: commas, over pipes that many lines (not the header) hold', () => {
    const lines = [
      'Username,First name,Groups',
      ...Array.from({ length: 10 }, (_, i) => `u${i},Ann,a|b|c|d|e|f|g|h|i|j|k|l|m`),
    ];
    expect(text('p.csv', lines.join('\n')).rows[1]?.cells).toEqual([
      'u0',
      'Ann',
      'a|b|c|d|e|f|g|h|i|j|k|l|m',
    ]);
  });

  it('numbers rows as the spreadsheet does: blank lines count, quoted line breaks do not', () => {
    const table = text('p.csv', 'username,notes\n\n\nann,"two\nlines"\n\nbo,x\n');
    expect(table.rows.map((r) => r.rowNumber)).toEqual([1, 4, 6]);
    expect(table.rows[1]?.cells).toEqual(['ann', 'two\nlines']);
  });

  it('refuses an unclosed quote with the row where it opened', () => {
    expect(() => text('p.csv', 'username,first\nann,Ann\nbo,"Bo\n')).toThrow(
      'A quote opened on row 3 is never closed',
    );
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
      'xl/_rels/workbook.xml.rels': strToU8(
        '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
      'xl/worksheets/sheet1.xml': new Uint8Array(48 * 1024 * 1024).fill(32),
    });
    expect(bomb.length).toBeLessThan(200_000);
    expect(refusal('bomb.xlsx', bomb)).toContain('zip bomb');
  });
});

describe('limits, enforced while reading', () => {
  const workbook = (sheetXml: string) =>
    zipSync({
      '[Content_Types].xml': strToU8('<Types/>'),
      'xl/workbook.xml': strToU8('<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>'),
      'xl/_rels/workbook.xml.rels': strToU8(
        '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
      'xl/worksheets/sheet1.xml': strToU8(`<worksheet><sheetData>${sheetXml}</sheetData></worksheet>`),
    });

  it('refuses a sheet past the row limit as soon as it reaches it', () => {
    const rows = Array.from(
      { length: 5000 },
      (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>u${i}</t></is></c></row>`,
    ).join('');
    let read = 0;
    const limits = { ...LIMITS, rows: 1000 };
    expect(() => readSpreadsheet('big.xlsx', workbook(rows), (p) => (read = p.rows), limits)).toThrow(
      'more than 1,000 rows',
    );
    expect(read).toBeLessThanOrEqual(1000);
  });

  // The bound is that reading stops at the limit (`read`), not a wall-clock figure: time is the bench's.
  it(
    'refuses a sheet of 200,001 rows at the real limit, having read no row past it',
    { timeout: 120_000 },
    () => {
      const sheet = workbook(
        Array.from(
          { length: LIMITS.rows + 1 },
          (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>1</v></c></row>`,
        ).join(''),
      );
      let read = 0;
      expect(() => readSpreadsheet('long.xlsx', sheet, (p) => (read = p.rows))).toThrow(
        'more than 200,000 rows',
      );
      expect(read).toBe(LIMITS.rows);
    },
  );

  it('refuses a sheet with more columns than the limit', () => {
    const cells = Array.from(
      { length: LIMITS.columns + 1 },
      (_, i) => `<c t="inlineStr"><is><t>h${i}</t></is></c>`,
    ).join('');
    expect(refusal('wide.xlsx', workbook(`<row r="1">${cells}</row>`))).toContain(
      `more than ${LIMITS.columns} columns`,
    );
  });

  it('refuses a CSV whose header has 200,000 columns', () => {
    expect(refusal('wide.csv', strToU8(`${'h,'.repeat(200_000)}h\n`))).toContain(`at most ${LIMITS.columns}`);
  });

  it('refuses a CSV with more rows than the limit', () => {
    expect(refusal('long.csv', strToU8(`username\n${'ann\n'.repeat(LIMITS.rows + 1)}`))).toContain(
      'more than 200,000 rows',
    );
  });

  it('reads a sheet with exactly as many rows as the limit', () => {
    expect(
      readSpreadsheet('long.csv', strToU8(`username\n${'ann\n'.repeat(LIMITS.rows - 1)}`)).rows,
    ).toHaveLength(LIMITS.rows);
  });
});

describe('the columns limit counts up to the last filled cell, as Excel writes files', () => {
  const workbook = (sheetXml: string) =>
    zipSync({
      '[Content_Types].xml': strToU8('<Types/>'),
      'xl/workbook.xml': strToU8('<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>'),
      'xl/_rels/workbook.xml.rels': strToU8(
        '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
      'xl/worksheets/sheet1.xml': strToU8(`<worksheet><sheetData>${sheetXml}</sheetData></worksheet>`),
    });
  const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

  it('reads a 3-column CSV whose rows end in 600 empty fields', () => {
    const table = readSpreadsheet(
      'p.csv',
      strToU8(`username,first,last${','.repeat(600)}\r\nann,Ann,Lee${','.repeat(600)}\r\n`),
    );
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['username', 'first', 'last'],
      ['ann', 'Ann', 'Lee'],
    ]);
  });

  it('refuses a CSV with a filled cell past the limit, naming the row and its columns', () => {
    expect(refusal('p.csv', strToU8(`username\r\nann${','.repeat(LIMITS.columns)}x\r\n`))).toContain(
      `Row 2 has ${LIMITS.columns + 1} columns: Fieldbook imports at most ${LIMITS.columns}`,
    );
  });

  it('refuses a CSV row of more fields than Excel has columns, even empty ones, without building it', () => {
    expect(refusal('p.csv', strToU8(`username${','.repeat(200_000)}\r\n`))).toContain(
      `at most ${LIMITS.columns}`,
    );
  });

  it('reads a workbook with an empty formatted cell at column ZZ', () => {
    const table = readSpreadsheet(
      'p.xlsx',
      workbook(
        [
          `<row r="1">${inline('A1', 'username')}${inline('B1', 'first')}<c r="ZZ1" s="1"/></row>`,
          `<row r="2">${inline('A2', 'ann')}${inline('B2', 'Ann')}<c r="ZZ2" s="1"/></row>`,
        ].join(''),
      ),
    );
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['username', 'first'],
      ['ann', 'Ann'],
    ]);
  });

  it('refuses a workbook with a filled cell past the limit, naming its row', () => {
    expect(
      refusal(
        'p.xlsx',
        workbook(
          `<row r="1">${inline('A1', 'username')}</row><row r="2">${inline('A2', 'ann')}${inline('ZZ2', 'x')}</row>`,
        ),
      ),
    ).toContain(`Row 2 has more than ${LIMITS.columns} columns`);
  });

  it("refuses a workbook cell beyond Excel's last column (XFD), filled or not", () => {
    expect(
      refusal('p.xlsx', workbook(`<row r="1">${inline('A1', 'username')}<c r="XFE1" s="1"/></row>`)),
    ).toContain(`more than ${LIMITS.columns} columns`);
  });
});

/**
 * Characters searched (by indexOf and RegExp exec, in strings of 64 KB or more)
 * while `run` runs: the reader's work on a huge element, whichever way it
 * searches. A rescan per 16 KB chunk shows as work that grows with the square
 * of the element's size.
 */
function searched(run: () => void): number {
  let total = 0;
  const { indexOf } = String.prototype;
  const { exec } = RegExp.prototype;
  String.prototype.indexOf = function (this: string, search: string, from?: number) {
    const at = indexOf.call(this, search, from);
    if (this.length >= 65_536) total += (at < 0 ? this.length : at + search.length) - Math.max(0, from ?? 0);
    return at;
  };
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const match = exec.call(this, input);
    if (input.length >= 65_536) total += (match ? match.index + match[0].length : input.length) - from;
    return match;
  };
  try {
    run();
  } finally {
    String.prototype.indexOf = indexOf;
    RegExp.prototype.exec = exec;
  }
  return total;
}

describe('huge cells: linear time, and refused past a sane size', () => {
  const MB = 1024 * 1024;
  const stored = (sheetXml: string, sharedStrings?: string) =>
    zipSync({
      '[Content_Types].xml': strToU8('<Types/>'),
      'xl/workbook.xml': strToU8('<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>'),
      'xl/_rels/workbook.xml.rels': strToU8(
        '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
      // stored, not deflated: a cell of one repeated letter would be refused as a zip bomb before it is read
      'xl/worksheets/sheet1.xml': [
        strToU8(`<worksheet><sheetData>${sheetXml}</sheetData></worksheet>`),
        { level: 0 },
      ],
      ...(sharedStrings === undefined
        ? {}
        : { 'xl/sharedStrings.xml': [strToU8(`<sst>${sharedStrings}</sst>`), { level: 0 }] }),
    });
  const HEADER_ROW = '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>';

  it('reads a 900 KB shared string with work linear in its size', () => {
    const big = 'x'.repeat(900 * 1024);
    const file = stored(HEADER_ROW, `<si><t>username</t></si><si><t>${big}</t></si>`);
    let table: RawTable | undefined;
    const work = searched(() => (table = readSpreadsheet('p.xlsx', file)));
    expect(table?.rows[0]?.cells[1]).toHaveLength(big.length);
    expect(work).toBeLessThan(3 * big.length);
  });

  it('refuses a 16 MB shared string quickly, after reading about 1 MB of it', () => {
    const file = stored(HEADER_ROW, `<si><t>username</t></si><si><t>${'x'.repeat(16 * MB)}</t></si>`);
    let message = '';
    const work = searched(() => (message = refusal('p.xlsx', file)));
    expect(message).toContain('Text 2 of the workbook is larger than 1 MB');
    expect(work).toBeLessThan(3 * MB);
  });

  it('reads a 3 MB row (100 cells of 30,000 characters) with work linear in its size', () => {
    const cell = 'y'.repeat(30_000);
    const cells = Array.from({ length: 100 }, () => `<c t="inlineStr"><is><t>${cell}</t></is></c>`).join('');
    const file = stored(
      `<row r="1"><c t="inlineStr"><is><t>username</t></is></c></row><row r="2">${cells}</row>`,
    );
    let table: RawTable | undefined;
    const work = searched(() => (table = readSpreadsheet('p.xlsx', file)));
    expect(table?.rows[1]?.cells).toHaveLength(100);
    expect(work).toBeLessThan(3 * 100 * cell.length);
  });

  it('reads a row of unclosed tags (100,000 each of <c>, <v> and <is>) in linear time', () => {
    const n = 100_000;
    const [openCells, openValues, openTexts] = ['<c>', '<v>', '<is>'].map((tag) => tag.repeat(n));
    const file = stored(
      `<row r="1"><c t="inlineStr"><is><t>username</t></is></c></row><row r="2">${openCells}<c r="A2">${openValues}</c><c r="B2" t="inlineStr">${openTexts}</c></row>`,
    );
    let cells: string[][] = [];
    // the characters searched, not the time (timed tests fail on a busy machine): a scan to the row's end from each tag
    // took minutes
    const work = searched(() => (cells = readSpreadsheet('p.xlsx', file).rows.map((r) => r.cells)));
    expect(cells).toEqual([['username']]);
    expect(work).toBeLessThan(20 * file.length);
  });

  it('refuses a 16 MB row quickly, naming it, after reading a few MB of it', () => {
    const long = 'y'.repeat(16 * MB);
    const file = stored(
      `<row r="1"><c t="inlineStr"><is><t>username</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>${long}</t></is></c></row>`,
    );
    let message = '';
    const work = searched(() => (message = refusal('p.xlsx', file)));
    expect(message).toContain('Row 2 of the sheet is larger than 4 MB');
    expect(work).toBeLessThan(12 * MB);
  });
});

describe('the same date in cells of different formats', () => {
  const STYLES =
    '<styleSheet><numFmts><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="165" formatCode="hh:mm"/>' +
    '<numFmt numFmtId="166" formatCode="yyyy-mm-dd hh:mm"/></numFmts>' +
    '<cellXfs><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="166"/></cellXfs></styleSheet>';
  const workbook = (rowsXml: string) =>
    zipSync({
      '[Content_Types].xml': strToU8('<Types/>'),
      'xl/workbook.xml': strToU8('<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>'),
      'xl/_rels/workbook.xml.rels': strToU8(
        '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
      'xl/styles.xml': strToU8(STYLES),
      'xl/worksheets/sheet1.xml': strToU8(`<worksheet><sheetData>${rowsXml}</sheetData></worksheet>`),
    });
  const cell = (ref: string, style: number, serial: number) =>
    `<c r="${ref}" s="${style}"><v>${serial}</v></c>`;

  it('shows each cell through its own format, however often the date repeats', () => {
    // 45356.5: 5 March 2024 at noon
    const cells = [cell('A1', 1, 45356.5), cell('B1', 2, 45356.5), cell('C1', 3, 45356.5)].join('');
    const again = [cell('A2', 3, 45356.5), cell('B2', 1, 45356.5), cell('C2', 1, 45357)].join('');
    const table = readSpreadsheet(
      'dates.xlsx',
      workbook(`<row r="1">${cells}</row><row r="2">${again}</row>`),
    );
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['2024-03-05', '12:00:00', '2024-03-05 12:00:00'],
      ['2024-03-05 12:00:00', '2024-03-05', '2024-03-06'],
    ]);
  });
});
