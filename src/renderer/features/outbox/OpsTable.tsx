/** The changes of one batch, a page at a time; each can open its details, be retried or discarded. */
import { useState } from 'react';
import type { OutboxOp } from '../../../shared/outbox.ts';
import { discardOps, retryOps, type OutboxChange } from '../../../shared/replay-queue/queue.ts';
import { formatCount } from '../../app/format.ts';
import { plural } from '../../app/words.ts';
import { STATUS_LABELS } from './view-model.ts';
import { OpDetails } from './OpDetails.tsx';
import type { FieldbookDb } from '../../db/index.ts';

/**
 * Makes the handler of a button that changes the outbox (the change runs on the outbox's own database); what it wrote
 * goes to the engine (queue.ts's `OutboxChange`).
 */
/** An Outbox button's write: `sending` are the ops on their way, left to their outcome (`personsWrite`). */
export type Act = (
  run: (odb: FieldbookDb, sending: ReadonlySet<string>) => Promise<OutboxChange>,
) => () => Promise<void>;

/**
 * rows rendered at first, and added by each "Show more" (each row can open its details, so the table is not
 * virtualised)
 */
const PAGE = 500;

interface Props {
  ops: readonly OutboxOp[];
  label: string;
  describe: (op: OutboxOp) => string;
  act: Act;
  actor: string;
}

export function OpsTable({ ops, label, describe, act, actor }: Props) {
  const [openId, setOpenId] = useState<string | null>(null);
  const [limit, setLimit] = useState(PAGE);
  return (
    <>
      <table className="outbox-table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col" className="col-change">
              Change
            </th>
            <th scope="col" className="col-status">
              Status
            </th>
            <th scope="col">Last error</th>
            <th scope="col" className="col-actions">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {ops.slice(0, limit).map((op) => (
            <OpRow
              key={op.id}
              op={op}
              description={describe(op)}
              open={openId === op.id}
              onToggle={() => setOpenId(openId === op.id ? null : op.id)}
              act={act}
              actor={actor}
            />
          ))}
        </tbody>
      </table>
      {ops.length > limit && (
        <p>
          Showing {formatCount(limit)} of {formatCount(ops.length)}.{' '}
          <button type="button" onClick={() => setLimit(limit + PAGE)}>
            Show {formatCount(Math.min(PAGE, ops.length - limit))} more
          </button>
        </p>
      )}
    </>
  );
}

function OpRow(props: {
  op: OutboxOp;
  description: string;
  open: boolean;
  onToggle: () => void;
  actor: string;
  act: Act;
}) {
  const { op, description, open, onToggle, act, actor } = props;
  const parked = op.status === 'needs-review' || op.status === 'failed';
  const editable = op.status !== 'sending' && op.status !== 'done';
  return (
    <>
      <tr className={`op op-${op.status}`}>
        <td>{description}</td>
        <td>
          <span className={`badge outbox-${op.status}`}>{STATUS_LABELS[op.status]}</span>
          {op.attempts > 1 && <span className="muted"> {plural(op.attempts, 'attempt')}</span>}
        </td>
        <td>{op.lastError?.message ?? ''}</td>
        <td>
          <div className="cell-actions">
            {/* each row's buttons are named after its op: a screen reader's list of buttons tells them apart */}
            <button
              type="button"
              aria-expanded={open}
              onClick={onToggle}
              aria-label={`${open ? 'Close' : 'Inspect'}: ${description}`}
            >
              {open ? 'Close' : 'Inspect'}
            </button>
            {parked && (
              <button
                type="button"
                onClick={act((odb) => retryOps(odb, [op.id]))}
                aria-label={`Retry: ${description}`}
              >
                Retry
              </button>
            )}
            {op.status === 'conflict' && (
              <a href="#/conflicts" aria-label={`Resolve: ${description}`}>
                Resolve
              </a>
            )}
            {editable && (
              <button
                type="button"
                onClick={act((odb, sending) => discardOps(odb, [op.id], actor, { sending }))}
                aria-label={`${op.status === 'pending' ? 'Undo' : 'Discard'}: ${description}`}
              >
                {op.status === 'pending' ? 'Undo' : 'Discard'}
              </button>
            )}
          </div>
        </td>
      </tr>
      {open && (
        <tr className="op-details">
          <td colSpan={4}>
            <OpDetails op={op} editable={editable} description={description} />
          </td>
        </tr>
      )}
    </>
  );
}
