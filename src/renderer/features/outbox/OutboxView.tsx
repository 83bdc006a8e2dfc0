/**
 * The Outbox: every queued operation with its status; filter by status and
 * batch; inspect, edit, retry or discard one; retry or discard a batch; send
 * now; export the outbox and the audit log (CSV/XLSX, neutralised).
 */
import { useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { OutboxOp, OutboxStatus } from '../../../shared/outbox.ts';
import { useActiveDb, useSession } from '../../app/session.ts';
import { formatCount, formatDateTime } from '../../app/format.ts';
import { ErrorMessage, errorFromUnknown } from '../../components/ErrorMessage.tsx';
import { clearDone, discardOps, retryOps } from '../../../shared/replay-queue/queue.ts';
import { outboxStore, queueChanged, useOutbox } from '../../outbox/runtime.ts';
import { auditTable, outboxTable, toCsv, toXlsx, type Table } from './export.ts';
import { download } from './download.ts';
import { batchesOf, filterOps, STATUS_LABELS, statusCounts, type OutboxFilter } from './view-model.ts';
import { OpDetails } from './OpDetails.tsx';
import { describeBatch, describeOp, NO_NAMES } from './describe.ts';
import { loadOpNames } from './names.ts';
import { hrefFor } from '../../app/router.ts';
import { OfflineOutboxNotice } from '../offline/WorkOffline.tsx';

/** rows rendered at first, and added by each "Show more" (each row can open its details, so the table is not virtualised) */
const PAGE = 500;

const NONE: OutboxOp[] = [];

/** What the replay engine is doing, in words. */
function engineText(engineState: ReturnType<typeof outboxStore.getState>['engineState']): string {
  return (
    engineState.paused
    ? `Paused: ${engineState.paused.message}`
    : engineState.online
      ? engineState.inFlight > 0
        ? `Sending (${engineState.inFlight} in flight)`
        : 'Online: queued changes are sent as they come.'
      : 'Offline: changes wait here and are sent when the site is reachable.'
  );
}

/** The outbox and the audit log as CSV or XLSX (neutralised). */
function OutboxExports({ db, ops }: { db: ReturnType<typeof useActiveDb>; ops: readonly OutboxOp[] }) {
  const exportAs = async (what: 'outbox' | 'audit', format: 'csv' | 'xlsx') => {
    if (!db) return;
    const table: Table = what === 'outbox' ? outboxTable(ops) : auditTable(await db.audit.toArray());
    const stamp = new Date().toISOString().slice(0, 10);
    const blob = format === 'csv' ? new Blob([toCsv(table)], { type: 'text/csv;charset=utf-8' }) : await toXlsx(table, what === 'outbox' ? 'Outbox' : 'Audit log');
    download(blob, `fieldbook-${what}-${stamp}.${format}`);
  };
  return (
    <>
      <button type="button" onClick={() => void exportAs('outbox', 'csv')}>Export outbox (CSV)</button>
      <button type="button" onClick={() => void exportAs('outbox', 'xlsx')}>Export outbox (XLSX)</button>
      <button type="button" onClick={() => void exportAs('audit', 'csv')}>Export audit log (CSV)</button>
      <button type="button" onClick={() => void exportAs('audit', 'xlsx')}>Export audit log (XLSX)</button>
    </>
  );
}

/** Run an outbox change (retry, discard, clear) and wake the engine; a failure is shown. */
function outboxAction(db: ReturnType<typeof useActiveDb>, setError: (error: { code: 'internal'; message: string }) => void): Act {
  return (run) => async () => {
    const odb = outboxStore.getState().db ?? db;
    if (!odb) return;
    try {
      await run(odb);
      await queueChanged();
    } catch (e) {
      setError(errorFromUnknown(e));
    }
  };
}

export default function OutboxView() {
  const db = useActiveDb();
  const ops = useLiveQuery(async () => (db ? db.outbox.toArray() : []), [db]) ?? NONE;
  const engineState = useOutbox((s) => s.engineState);
  // working offline: the notice below says why nothing goes, and how to send
  const workOffline = useSession((s) => s.activeProfile?.workOffline === true);
  const actor = useOutbox((s) => s.actor);
  const [filter, setFilterState] = useState<OutboxFilter>({ status: 'all', batchId: 'all' });
  const [limit, setLimit] = useState(PAGE);
  const setFilter = (next: OutboxFilter) => {
    setFilterState(next);
    setLimit(PAGE);
  };
  const [error, setError] = useState<{ code: 'internal'; message: string } | null>(null);
  const shown = useMemo(() => filterOps(ops, filter), [ops, filter]);
  const batches = useMemo(() => batchesOf(ops), [ops]);
  const counts = useMemo(() => statusCounts(ops), [ops]);
  const names = useLiveQuery(async () => (db ? loadOpNames(db, ops) : NO_NAMES), [db, ops]) ?? NO_NAMES;
  const byId = useMemo(() => new Map(ops.map((op) => [op.id, op])), [ops]);
  const batchOps = useMemo(() => {
    const out = new Map<string, OutboxOp[]>();
    for (const op of ops) out.set(op.batchId, [...(out.get(op.batchId) ?? []), op]);
    return out;
  }, [ops]);

  const act = outboxAction(db, setError);
  const batchIds = filter.batchId === 'all' ? null : ops.filter((op) => op.batchId === filter.batchId).map((op) => op.id);

  return (
    <section className="view outbox-view" aria-labelledby="outbox-heading">
      <h1 id="outbox-heading">Outbox</h1>
      <p role="status" aria-live="polite">
        {workOffline ? '' : `${engineText(engineState)} `}
        {formatCount(counts.pending + counts.sending)} to send, {formatCount(counts.conflict)} in conflict, {formatCount(counts['needs-review'] + counts.failed)} to review.
      </p>
      <OfflineOutboxNotice />
      <ErrorMessage error={error} onDismiss={() => setError(null)} />
      <div className="toolbar">
        <button type="button" onClick={() => void outboxStore.getState().engine?.sendNow()}>
          Send now
        </button>
        <label>
          Status{' '}
          <select value={filter.status} onChange={(e) => setFilter({ ...filter, status: e.target.value as OutboxStatus | 'all' })}>
            <option value="all">All ({ops.length})</option>
            {(Object.keys(STATUS_LABELS) as OutboxStatus[]).map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]} ({counts[s]})
              </option>
            ))}
          </select>
        </label>
        <label>
          Batch{' '}
          <select value={filter.batchId} onChange={(e) => setFilter({ ...filter, batchId: e.target.value })}>
            <option value="all">All batches</option>
            {batches.map((b) => (
              <option key={b.batchId} value={b.batchId}>
                {formatDateTime(b.createdAt)} — {describeBatch(batchOps.get(b.batchId) ?? [], names, byId)} ({b.total})
              </option>
            ))}
          </select>
        </label>
        {batchIds && (
          <>
            <button type="button" onClick={act((odb) => retryOps(odb, batchIds))}>Retry batch</button>
            <button type="button" onClick={act((odb) => discardOps(odb, batchIds, actor))}>Discard batch</button>
            {ops.some((op) => op.batchId === filter.batchId && op.status === 'done') && <a href={hrefFor('undo', filter.batchId)}>Undo this batch…</a>}
          </>
        )}
        <button type="button" onClick={act((odb) => clearDone(odb))} disabled={counts.done === 0}>
          Clear done ({counts.done})
        </button>
        <OutboxExports db={db} ops={ops} />
      </div>
      <OpsTable shown={shown} limit={limit} onMore={() => setLimit(limit + PAGE)} describe={(op) => describeOp(op, names, byId)} act={act} actor={actor} />
    </section>
  );
}

