/**
 * The report as CSV and XLSX. Cells go through the project's one formula
 * neutraliser (imported here only, so it is repointed in one place).
 */
import writeXlsxFile from 'write-excel-file/universal';
import { neutralizeTable, toCsv, type Table } from '../outbox/export.ts';
import { ISSUES, type ComplianceReport } from './model.ts';

function findingsTable(report: ComplianceReport): Table {
  return {
    headers: ['Group', 'Person', 'User ID', 'Finding', 'Credential or course', 'Date'],
    rows: report.lines.map((l) => [l.group, l.person, l.userid, l.issue, l.item, l.date]),
  };
}

function totalsTable(report: ComplianceReport): Table {
  return {
    headers: ['Group', 'People', ...ISSUES],
    rows: [...report.totals, report.overall].map((t) => [t.group, t.people, ...ISSUES.map((issue) => t[issue])]),
  };
}

/** CSV: the findings, one per row (the totals are a second file away in XLSX, on screen and in the PDF). */
export function reportCsv(report: ComplianceReport): string {
  return toCsv(findingsTable(report));
}

/** XLSX: a sheet of findings and a sheet of totals per group. */
export async function reportXlsx(report: ComplianceReport): Promise<Blob> {
  const sheet = (table: Table) => neutralizeTable(table).map((row) => row.map((value) => ({ value, type: String })));
  return writeXlsxFile([
    { data: sheet(findingsTable(report)), sheet: 'Findings' },
    { data: sheet(totalsTable(report)), sheet: 'Totals per group' },
  ]).toBlob();
}
