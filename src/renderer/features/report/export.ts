/**
 * The report as CSV and XLSX. Cells go through the shared formula rule
 * (src/shared/formula.ts) in the shared writers.
 */
import { writeXlsxSheets } from '../../../shared/spreadsheet-export.ts';
import { toCsv, type Table } from '../outbox/export.ts';
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
  const rows = (table: Table) => [table.headers, ...table.rows];
  const bytes = writeXlsxSheets([
    { name: 'Findings', rows: rows(findingsTable(report)) },
    { name: 'Totals per group', rows: rows(totalsTable(report)) },
  ]);
  return new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}

/**
 * The report's file name: its title and date in plain ASCII ("Compliance report - Zurich
 * 2026-03-01.xlsx"). A name Chromium cannot write in the system's charset (an en dash or
 * an accent under a C locale) is replaced by "download", extension and all.
 */
export function reportFileName(title: string, today: string, extension: string): string {
  const plain = `${title} ${today}`
    .normalize('NFKD')
    .replace(/[\u2010-\u2015]/g, '-')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]+/g, '_')
    .replace(/[\\/:*?"<>|]+/g, ' ')
    .trim();
  return `${plain}.${extension}`;
}
