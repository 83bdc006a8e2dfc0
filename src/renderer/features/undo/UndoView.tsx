/**
 * Undo after apply (`#/undo/<batchId>`): every done op of a batch, reversed
 * from its before-image, previewed against what each record holds now (the
 * server online, the cache offline). A record changed since the batch was
 * applied is a conflict, shown with base / applied / now and reverted only
 * when the user says so; what the API cannot reverse is said. The undo is
 * queued as a batch of its own, linked to the batch it undoes.
 */
import { useCallback, useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { AppError } from '../../../shared/ipc.ts';
import type { OutboxOp } from '../../../shared/outbox.ts';
import { enqueueOps } from '../../../shared/replay-queue/queue.ts';
import { firstWriteRefusal } from '../../../shared/access.ts';
import { judgeUndo, readsOf, undoCounts, undoDrafts, undoLines, type JudgedLine } from '../../../shared/undo/plan.ts';
import type { RouteProps } from '../../app/routes.tsx';
import { isOnline, sessionStore, useActiveDb, useSession } from '../../app/session.ts';
import { formatCount, formatDateTime } from '../../app/format.ts';
import { hrefFor, navigate } from '../../app/router.ts';
import { ErrorMessage, errorFromUnknown } from '../../components/ErrorMessage.tsx';
import { outboxStore, queueChanged } from '../../outbox/runtime.ts';
import { displayValue } from '../outbox/compare.ts';
import { readRecords, type ReadResult } from './current.ts';

const NONE: OutboxOp[] = [];

interface Check {
  result: ReadResult;
  online: boolean;
  at: string;
}

function toggle(set: ReadonlySet<string>, id: string, on: boolean): ReadonlySet<string> {
  const next = new Set(set);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/** What the check found, in words (or how far it is). */
function statusText(progress: number | null, total: number, check: Check | null, counts: ReturnType<typeof undoCounts>): string {
  return (
    progress !== null
    ? `Checking the records… ${formatCount(progress)} of ${formatCount(total)}`
    : check
      ? `${check.online ? 'Checked against the server' : 'Offline: checked against the cache; each record is checked against the server again before its undo is sent'} (${formatDateTime(check.at)}). ` +
        `${formatCount(counts.revert)} to revert, ${formatCount(counts.already)} already as before, ${formatCount(counts.conflict)} changed since (not reverted unless you choose), ` +
        `${formatCount(counts.irreversible)} the API cannot reverse, ${formatCount(counts.notApplied)} never applied` +
        (counts.unknown > 0 ? `, ${formatCount(counts.unknown)} could not be checked.` : '.')
      : 'Nothing is checked yet: check the records to see what the undo would do.'
  );
}

interface UndoTableProps {
  judged: readonly JudgedLine[];
  check: Check;
  force: ReadonlySet<string>;
  offers: ReadonlySet<string>;
  onForce: (id: string, on: boolean) => void;
  onOffer: (id: string, on: boolean) => void;
}

function UndoTable({ judged, check, force, offers, onForce, onOffer }: UndoTableProps) {
  return (
    <table className="outbox-table" aria-label="Undo preview">
      <thead>
        <tr>
          <th scope="col">Change</th>
          <th scope="col">Undo</th>
          <th scope="col">Record now</th>
          <th scope="col">Base / applied / now</th>
          <th scope="col">Choice</th>
        </tr>
      </thead>
      <tbody>
        {judged.map((j) => (
          <UndoRow
            key={j.line.op.id}
            judged={j}
            error={j.line.step ? check.result.errors.get(readKeyOf(j)) : undefined}
            forced={force.has(j.line.op.id)}
            offered={offers.has(j.line.op.id)}
            onForce={(on) => onForce(j.line.op.id, on)}
            onOffer={(on) => onOffer(j.line.op.id, on)}
          />
        ))}
      </tbody>
    </table>
  );
}

/** Read what each record holds now: from the server online, from the cache offline. */
function useUndoCheck(db: ReturnType<typeof useActiveDb>, lines: ReturnType<typeof undoLines>, setError: (error: AppError) => void) {
  const [check, setCheck] = useState<Check | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const runCheck = useCallback(async () => {
    if (!db) return;
    const session = sessionStore.getState();
    const api = session.api;
    const viaServer = isOnline(session) && api !== null;
    setProgress(0);
    try {
      const result = await readRecords(readsOf(lines), viaServer ? { online: true, api } : { online: false, db }, setProgress);
      setCheck({ result, online: viaServer, at: new Date().toISOString() });
    } catch (e) {
      setError(errorFromUnknown(e));
    } finally {
      setProgress(null);
    }
  }, [db, lines, setError]);

  return { check, progress, runCheck };
}

export default function UndoView({ params }: RouteProps) {
  const batchId = params[0] ?? '';
  const db = useActiveDb();
  const online = useSession(isOnline);
  const ops = useLiveQuery(async () => (db ? db.outbox.filter((op) => op.batchId === batchId || op.undoes === batchId).toArray() : []), [db, batchId]) ?? NONE;
  const batchOps = useMemo(() => ops.filter((op) => op.batchId === batchId), [ops, batchId]);
  const earlierUndo = useMemo(() => ops.find((op) => op.undoes === batchId) ?? null, [ops, batchId]);
  const lines = useMemo(() => undoLines(batchOps), [batchOps]);
  const [force, setForce] = useState<ReadonlySet<string>>(new Set());
  const [offers, setOffers] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<AppError | null>(null);
  const [queued, setQueued] = useState(false);
  const { check, progress, runCheck } = useUndoCheck(db, lines, setError);

  const judged = useMemo(() => (check ? judgeUndo(lines, check.result.now, { force, offers }) : []), [check, lines, force, offers]);
  const counts = useMemo(() => undoCounts(judged), [judged]);
  const drafts = useMemo(() => undoDrafts(judged), [judged]);
  // an undo is a write like any other: the same rule as bulk edits, record edits and the import
  const access = useSession((st) => st.activeProfile?.access ?? 'unknown');
  const refusal = firstWriteRefusal(access, drafts.map((d) => d.op.kind));

  const queueUndo = async () => {
    const odb = outboxStore.getState().db;
    if (!odb || drafts.length === 0 || refusal !== null) return;
    try {
      await enqueueOps(odb, drafts, { undoes: batchId });
      await queueChanged();
      setQueued(true);
    } catch (e) {
      setError(errorFromUnknown(e));
    }
  };

  if (batchOps.length === 0) {
    return (
      <section className="view undo-view" aria-labelledby="undo-heading">
        <h1 id="undo-heading">Undo a batch</h1>
        <p>This batch is not in the outbox any more (cleared, or never queued here): there is nothing to undo from here.</p>
        <a href={hrefFor('outbox')}>Back to the Outbox</a>
      </section>
    );
  }

  return (
    <section className="view undo-view" aria-labelledby="undo-heading">
      <h1 id="undo-heading">Undo a batch</h1>
      <p>
        Batch of {formatDateTime(batchOps[0]!.createdAt)}: {formatCount(batchOps.length)} changes. Each change that was applied is put back from the values it was
        made from; the undo is queued as a batch of its own and sent, verified and logged like any other.
      </p>
      {earlierUndo && <p role="note">This batch already has an undo, queued {formatDateTime(earlierUndo.createdAt)}. Records it put back show as already as before.</p>}
      <ErrorMessage error={error} onDismiss={() => setError(null)} />
      {refusal !== null && <p role="alert">{refusal} The undo can be checked but not queued.</p>}
      <p role="status" aria-live="polite">
        {statusText(progress, readsOf(lines).size, check, counts)}
      </p>
      <div className="toolbar">
        <button type="button" onClick={() => void runCheck()} disabled={progress !== null}>
          {check ? 'Check again' : 'Check the records'}
          {online ? ' against the server' : ' against the cache (offline)'}
        </button>
        <button type="button" onClick={() => void queueUndo()} disabled={queued || progress !== null || drafts.length === 0 || refusal !== null}>
          Queue the undo ({formatCount(drafts.length)} changes)
        </button>
        <a href={hrefFor('outbox')}>Back to the Outbox</a>
      </div>
      {queued && (
        <p role="status">
          The undo is queued ({formatCount(drafts.length)} changes) as a batch linked to this one. <a href={hrefFor('outbox')} onClick={() => navigate('outbox')}>See it in the Outbox</a>
        </p>
      )}
      {check && (
        <UndoTable judged={judged} check={check} force={force} offers={offers} onForce={(id, on) => setForce(toggle(force, id, on))} onOffer={(id, on) => setOffers(toggle(offers, id, on))} />
      )}
    </section>
  );
}

function readKeyOf(j: JudgedLine): string {
  return [...readsOf([j.line]).keys()][0] ?? '';
}

const VERDICT_TEXT = { revert: 'Will be put back', already: 'Already as before: nothing to send', conflict: 'Changed since the batch was applied' } as const;

function UndoRow(props: { judged: JudgedLine; error: AppError | undefined; forced: boolean; offered: boolean; onForce: (on: boolean) => void; onOffer: (on: boolean) => void }) {
  const { judged: j, error, forced, offered, onForce, onOffer } = props;
  const reversal = j.line.reversal;
  const step = j.line.step;
  const what = !reversal
    ? `Never applied (${j.line.op.status}): nothing to undo`
    : reversal.kind === 'irreversible'
      ? reversal.reason
      : `${step?.summary ?? ''}${step?.caveat ? ` (${step.caveat})` : ''}`;
  const state = !step ? '' : error ? `Could not be checked: ${error.message}` : j.verdict ? VERDICT_TEXT[j.verdict] : 'Not in the cache: cannot be checked offline';
  return (
    <tr className={`undo-line undo-${j.verdict ?? (reversal ? reversal.kind : 'not-applied')}`}>
      <td>{j.line.op.summary}</td>
      <td>{what}</td>
      <td>{state}</td>
      <td>
        {j.verdict === 'conflict' && (
          <ul aria-label="Base / applied / now">
            {j.compare.map((c) => (
              <li key={c.field}>
                {c.field}: base {displayValue(c.base)} / applied {displayValue(c.applied)} / now {displayValue(c.now)}
              </li>
            ))}
          </ul>
        )}
      </td>
      <td>
        {reversal?.kind === 'irreversible' && reversal.offer && (
          <label>
            <input type="checkbox" checked={offered} onChange={(e) => onOffer(e.target.checked)} /> {reversal.offer.label}
          </label>
        )}
        {j.verdict === 'conflict' && (reversal?.kind === 'reverse' || offered) && (
          <label>
            <input type="checkbox" checked={forced} onChange={(e) => onForce(e.target.checked)} /> Revert anyway
          </label>
        )}
      </td>
    </tr>
  );
}
