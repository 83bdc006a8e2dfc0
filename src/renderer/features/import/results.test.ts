/** The results file: the input's columns plus status, statuscode, message; and dropped in again. */
import { describe, expect, it } from 'vitest';
import type { OutboxOp } from '../../../shared/outbox.ts';
import type { UserRecord } from '../../../shared/records.ts';
import { sheetOf } from './header.ts';
import { guessMapping } from './mapping.ts';
import { planImport } from './match.ts';
import { readSpreadsheet } from './read/index.ts';
import { resultCounts, resultsTable, resultsTableInSlices, type ImportRun } from './results.ts';
import { rowsOf } from './rows.ts';
import { writeCsv, writeXlsx } from '../../../shared/spreadsheet-export.ts';

const op = (id: string, status: OutboxOp['status'], extra: Partial<OutboxOp> = {}) =>
  ({ id, status, lastError: null, response: null, ...extra }) as OutboxOp;

const run: ImportRun = {
  fileName: 'hr.xlsx',
  headers: ['Username', 'Forename', 'Surname'],
  rows: [
    { rowNumber: 2, cells: ['cy', 'Cy', 'Ode'] },
    { rowNumber: 3, cells: ['dy', '=1+2', 'Ode'] },
    { rowNumber: 4, cells: ['ey', 'Ey', 'Ode'] },
  ],
  plans: new Map([
    [3, { rowNumber: 3, action: 'invalid', errors: ['Forename "=1+2" looks like a spreadsheet formula.'] }],
  ]),
  opsByRow: new Map([
    [2, ['a', 'a2']],
    [4, ['b']],
  ]),
};
const ops = new Map([
  [
    'a',
    op('a', 'done', {
      response: { httpcode: 201, statuscode: 701, status: 'Created', developermessage: '', moreinfo: '' },
    }),
  ],
  ['a2', op('a2', 'done')],
  [
    'b',
    op('b', 'needs-review', {
      lastError: {
        code: 'rejected',
        message: 'Username already taken.',
        statuscode: 1001,
      } as OutboxOp['lastError'],
    }),
  ],
]);

describe('the results file', () => {
  it("has the input's own columns, then status, statuscode and message for every row", () => {
    expect(resultsTable(run, ops)).toEqual([
      ['Username', 'Forename', 'Surname', 'status', 'statuscode', 'message'],
      ['cy', 'Cy', 'Ode', 'done', '701', 'Created'],
      ['dy', '=1+2', 'Ode', 'invalid', '', 'Forename "=1+2" looks like a spreadsheet formula.'],
      ['ey', 'Ey', 'Ode', 'failed', '1001', 'Username already taken.'],
    ]);
  });

  it('made a slice of rows at a time (the window on 100,000 rows), is the same table', async () => {
    expect(await resultsTableInSlices(run, ops)).toEqual(resultsTable(run, ops));
  });

  it('summed up, counts each row once under its status, a row whose ops left the outbox as discarded', async () => {
    const withDiscarded: ImportRun = {
      ...run,
      rows: [...run.rows, { rowNumber: 5, cells: ['fy', 'Fy', 'Ode'] }],
      opsByRow: new Map([...run.opsByRow, [5, ['gone']]]),
    };
    expect(await resultCounts(withDiscarded, ops)).toEqual({ done: 1, invalid: 1, failed: 1, discarded: 1 });
  });

  it('is written as XLSX and CSV with formula-like cells neutralised, and reads back as the same rows', () => {
    const table = resultsTable(run, ops);
    const fromXlsx = readSpreadsheet('hr-results.xlsx', writeXlsx(table, 'Results')).rows.map((r) => r.cells);
    const fromCsv = readSpreadsheet('hr-results.csv', new TextEncoder().encode(writeCsv(table))).rows.map(
      (r) => r.cells,
    );
    expect(fromXlsx[2]?.[1]).toBe("'=1+2");
    expect(fromCsv).toEqual(fromXlsx);
    expect(fromXlsx[3]).toEqual(['ey', 'Ey', 'Ode', 'failed', '1001', 'Username already taken.']);
  });

  it('dropped in again: the result columns are ignored, and a neutralised formula is still refused', () => {
    const table = readSpreadsheet('hr-results.xlsx', writeXlsx(resultsTable(run, ops), 'Results'));
    const sheet = sheetOf(table.rows, 0);
    expect(sheet.headers).toEqual(['Username', 'Forename', 'Surname']);
    expect(sheet.warnings).toEqual([
      'The last three columns (status, statuscode, message) are the results of an earlier import: they are ignored.',
    ]);
    const plans = planImport(rowsOf(sheet, guessMapping(sheet.headers)), [] as UserRecord[], 101, new Map(), {
      key: 'username',
      mode: 'upsert',
    });
    expect(plans.map((p) => p.action)).toEqual(['create', 'invalid', 'create']);
  });
});
