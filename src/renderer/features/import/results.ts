/**
 * The results file of an import: the input's own columns (from its header
 * row) plus status, statuscode and message for every data row, once the
 * replay has run. It can be fixed and dropped in again: the reader ignores
 * these three columns when it finds them at the end of a header.
 */
import { forEachSliced, mapSliced } from '../../../shared/sliced.ts';
import type { OutboxOp } from '../../../shared/outbox.ts';
import type { BatchSeqs } from './batch-ops.ts';
import type { RawRow } from './read/table.ts';
import type { RowPlan } from './match.ts';

export const RESULT_COLUMNS = ['status', 'statuscode', 'message'] as const;

/** What the view keeps of a queued import to write its results file. */
export interface ImportRun {
  fileName: string;
  /** the header row's cells, without result columns of an earlier run */
  headers: string[];
  rows: RawRow[];
  plans: ReadonlyMap<number, RowPlan>;
  /** op ids queued for each row number */
  opsByRow: ReadonlyMap<number, string[]>;
  /** where the batch was queued: its ops are read back by position (batch-ops.ts) */
  seqs?: BatchSeqs;
}

/** Index of the first of three trailing result columns, or -1. */
export function resultColumnsAt(headers: readonly string[]): number {
  const n = headers.length;
  if (n < 3) return -1;
  const tail = headers.slice(n - 3).map((h) => h.trim().toLowerCase());
  return tail.every((h, i) => h === RESULT_COLUMNS[i]) ? n - 3 : -1;
}

function notQueued(plan: RowPlan | undefined): { status: string; message: string } {
  if (!plan) return { status: 'not queued', message: '' };
  switch (plan.action) {
    case 'unchanged':
      return { status: 'unchanged', message: 'Nothing to change.' };
    case 'skipped':
    case 'ambiguous':
      return { status: plan.action, message: plan.reason };
    case 'conflict':
      return { status: 'conflict', message: plan.reasons.join(' ') };
    case 'invalid':
      return { status: 'invalid', message: plan.errors.join(' ') };
    case 'identity':
      return { status: 'not queued', message: 'A username or employee ID change that was not ticked.' };
    case 'update':
      return {
        status: 'not queued',
        message: plan.undoes
          ? 'Excluded from the import: the change you had queued goes ahead.'
          : 'Excluded from the import.',
      };
    default:
      return { status: 'not queued', message: 'Excluded from the import.' };
  }
}

const ORDER: Record<string, number> = {
  done: 0,
  pending: 1,
  sending: 1,
  discarded: 2,
  conflict: 3,
  'needs-review': 3,
  failed: 4,
};

interface RowResult {
  status: string;
  statuscode: string;
  message: string;
}

/** One row's outcome from its ops (`ids`, looked up in `opsById`; a missing one was discarded): the worst of them. */
function outcome(ids: readonly string[], opsById: ReadonlyMap<string, OutboxOp>): RowResult {
  let worst = { status: 'done', statuscode: '', message: '' };
  for (const id of ids) {
    const op = opsById.get(id);
    const status = op ? (op.status === 'needs-review' ? 'failed' : op.status) : 'discarded';
    const statuscode = String(op?.lastError?.statuscode ?? op?.response?.statuscode ?? '');
    const message = op
      ? (op.lastError?.message ?? (op.status === 'done' ? (op.response?.status ?? '') : ''))
      : 'Discarded from the outbox before it was sent.';
    if ((ORDER[status] ?? 1) >= (ORDER[worst.status] ?? 0) && (status !== 'done' || worst.statuscode === ''))
      worst = { status, statuscode, message };
  }
  return worst;
}

/** How one data row fared: from its ops when it queued some, from its plan otherwise. */
function rowResult(
  run: ImportRun,
  row: ImportRun['rows'][number],
  opsById: ReadonlyMap<string, OutboxOp>,
): RowResult {
  const ids = run.opsByRow.get(row.rowNumber);
  return ids && ids.length > 0
    ? outcome(ids, opsById)
    : { ...notQueued(run.plans.get(row.rowNumber)), statuscode: '' };
}

/** One data row of the results table. */
function resultRow(
  run: ImportRun,
  row: ImportRun['rows'][number],
  opsById: ReadonlyMap<string, OutboxOp>,
): string[] {
  const cells = Array.from({ length: run.headers.length }, (_, i) => row.cells[i] ?? '');
  const result = rowResult(run, row, opsById);
  return [...cells, result.status, result.statuscode, result.message];
}

const headerRow = (run: ImportRun) => [...run.headers, ...RESULT_COLUMNS];

/** The results table: the input's columns, then status, statuscode, message. */
export function resultsTable(run: ImportRun, opsById: ReadonlyMap<string, OutboxOp>): string[][] {
  return [headerRow(run), ...run.rows.map((row) => resultRow(run, row, opsById))];
}

/** The same table made a slice of rows at a time (no long task of the window on 100,000 rows). */
export async function resultsTableInSlices(
  run: ImportRun,
  opsById: ReadonlyMap<string, OutboxOp>,
): Promise<string[][]> {
  return [headerRow(run), ...((await mapSliced(run.rows, (row) => resultRow(run, row, opsById))) ?? [])];
}

/**
 * How many rows have each status (the results' summary), a slice of rows at a time. Counted without the table: the
 * table's 50,000 rows of cells, made only to be counted and kept until the count ended, were the garbage of the one
 * long collection left while queueing 100,000 ops (docs/benchmarks.md).
 */
export async function resultCounts(
  run: ImportRun,
  opsById: ReadonlyMap<string, OutboxOp>,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  await forEachSliced(run.rows.length, (i) => {
    const { status } = rowResult(run, run.rows[i]!, opsById);
    counts[status] = (counts[status] ?? 0) + 1;
  });
  return counts;
}
