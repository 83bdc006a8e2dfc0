/**
 * Queueing an import: the rows' drafts are made and stored a slice at a time
 * with yields between slices, as one batch; a second click meanwhile queues
 * nothing. The rows behind each op are kept for the results file.
 */
import { useRef } from 'react';
import { enqueueOps } from '../../../shared/replay-queue/queue.ts';
import { plural } from '../../app/words.ts';
import { outboxStore, queueAdded } from '../../outbox/runtime.ts';
import { useLastImport } from './ImportResults.tsx';
import { keepStoredBatch } from './batch-ops.ts';
import { draftsInSlices, type GiveNewPeople } from './rows.ts';
import { forEachSliced } from '../../../shared/sliced.ts';
import type { RowPlan } from './match.ts';
import type { Sheet } from './header.ts';
import type { OutboxOp } from '../../../shared/outbox.ts';
import type { ImportRun } from './results.ts';

export interface QueueInputs {
  fileName: string | null;
  sheet: Sheet;
  plans: RowPlan[];
  siteid: number;
  excluded: ReadonlySet<number>;
  ticked: ReadonlySet<number>;
  give: GiveNewPeople;
}

/**
 * What the results keep of a queued import: the op ids of each row, each row's plan, where the batch was queued. A
 * slice at a time: 100,000 ops and 50,000 plans gone through in one go were a long task of the window.
 */
async function runOf(
  inputs: QueueInputs,
  ops: readonly OutboxOp[],
  rows: readonly number[],
): Promise<ImportRun> {
  const opsByRow = new Map<number, string[]>();
  await forEachSliced(ops.length, (i) => {
    const row = rows[i]!;
    const list = opsByRow.get(row);
    if (list) list.push(ops[i]!.id);
    else opsByRow.set(row, [ops[i]!.id]);
  });
  const { fileName, sheet, plans } = inputs;
  const plansByRow = new Map<number, RowPlan>();
  await forEachSliced(plans.length, (i) => plansByRow.set(plans[i]!.rowNumber, plans[i]!));
  return {
    fileName: fileName ?? 'import',
    headers: sheet.headers,
    rows: sheet.rows,
    plans: plansByRow,
    opsByRow,
    seqs: { first: ops[0]!.seq, last: ops[ops.length - 1]!.seq },
  };
}

/**
 * What queueing said, rows counted as the preview and the results count them and changes as the Outbox does:
 * "Queued 2 rows from hr.csv as 4 changes." (a new person and their e-mail are two changes; "Queued 4 changes"
 * beside "2 pending" read as two counts of one thing). The changes are said only where they are not one a row.
 */
export function queuedWords(rows: number, changes: number, fileName: string | null): string {
  const from = `${plural(rows, 'row')} from ${fileName ?? 'the file'}`;
  const asChanges = changes === rows ? '' : ` as ${plural(changes, 'change')}`;
  return `Queued ${from}${asChanges}. See ${changes === 1 ? 'it' : 'them'} in the Outbox.`;
}

/**
 * The batch is stored: says so at once (the last import's results go), hands it to the outbox engine (from memory, a
 * slice at a time), then keeps what its results need. Its first count takes the batch as stored while the outbox has
 * not moved since the engine took it: the version is read before anything else runs (the engine records no outcome of
 * the batch before this), and after the engine's own change of it (taking the batch moves it).
 */
export async function handOver(
  inputs: QueueInputs,
  stored: { ops: readonly OutboxOp[]; rows: readonly number[] },
  onQueued: (message: string) => void,
): Promise<void> {
  const { ops, rows } = stored;
  useLastImport.setState({ run: null });
  onQueued(queuedWords(new Set(rows).size, ops.length, inputs.fileName));
  try {
    await queueAdded(ops);
  } finally {
    const version = outboxStore.getState().version;
    const run = await runOf(inputs, ops, rows);
    keepStoredBatch(run, ops, version);
    useLastImport.setState({ run });
  }
}

/** `queue` stores the batch, says so through `onQueued` and resolves when the engine has it. */
export function useImportQueue(onQueued: (message: string) => void): (inputs: QueueInputs) => Promise<void> {
  const queueing = useRef(false);
  return async (inputs) => {
    const odb = outboxStore.getState().db;
    if (!odb || queueing.current) return;
    queueing.current = true;
    try {
      const { drafts, rows } = await draftsInSlices(
        inputs.plans,
        inputs.siteid,
        inputs.excluded,
        inputs.ticked,
        inputs.give,
      );
      if (drafts.length === 0) return;
      // stored some hundred ops to a record (shared/replay-queue/packs.ts): the browser's cost is per record
      const label = `Import of ${inputs.fileName ?? 'a file'}`;
      const ops = await enqueueOps(odb, drafts, { label, packed: true });
      await handOver(inputs, { ops, rows }, onQueued);
    } finally {
      queueing.current = false;
    }
  };
}
