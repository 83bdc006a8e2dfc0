import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/universal';
import { exportBlob, exportFileName, sheetName, tableOf, type ExportColumn } from './export-list.ts';

interface Person {
  last: string;
  first: string;
  count: number | null;
}
const columns: ExportColumn<Person>[] = [
  { header: 'Last name', cell: (p) => p.last },
  { header: 'First name', cell: (p) => p.first },
  { header: 'Count', cell: (p) => p.count },
];
const people: Person[] = [
  { last: 'Núñez', first: 'María', count: 3 },
  { last: '=HYPERLINK("http://x")', first: '@evil', count: null },
];

describe('exporting a list', () => {
  it('has one row per record under the column headers, empty cells for missing values', () => {
    expect(tableOf(columns, people)).toEqual({
      headers: ['Last name', 'First name', 'Count'],
      rows: [
        ['Núñez', 'María', 3],
        ['=HYPERLINK("http://x")', '@evil', ''],
      ],
    });
  });

  it('writes a CSV that keeps accents and shows formulas as text', async () => {
    const blob = await exportBlob(tableOf(columns, people), 'users', 'csv');
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blob.arrayBuffer());
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = Papa.parse<string[]>(text.slice(1)).data;
    expect(rows).toEqual([
      ['Last name', 'First name', 'Count'],
      ['Núñez', 'María', '3'],
      [`'=HYPERLINK("http://x")`, "'@evil", ''],
    ]);
  });

  it('writes an XLSX sheet with the same cells, counts as numbers, formulas as text', async () => {
    const blob = await exportBlob(tableOf(columns, people), 'Holders of Rigging: expired', 'xlsx');
    const [sheet] = await readXlsxFile(await blob.arrayBuffer());
    expect(sheet?.sheet).toBe('Holders of Rigging  expired');
    expect(sheet?.data[1]).toEqual(['Núñez', 'María', 3]);
    expect(sheet?.data[2]?.[0]).toBe(`'=HYPERLINK("http://x")`);
  });

  it('names the file after the list and the day', () => {
    expect(
      exportFileName('Holders of Équipe B expiring within 30 days', 'xlsx', new Date('2026-11-25T10:00:00Z')),
    ).toBe('fieldbook-holders-of-equipe-b-expiring-within-30-days-2026-11-25.xlsx');
    expect(exportFileName('???', 'csv', new Date('2026-11-25T10:00:00Z'))).toBe(
      'fieldbook-list-2026-11-25.csv',
    );
  });

  it('keeps sheet names within what Excel accepts', () => {
    expect(sheetName('a'.repeat(40))).toHaveLength(31);
    expect(sheetName('[x]/y*')).toBe('x  y');
  });
});
