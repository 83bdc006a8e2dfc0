/**
 * The report as CSV (its findings, one per row) and XLSX (sheets Summary,
 * Findings, By credential). Cells go through the shared formula rule
 * (src/shared/formula.ts) in the shared writers; XLSX cells are typed.
 */
import { writeXlsxSheets } from '../../../shared/spreadsheet-export.ts';
import { toCsv, type Table } from '../outbox/export.ts';
import type { ComplianceReport } from './build.ts';

/** What the report is about, for its Summary sheet. */
export interface ReportHeading {
  title: string;
  scope: string;
  filters: string;
  dataAsOf: string;
}

const percent = (n: number, of: number) => (of === 0 ? 0 : Math.round((n / of) * 100));

function findingsTable(report: ComplianceReport): Table {
  return {
    headers: [
      'Group',
      'Person',
      'User ID',
      'Employee ID',
      'Also in',
      'Finding',
      'Credential or course',
      'Date',
    ],
    rows: report.sections.flatMap((s) =>
      s.rows.flatMap((r) =>
        r.findings.map((f) => [
          s.group,
          r.person,
          String(r.userid),
          r.employeeid,
          r.alsoIn.join(', '),
          f.type,
          f.item,
          f.date,
        ]),
      ),
    ),
  };
}

function summaryTable(report: ComplianceReport, heading: ReportHeading): Table {
  return {
    headers: ['What', 'People', 'Compliant', 'Compliant %', 'Findings'],
    rows: [
      [heading.title, '', '', '', ''],
      [`Scope: ${heading.scope}`, '', '', '', ''],
      [heading.filters, '', '', '', ''],
      [`Data as of ${heading.dataAsOf}`, '', '', '', ''],
      ['People in scope', report.people, report.compliant, percent(report.compliant, report.people), ''],
      ...report.sections.map((s) => [
        `Group: ${s.group}`,
        s.rows.length,
        s.compliant,
        percent(s.compliant, s.rows.length),
        '',
      ]),
      ...report.findingsByType.map((f) => [`Finding: ${f.type}`, f.people, '', '', f.findings]),
      ...report.mostAffected.map((m) => [`Most affected: ${m.item}`, m.people, '', '', '']),
    ],
  };
}

function byCredentialTable(report: ComplianceReport): Table {
  return {
    headers: [
      'Credential',
      'Holders',
      'Not expired',
      'Expiring within 30 days',
      'Expiring in 31-60 days',
      'Expiring in 61-90 days',
      'Expired',
      'Required of',
      'Missing',
    ],
    rows: report.byCredential.map((c) => [
      c.credential,
      c.holders,
      c.valid,
      c.within30,
      c.within60,
      c.within90,
      c.expired,
      c.required,
      c.missing,
    ]),
  };
}

/** CSV: the findings, one per row (the summary is in the XLSX and the PDF). */
export function reportCsv(report: ComplianceReport): string {
  return toCsv(findingsTable(report));
}

/** XLSX: a sheet per part of the report. */
export async function reportXlsx(report: ComplianceReport, heading: ReportHeading): Promise<Blob> {
  const rows = (table: Table) => [table.headers, ...table.rows];
  const bytes = writeXlsxSheets([
    {
      name: 'Summary',
      rows: rows(summaryTable(report, heading)),
      types: ['text', 'number', 'number', 'number', 'number'],
    },
    {
      name: 'Findings',
      rows: rows(findingsTable(report)),
      types: ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'date'],
    },
    { name: 'By credential', rows: rows(byCredentialTable(report)) },
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
