/**
 * Exports of the outbox and the audit log (CSV and XLSX). Every cell is
 * neutralised against formula injection by the shared rule
 * (src/shared/formula.ts): a formula-like cell gets a leading single quote, so
 * a spreadsheet shows it as text instead of running it.
 */
import Papa from 'papaparse';
import type { AuditEntry, OutboxOp } from '../../../shared/outbox.ts';
import { neutralizeExportCell } from '../../../shared/formula.ts';
import { writeXlsx } from '../../../shared/spreadsheet-export.ts';

export type Table = { headers: string[]; rows: unknown[][] };

export function neutralizeTable(table: Table): string[][] {
  return [table.headers.map(neutralizeExportCell), ...table.rows.map((row) => row.map(neutralizeExportCell))];
}

export function toCsv(table: Table): string {
  // quotes: true so a neutralised value keeps its quote-prefix intact in every reader
  return Papa.unparse(neutralizeTable(table), { quotes: true, newline: '\r\n' });
}

/** Written synchronously (no blob: worker, which the CSP refuses), every cell a neutralised text cell. */
export async function toXlsx(table: Table, sheet: string): Promise<Blob> {
  return new Blob([writeXlsx([table.headers, ...table.rows], sheet)], {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
}

export function outboxTable(ops: readonly OutboxOp[]): Table {
  return {
    headers: [
      'id',
      'batch',
      'queued at',
      'kind',
      'target',
      'summary',
      'status',
      'attempts',
      'last error',
      'payload',
      'base',
      'server response',
    ],
    rows: ops.map((op) => [
      op.id,
      op.batchId,
      op.createdAt,
      op.op.kind,
      op.targetKey,
      op.summary,
      op.status,
      op.attempts,
      op.lastError?.message ?? '',
      op.op,
      op.base,
      op.response,
    ]),
  };
}

export function auditTable(entries: readonly AuditEntry[]): Table {
  return {
    headers: [
      'at',
      'who',
      'operation',
      'batch',
      'kind',
      'target',
      'outcome',
      'before',
      'after',
      'status body',
      'message',
    ],
    rows: entries.map((e) => [
      e.at,
      e.actor,
      e.opId,
      e.batchId,
      e.kind,
      e.targetKey,
      e.outcome,
      e.before,
      e.after,
      e.response,
      e.message,
    ]),
  };
}