type Act = (run: (odb: NonNullable<ReturnType<typeof useActiveDb>>) => Promise<unknown>) => () => Promise<void>;

/** The queued operations, a page at a time, each one can open its details. */
function OpsTable({ shown, limit, onMore, describe, act, actor }: { shown: readonly OutboxOp[]; limit: number; onMore: () => void; describe: (op: OutboxOp) => string; act: Act; actor: string }) {
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <>
  <table className="outbox-table" aria-label="Queued operations">
    <thead>
      <tr>
        <th scope="col">Queued</th>
        <th scope="col">Change</th>
        <th scope="col">Status</th>
        <th scope="col">Attempts</th>
        <th scope="col">Last error</th>
        <th scope="col">Actions</th>
      </tr>
    </thead>
    <tbody>
      {shown.slice(0, limit).map((op) => (
        <OpRow key={op.id} op={op} description={describe(op)} open={openId === op.id} onToggle={() => setOpenId(openId === op.id ? null : op.id)} act={act} actor={actor} />
      ))}
    </tbody>
  </table>
  {shown.length > limit && (
    <p>
      Showing {formatCount(limit)} of {formatCount(shown.length)}.{' '}
      <button type="button" onClick={onMore}>
        Show {formatCount(Math.min(PAGE, shown.length - limit))} more
      </button>
    </p>
  )}
  {shown.length === 0 && <p>Nothing here.</p>}
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
  const parked = op.status === 'needs-review' || op.status === 'failed' || op.status === 'conflict';
  const editable = op.status !== 'sending' && op.status !== 'done';
  return (
    <>
      <tr className={`op op-${op.status}`}>
        <td>{formatDateTime(op.createdAt)}</td>
        <td>{description}</td>
        <td>
          <span className={`badge outbox-${op.status}`}>{STATUS_LABELS[op.status]}</span>
        </td>
        <td>{op.attempts}</td>
        <td>{op.lastError?.message ?? ''}</td>
        <td>
          {/* each row's buttons are named after its op: a screen reader's list of buttons tells them apart */}
          <button type="button" aria-expanded={open} onClick={onToggle} aria-label={`${open ? 'Close' : 'Inspect'}: ${description}`}>
            {open ? 'Close' : 'Inspect'}
          </button>
          {parked && op.status !== 'conflict' && <button type="button" onClick={act((odb) => retryOps(odb, [op.id]))} aria-label={`Retry: ${description}`}>Retry</button>}
          {op.status === 'conflict' && <a href="#/conflicts" aria-label={`Resolve: ${description}`}>Resolve</a>}
          {editable && (
            <button type="button" onClick={act((odb) => discardOps(odb, [op.id], actor))} aria-label={`${op.status === 'pending' ? 'Undo' : 'Discard'}: ${description}`}>
              {op.status === 'pending' ? 'Undo' : 'Discard'}
            </button>
          )}
        </td>
      </tr>
      {open && (
        <tr className="op-details">
          <td colSpan={6}>
            <OpDetails op={op} editable={editable} description={description} />
          </td>
        </tr>
      )}
    </>
  );
}
