import { describe, expect, it } from 'vitest';
import readXlsxFile from 'read-excel-file/universal';
import type { CredentialRecord } from '../../../shared/records.ts';
import { credentialAssignment, user } from '../../testing/fixtures.ts';
import { buildReport } from './build.ts';
import { FINDING_TYPES } from './model.ts';
import { reportCsv, reportFileName, reportXlsx } from './export.ts';

const report = buildReport(
  {
    people: [user(1, { firstname: '=HYPERLINK("http://x")', lastname: 'Lee', employeeid: '000123' })],
    memberships: [],
    groups: [],
    categories: [],
    credentials: [{ credentialid: 3, credentialname: '@SUM(A1)' } as CredentialRecord],
    courses: [],
    assignments: [credentialAssignment(3, 1, '02/01/2026')],
    training: [],
    requirements: [],
  },
  {
    today: '2026-03-01',
    soonDays: 30,
    categoryid: null,
    statuses: ['Active'],
    findingTypes: [...FINDING_TYPES],
  },
);
const heading = {
  title: 'Compliance report – North',
  scope: 'North',
  filters: 'Active people',
  dataAsOf: '1 Mar 2026',
};

describe('the compliance report exported', () => {
  it('as CSV: one finding per row, every cell neutralised', () => {
    expect(reportCsv(report).split('\r\n')).toEqual([
      '"Group","Person","User ID","Employee ID","Also in","Finding","Credential or course","Date"',
      `"Everyone","Lee, =HYPERLINK(""http://x"")","1","000123","","Expired","'@SUM(A1)","2026-02-01"`,
    ]);
  });

  it('as XLSX: sheets Summary, Findings and By credential, dates as dates, counts as numbers, ids and formula-like text as text', async () => {
    const sheets = await readXlsxFile(await (await reportXlsx(report, heading)).arrayBuffer());
    expect(sheets.map((s) => s.sheet)).toEqual(['Summary', 'Findings', 'By credential']);
    expect(sheets[0]!.data.find((row) => row[0] === 'People in scope')).toEqual([
      'People in scope',
      1,
      0,
      0,
      null,
    ]);
    expect(sheets[1]!.data[1]).toEqual([
      'Everyone',
      'Lee, =HYPERLINK("http://x")',
      '1',
      '000123',
      null,
      'Expired',
      "'@SUM(A1)",
      new Date('2026-02-01T00:00:00Z'),
    ]);
    expect(sheets[2]!.data[1]).toEqual(["'@SUM(A1)", 1, 0, 0, 0, 0, 1, 0, 0]);
  });
});

describe("the report's By credential sheet", () => {
  it('names its third column "Not expired": a holder expiring soon is counted there too, so holders = not expired + expired', async () => {
    const held = buildReport(
      {
        people: [user(1), user(2), user(3)],
        memberships: [],
        groups: [],
        categories: [],
        courses: [],
        training: [],
        requirements: [],
        credentials: [{ credentialid: 3, credentialname: 'First Aid' } as CredentialRecord],
        // expired, expiring in 10 days, valid for a year
        assignments: [
          credentialAssignment(3, 1, '02/01/2026'),
          credentialAssignment(3, 2, '03/11/2026'),
          credentialAssignment(3, 3, '03/01/2027'),
        ],
      },
      {
        today: '2026-03-01',
        soonDays: 30,
        categoryid: null,
        statuses: ['Active'],
        findingTypes: [...FINDING_TYPES],
      },
    );
    const [header, row] = (await readXlsxFile(await (await reportXlsx(held, heading)).arrayBuffer()))[2]!
      .data;
    const column = (name: string) => row![header!.indexOf(name)];
    expect(header!.slice(0, 7)).toEqual([
      'Credential',
      'Holders',
      'Not expired',
      'Expiring within 30 days',
      'Expiring in 31-60 days',
      'Expiring in 61-90 days',
      'Expired',
    ]);
    expect([
      column('Holders'),
      column('Not expired'),
      column('Expiring within 30 days'),
      column('Expired'),
    ]).toEqual([3, 2, 1, 1]);
  });
});

describe("the report's file name", () => {
  it('is plain ASCII, so no system charset turns it into "download" without its extension', () => {
    expect(reportFileName('Compliance report – Zürich/Nord', '2026-03-01', 'xlsx')).toBe(
      'Compliance report - Zurich Nord 2026-03-01.xlsx',
    );
    expect(reportFileName('Compliance report – 東京', '2026-03-01', 'csv')).toBe(
      'Compliance report - _ 2026-03-01.csv',
    );
  });
});
