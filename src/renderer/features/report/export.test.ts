import { describe, expect, it } from 'vitest';
import readXlsxFile from 'read-excel-file/universal';
import type { CredentialRecord } from '../../../shared/records.ts';
import { credentialAssignment, user } from '../../testing/fixtures.ts';
import { buildReport } from './model.ts';
import { reportCsv, reportFileName, reportXlsx } from './export.ts';

const report = buildReport({
  today: '2026-03-01',
  people: [user(1, { firstname: '=HYPERLINK("http://x")', lastname: 'Lee' })],
  memberships: [],
  groups: [],
  credentials: [{ credentialid: 3, credentialname: '@SUM(A1)' } as CredentialRecord],
  assignments: [credentialAssignment(3, 1, '02/01/2026')],
  training: [],
});

describe('the compliance report exported', () => {
  it('as CSV: one finding per row, every cell neutralised', () => {
    expect(reportCsv(report).split('\r\n')).toEqual([
      '"Group","Person","User ID","Finding","Credential or course","Date"',
      `"(no group)","Lee, =HYPERLINK(""http://x"")","1","Expired","'@SUM(A1)","2026-02-01"`,
    ]);
  });

  it('as XLSX: findings and totals per group on two sheets, formula-like text kept as text', async () => {
    const sheets = await readXlsxFile(await (await reportXlsx(report)).arrayBuffer());
    expect(sheets.map((s) => s.sheet)).toEqual(['Findings', 'Totals per group']);
    expect(sheets[0]!.data[1]).toEqual(['(no group)', 'Lee, =HYPERLINK("http://x")', '1', 'Expired', "'@SUM(A1)", new Date('2026-02-01T00:00:00Z')]);
    expect(sheets[1]!.data[0]!.slice(0, 3)).toEqual(['Group', 'People', 'Expired']);
    expect(sheets[1]!.data.at(-1)!.slice(0, 3)).toEqual(['All', 1, 1]);
  });
});

describe("the report's file name", () => {
  it('is plain ASCII, so no system charset turns it into "download" without its extension', () => {
    expect(reportFileName('Compliance report – Zürich/Nord', '2026-03-01', 'xlsx')).toBe('Compliance report - Zurich Nord 2026-03-01.xlsx');
    expect(reportFileName('Compliance report – 東京', '2026-03-01', 'csv')).toBe('Compliance report - _ 2026-03-01.csv');
  });
});
