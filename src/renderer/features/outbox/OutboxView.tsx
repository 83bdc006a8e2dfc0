/**
 * The Outbox: a day's work as batches, one row each with its counts and state
 * ("Import of staff.xlsx — 48 changes: 45 sent, 2 waiting, 1 conflict"), its
 * changes shown on demand; retry, discard or undo a batch where that does
 * something; inspect, edit, retry or discard one change; send now; export the
 * outbox and the audit log (CSV/XLSX, neutralised).
 */
import { useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { OutboxOp, OutboxStatus } from '../../../shared/outbox.ts';
import { useActiveDb, useSession } from '../../app/session.ts';
import { formatCount } from '../../app/format.ts';
import { ErrorMessage, errorFromUnknown } from '../../components/ErrorMessage.tsx';
import { clearDone, type OutboxChange } from '../../../shared/replay-queue/queue.ts';
import { outboxStore, personsWrite, sendingNow, useOutbox } from '../../outbox/runtime.ts';
import { auditTable, outboxTable, toCsv, toXlsx, type Table } from './export.ts';
import { download } from './download.ts';
import { STATUS_LABELS, statusCounts, waitingSummary, withOnItsWay } from './view-model.ts';
import { NO_NAMES } from './describe.ts';
import { loadOpNames } from './names.ts';
import { BatchesTable } from './BatchesTable.tsx';
import type { Act } from './OpsTable.tsx';
import type { FieldbookDb } from '../../db/index.ts';
import { OfflineOutboxNotice } from '../offline/WorkOffline.tsx';
import { outboxOps } from '../../../shared/replay-queue/packs.ts';

const NONE: OutboxOp[] = [];

/** What the replay engine is doing, in words. */
function engineText(engineState: ReturnType<typeof outboxStore.getState>['engineState']): string {
  return engineState.paused
    ? `Paused: ${engineState.paused.message}`
    : engineState.online
      ? engineState.inFlight > 0
        ? `Sending now: ${formatCount(engineState.inFlight)} on the way.`
        : 'Online: queued changes are sent as they come.'
      : 'Offline: changes wait here and are sent when the site is reachable.';
}

/** The outbox and the audit log as CSV or XLSX (neutralised). */
function OutboxExports({ db, ops }: { db: ReturnType<typeof useActiveDb>; ops: readonly OutboxOp[] }) {
  const exportAs = async (what: 'outbox' | 'audit', format: 'csv' | 'xlsx') => {
    if (!db) return;
    const table: Table = what === 'outbox' ? outboxTable(ops) : auditTable(await db.audit.toArray());
    const stamp = new Date().toISOString().slice(0, 10);
    const blob =
      format === 'csv'
        ? new Blob([toCsv(table)], { type: 'text/csv;charset=utf-8' })
        : await toXlsx(table, what === 'outbox' ? 'Outbox' : 'Audit log');
    download(blob, `fieldbook-${what}-${stamp}.${format}`);
  };
  return (
    <>
      <button type="button" onClick={() => void exportAs('outbox', 'csv')}>
        Export outbox (CSV)
      </button>
      <button type="button" onClick={() => void exportAs('outbox', 'xlsx')}>
        Export outbox (XLSX)
      </button>
      <button type="button" onClick={() => void exportAs('audit', 'csv')}>
        Export audit log (CSV)
      </button>
      <button type="button" onClick={() => void exportAs('audit', 'xlsx')}>
        Export audit log (XLSX)
      </button>
    </>
  );
}

/** Clearing what is done changes nothing the engine holds (it keeps no done op): the views still read again. */
async function clearDoneOps(odb: FieldbookDb): Promise<OutboxChange> {
  await clearDone(odb);
  return { written: [], removed: [] };
}

/** Run an outbox change (retry, discard, clear) and hand the engine what it wrote; a failure is shown. */
function outboxAction(
  db: ReturnType<typeof useActiveDb>,
  setError: (error: { code: 'internal'; message: string }) => void,
): Act {
  return (run) => async () => {
    const odb = outboxStore.getState().db ?? db;
    if (!odb) return;
    try {
      await personsWrite((sending) => run(odb, sending));
    } catch (e) {
      setError(errorFromUnknown(e));
    }
  };
}

export default function OutboxView() {
  const db = useActiveDb();
  const stored = useLiveQuery(async () => (db ? outboxOps(db) : []), [db]) ?? NONE;
  const engineState = useOutbox((s) => s.engineState);
  // the engine's state moves with every op that leaves or comes back: the rows on their way read "Sending"
  const ops = useMemo(
    () => (engineState.inFlight > 0 ? withOnItsWay(stored, sendingNow()) : stored),
    [stored, engineState],
  );
  // working offline: the notice below says why nothing goes, and how to send
  const workOffline = useSession((s) => s.activeProfile?.workOffline === true);
  const actor = useOutbox((s) => s.actor);
  const [status, setStatus] = useState<OutboxStatus | 'all'>('all');
  const [error, setError] = useState<{ code: 'internal'; message: string } | null>(null);
  const counts = useMemo(() => statusCounts(ops), [ops]);
  const names = useLiveQuery(async () => (db ? loadOpNames(db, ops) : NO_NAMES), [db, ops]) ?? NO_NAMES;
  const act = outboxAction(db, setError);

  return (
    <section className="view outbox-view" aria-labelledby="outbox-heading">
      <h1 id="outbox-heading">Outbox</h1>
      <p
        role="status"
        aria-live="polite"
        className={engineState.paused && !workOffline ? 'notice' : undefined}
      >
        {workOffline ? '' : `${engineText(engineState)} `}
        {waitingSummary(counts)}
      </p>
      <OfflineOutboxNotice />
      <ErrorMessage error={error} onDismiss={() => setError(null)} />
      <div className="toolbar">
        {/* working offline nothing can go: the notice above says how to send */}
        <button
          type="button"
          disabled={workOffline}
          onClick={() => void outboxStore.getState().engine?.sendNow()}
        >
          Send now
        </button>
        <label>
          Show{' '}
          <select value={status} onChange={(e) => setStatus(e.target.value as OutboxStatus | 'all')}>
            <option value="all">All changes ({formatCount(ops.length)})</option>
            {(Object.keys(STATUS_LABELS) as OutboxStatus[]).map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]} ({formatCount(counts[s])})
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={act(clearDoneOps)} disabled={counts.done === 0}>
          Clear done ({formatCount(counts.done)})
        </button>
        <OutboxExports db={db} ops={ops} />
      </div>
      <BatchesTable ops={ops} status={status} names={names} act={act} actor={actor} />
    </section>
  );
}
