/** Workbooks whose parts are where their relationships say, and cells stored as ISO dates. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { readSpreadsheet } from './index.ts';
import { resolvePart } from './parts.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

/** people.xlsx (saved by LibreOffice) with every part of `xl/` moved to `dir/`, and the relationships saying so. */
function movedWorkbook(dir: string): Uint8Array {
  const files = unzipSync(new Uint8Array(readFileSync(path.join(FIXTURES, 'people.xlsx'))));
  const moved: Record<string, Uint8Array> = {};
  for (const [name, data] of Object.entries(files)) {
    const text = () => strFromU8(data);
    if (name === '_rels/.rels') moved[name] = strToU8(text().replace(/Target="\/?xl\//g, `Target="/${dir}/`));
    else if (name === '[Content_Types].xml')
      moved[name] = strToU8(text().replace(/PartName="\/xl\//g, `PartName="/${dir}/`));
    else moved[name.startsWith('xl/') ? `${dir}/${name.slice(3)}` : name] = data;
  }
  return zipSync(moved);
}

/** A workbook of one sheet whose rows are `rowsXml`, strings inline. */
function workbookWithSheet(rowsXml: string): Uint8Array {
  const ns =
    'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return zipSync({
    '_rels/.rels': strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `<workbook ${ns}><sheets><sheet name="People" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    'xl/worksheets/sheet1.xml': strToU8(`<worksheet ${ns}><sheetData>${rowsXml}</sheetData></worksheet>`),
  });
}

describe('the workbook found through its relationships', () => {
  it('reads a workbook whose parts are not under xl/, as Excel does', () => {
    const table = readSpreadsheet('moved.xlsx', movedWorkbook('wtf'));
    expect(table.rows.find((r) => r.rowNumber === 4)?.cells).toEqual([
      '00123',
      'José',
      'Müller',
      'jose.muller@example.com',
      'Active',
      '2024-03-05',
    ]);
  });

  it('still refuses a zip that holds no workbook', () => {
    expect(() => readSpreadsheet('x.xlsx', zipSync({ 'readme.txt': strToU8('hello') }))).toThrow();
  });

  it('resolves targets relative to their part, absolute ones from the root', () => {
    expect([
      resolvePart('xl', 'worksheets/sheet1.xml'),
      resolvePart('xl', '/wtf/s.xml'),
      resolvePart('a/b', '../c/./d.xml'),
    ]).toEqual(['xl/worksheets/sheet1.xml', 'wtf/s.xml', 'a/c/d.xml']);
  });
});

describe('cells stored as ISO dates (t="d")', () => {
  it('shows them as dates, with their time only when they have one', () => {
    const table = readSpreadsheet(
      'd.xlsx',
      workbookWithSheet(
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Start</t></is></c></row>' +
          '<row r="2"><c r="A2" t="d"><v>2024-03-05T00:00:00Z</v></c></row>' +
          '<row r="3"><c r="A3" t="d"><v>2024-03-05T14:30:00</v></c></row>' +
          '<row r="4"><c r="A4" t="d"><v>2024-03-05</v></c></row>',
      ),
    );
    expect(table.rows.map((r) => r.cells[0])).toEqual([
      'Start',
      '2024-03-05',
      '2024-03-05 14:30:00',
      '2024-03-05',
    ]);
  });
});

describe('whole numbers a workbook stores as numbers', () => {
  it('marks the cells of ids typed as numbers, which lost any leading zero, and not those of text', () => {
    const table = readSpreadsheet(
      'n.xlsx',
      workbookWithSheet(
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Employee ID</t></is></c></row>' +
          '<row r="2"><c r="A2"><v>7123</v></c></row>' +
          '<row r="3"><c r="A3" t="inlineStr"><is><t>007124</t></is></c></row>',
      ),
    );
    expect(table.rows.map((r) => r.numbers)).toEqual([undefined, [0], undefined]);
  });

  it("does not mark a number its format shows with its zeros (LibreOffice's 00000)", () => {
    const table = readSpreadsheet(
      'people.xlsx',
      new Uint8Array(readFileSync(path.join(FIXTURES, 'people.xlsx'))),
    );
    expect(table.rows.find((r) => r.rowNumber === 4)?.numbers ?? []).not.toContain(0);
  });
});
