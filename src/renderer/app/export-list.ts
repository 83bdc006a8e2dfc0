/**
 * Export what a view shows (CSV or XLSX), through one helper: a table of text
 * cells, every cell neutralised against formula injection by the project's one
 * rule. That rule lives in features/outbox/export.ts today (toCsv/toXlsx apply
 * it); when it moves to src/shared, only the import below changes.
 */
import { toCsv, toXlsx, type Table } from '../features/outbox/export.ts';
import { download } from '../features/outbox/download.ts';
import type { PendingMark } from './overlays.ts';

export type { Table };
export type ExportFormat = 'csv' | 'xlsx';

/** One column of an export: its header and a row's cell (ISO dates, plain text: a file for other programs). */
export interface ExportColumn<T> {
  header: string;
  cell: (row: T) => string | number | null | undefined;
}

export function tableOf<T>(columns: readonly ExportColumn<T>[], rows: readonly T[]): Table {
  return {
    headers: columns.map((c) => c.header),
    rows: rows.map((row) => columns.map((c) => c.cell(row) ?? '')),
  };
}

/** "fieldbook-expiring-credentials-2026-11-25.csv" */
export function exportFileName(what: string, format: ExportFormat, now: Date = new Date()): string {
  const slug =
    what
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'list';
  return `fieldbook-${slug}-${now.toISOString().slice(0, 10)}.${format}`;
}

/** A sheet name Excel accepts: at most 31 characters, none of : \ / ? * [ ]. */
export function sheetName(what: string): string {
  return (
    what
      .replace(/[:\\/?*[\]]/g, ' ')
      .trim()
      .slice(0, 31) || 'Sheet1'
  );
}

export async function exportBlob(table: Table, what: string, format: ExportFormat): Promise<Blob> {
  // a BOM so spreadsheet programs read the CSV's accents as UTF-8
  return format === 'csv'
    ? new Blob(['\uFEFF', toCsv(table)], { type: 'text/csv;charset=utf-8' })
    : toXlsx(table, sheetName(what));
}

/** Builds the file and hands it to the browser's download. */
export async function exportTable(table: Table, what: string, format: ExportFormat): Promise<void> {
  download(await exportBlob(table, what, format), exportFileName(what, format));
}

/**
 * The "Pending change" cell of a row: what queued, unsent operations do to it ("update queued, not yet sent"), else ''.
 */
export function pendingCell(row: PendingMark): string {
  if ((row.pendingOps?.length ?? 0) === 0) return '';
  return `${row.pendingChange ?? 'change'} queued, not yet sent`;
}
