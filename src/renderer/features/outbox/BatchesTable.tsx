/**
 * The Outbox's batches: one row per batch (when, what, its counts and state,
 * the actions that do something on it), its changes listed on demand under it.
 */
import { useMemo, useState } from 'react';
import type { OutboxOp, OutboxStatus } from '../../../shared/outbox.ts';
import { discardOps, retryOps } from '../../../shared/replay-queue/queue.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { formatDateTime } from '../../app/format.ts';
import { hrefFor } from '../../app/router.ts';
import { plural } from '../../app/words.ts';
import {
  batchActions,
  batchesOf,
  batchState,
  DISCARDABLE,
  discardableCount,
  type BatchSummary,
} from './view-model.ts';
import { describeBatch, describeOp, type OpNames } from './describe.ts';
import { OpsTable, type Act } from './OpsTable.tsx';
import { outboxOps } from '../../../shared/replay-queue/packs.ts';

interface Props {
  ops: readonly OutboxOp[];
  /** only batches with changes of this status, and only those changes */
  status: OutboxStatus | 'all';
  names: OpNames;
  act: Act;
  actor: string;
}

export function BatchesTable({ ops, status, names, act, actor }: Props) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const byId = useMemo(() => new Map(ops.map((op) => [op.id, op])), [ops]);
  const byBatch = useMemo(() => {
    const out = new Map<string, OutboxOp[]>();
    for (const op of [...ops].sort((a, b) => a.seq - b.seq)) {
      const list = out.get(op.batchId);
      if (list) list.push(op);
      else out.set(op.batchId, [op]);
    }
    return out;
  }, [ops]);
  const batches = useMemo(
    () => batchesOf(ops).filter((b) => status === 'all' || (b.counts[status] ?? 0) > 0),
    [ops, status],
  );
  const toggle = (batchId: string) => {
    const next = new Set(open);
    if (!next.delete(batchId)) next.add(batchId);
    setOpen(next);
  };
  if (batches.length === 0) return <p>Nothing here.</p>;
  return (
    <table className="outbox-batches" aria-label="Batches">
      <thead>
        <tr>
          <th scope="col" className="col-when">
            Queued
          </th>
          <th scope="col">Batch</th>
          <th scope="col" className="col-state">
            State
          </th>
          <th scope="col" className="col-actions">
            Actions
          </th>
        </tr>
      </thead>
      <tbody>
        {batches.map((batch) => {
          const batchOps = byBatch.get(batch.batchId) ?? [];
          const words = batch.label ?? describeBatch(batchOps, names, byId);
          const shown = status === 'all' ? batchOps : batchOps.filter((op) => op.status === status);
          return (
            <BatchRow
              key={batch.batchId}
              batch={batch}
              words={words}
              shown={shown.length}
              open={open.has(batch.batchId)}
              onToggle={() => toggle(batch.batchId)}
              act={act}
              actor={actor}
            >
              <OpsTable
                ops={shown}
                label={`Changes of ${words}`}
                describe={(op) => describeOp(op, names, byId)}
                act={act}
                actor={actor}
              />
            </BatchRow>
          );
        })}
      </tbody>
    </table>
  );
}

interface RowProps {
  batch: BatchSummary;
  words: string;
  /** how many of its changes the filter shows */
  shown: number;
  open: boolean;
  onToggle: () => void;
  act: Act;
  actor: string;
  children: React.ReactNode;
}

function BatchRow({ batch, words, shown, open, onToggle, act, actor, children }: RowProps) {
  const can = batchActions(batch);
  const ids = (statuses: readonly OutboxStatus[]) => async (odb: FieldbookDb) =>
    (await outboxOps(odb, (op) => statuses.includes(op.status) && op.batchId === batch.batchId)).map(
      (op) => op.id,
    );
  const detailsId = `batch-${batch.batchId}`;
  return (
    <>
      <tr className="batch">
        <td>{formatDateTime(batch.createdAt)}</td>
        <td>{words}</td>
        <td>{batchState(batch)}</td>
        <td>
          <div className="cell-actions">
            {/* each batch's buttons are named after it: a screen reader's list of buttons tells them apart */}
            <button
              type="button"
              aria-expanded={open}
              aria-controls={open ? detailsId : undefined}
              onClick={onToggle}
              aria-label={`${open ? 'Hide changes' : `Show ${plural(shown, 'change')}`} of ${words}`}
            >
              {open ? 'Hide changes' : `Show ${plural(shown, 'change')}`}
            </button>
            {can.retry && (
              <button
                type="button"
                onClick={act(async (odb) => retryOps(odb, await ids(['needs-review', 'failed'])(odb)))}
                aria-label={`Retry batch: ${words}`}
              >
                Retry batch
              </button>
            )}
            {can.discard && (
              <DiscardBatch
                batch={batch}
                words={words}
                discard={act(async (odb, sending) =>
                  discardOps(odb, await ids(DISCARDABLE)(odb), actor, { sending }),
                )}
              />
            )}
            {can.undo && (
              <a href={hrefFor('undo', batch.batchId)} aria-label={`Undo this batch…: ${words}`}>
                Undo this batch…
              </a>
            )}
          </div>
        </td>
      </tr>
      {open && (
        <tr className="batch-changes" id={detailsId}>
          <td colSpan={4}>{children}</td>
        </tr>
      )}
    </>
  );
}

interface DiscardProps {
  batch: BatchSummary;
  words: string;
  discard: () => Promise<void>;
}

/**
 * "Discard batch" asks first, with the count it drops: a batch prepared on a site
 * visit is hours of work, and a discarded change cannot be brought back.
 */
function DiscardBatch({ batch, words, discard }: DiscardProps) {
  const [asking, setAsking] = useState(false);
  const count = plural(discardableCount(batch), 'change');
  if (!asking) {
    return (
      <button type="button" onClick={() => setAsking(true)} aria-label={`Discard batch: ${words}`}>
        Discard batch
      </button>
    );
  }
  return (
    <div role="group" aria-label={`Discard ${count} of ${words}?`} className="confirmation">
      <p>Discard {count}? They will not be sent, and this cannot be undone.</p>
      <button type="button" onClick={discard} className="danger">
        Discard {count}
      </button>
      <button type="button" onClick={() => setAsking(false)} autoFocus>
        Keep them
      </button>
    </div>
  );
}
