/**
 * Undo after apply (`#/undo/<batchId>`): every done op of a batch, reversed
 * from its before-image, previewed against what each record holds now (the
 * server online, the cache offline). A record changed since the batch was
 * applied is a conflict, shown with before / after the batch / now and
 * reverted only when the user says so; what the platform cannot reverse is said.
 * The check runs when the view opens; each line says what its undo will do,
 * in the undo's direction. The undo is queued as a batch of its own, linked to
 * the batch it undoes, and the confirmation takes the keyboard focus.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { AppError } from '../../../shared/ipc.ts';
import type { OutboxOp } from '../../../shared/outbox.ts';
import { enqueueOps } from '../../../shared/replay-queue/queue.ts';
import { outboxOps } from '../../../shared/replay-queue/packs.ts';
import { firstWriteRefusal } from '../../../shared/access.ts';
import {
  judgeUndo,
  readsOf,
  undoCounts,
  undoDrafts,
  undoLines,
  type UndoLine,
} from '../../../shared/undo/plan.ts';
import type { ReversalStep } from '../../../shared/undo/reverse.ts';
import type { RouteProps } from '../../app/routes.tsx';
import { isOnline, sessionStore, useActiveDb, useSession } from '../../app/session.ts';
import { formatCount, formatDateTime } from '../../app/format.ts';
import { plural } from '../../app/words.ts';
import { hrefFor, navigate } from '../../app/router.ts';
import { ErrorMessage, errorFromUnknown } from '../../components/ErrorMessage.tsx';
import { outboxStore, queueAdded } from '../../outbox/runtime.ts';
import { describeOp, NO_NAMES, type OpNames } from '../outbox/describe.ts';
import { loadOpNames } from '../outbox/names.ts';
import { readRecords, type ReadResult } from './current.ts';
import { UndoTable } from './UndoTable.tsx';
import {
  checkButtonText,
  checkedFound,
  checkedWhere,
  queueButtonText,
  UNDO_LIKE_ANY_BATCH,
  undoStepWords,
} from './words.ts';

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
function statusText(
  progress: number | null,
  total: number,
  check: Check | null,
  counts: ReturnType<typeof undoCounts>,
): string {
  if (progress !== null) return `Checking the records… ${formatCount(progress)} of ${formatCount(total)}`;
  if (!check) return 'Nothing is checked yet: the records are checked to see what the undo would do.';
  return `${checkedWhere(check.online, formatDateTime(check.at))}. ${checkedFound(counts)}`;
}

/** Read what each record holds now: from the platform online, from this laptop's copy offline. */
function useUndoCheck(
  db: ReturnType<typeof useActiveDb>,
  lines: ReturnType<typeof undoLines>,
  setError: (error: AppError) => void,
) {
  const [check, setCheck] = useState<Check | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const runCheck = useCallback(async () => {
    if (!db) return;
    const session = sessionStore.getState();
    const api = session.api;
    const viaServer = isOnline(session) && api !== null;
    setProgress(0);
    try {
      const result = await readRecords(
        readsOf(lines),
        viaServer ? { online: true, api } : { online: false, db },
        setProgress,
      );
      setCheck({ result, online: viaServer, at: new Date().toISOString() });
    } catch (e) {
      setError(errorFromUnknown(e));
    } finally {
      setProgress(null);
    }
  }, [db, lines, setError]);
  // the check runs as the view opens: the preview says what the undo will do without a click
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !db || lines.length === 0) return;
    started.current = true;
    void runCheck();
  }, [db, lines.length, runCheck]);

  return { check, progress, runCheck };
}

/** Names for the preview's words: the batch's records and those its undo touches (a created person set Inactive). */
function useUndoWords(db: ReturnType<typeof useActiveDb>, lines: readonly UndoLine[]) {
  // the batch's own ops too: a record the cache no longer holds is named from the create that made it
  const names =
    useLiveQuery(
      async () =>
        db
          ? loadOpNames(
              db,
              lines.flatMap((l) =>
                l.step ? [l.op, { ...l.op, id: `${l.op.id}-undo`, op: l.step.op }] : [l.op],
              ),
            )
          : NO_NAMES,
      [db, lines],
    ) ?? NO_NAMES;
  return useMemo(() => wordsWith(names), [names]);
}

function wordsWith(names: OpNames) {
  return {
    changeWords: (line: UndoLine) => describeOp(line.op, names),
    undoWords: (line: UndoLine, step: ReversalStep) => undoStepWords(step, names, line.op),
  };
}

/** The confirmation once the undo is queued: it takes the keyboard focus (not the page body). */
function Queued({ count }: { count: number | null }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (count !== null) ref.current?.focus();
  }, [count]);
  if (count === null) return null;
  return (
    <p role="status" className="confirmation" tabIndex={-1} ref={ref}>
      The undo is queued ({plural(count, 'change')}) as a batch linked to this one.{' '}
      <a href={hrefFor('outbox')} onClick={() => navigate('outbox')}>
        See it in the Outbox
      </a>
    </p>
  );
}

/** The batch's ops and an earlier undo of it, from the outbox. */
function useBatch(db: ReturnType<typeof useActiveDb>, batchId: string) {
  const ops =
    useLiveQuery(
      async () => (db ? outboxOps(db, (op) => op.batchId === batchId || op.undoes === batchId) : []),
      [db, batchId],
    ) ?? NONE;
  const batchOps = useMemo(() => ops.filter((op) => op.batchId === batchId), [ops, batchId]);
  const earlierUndo = useMemo(() => ops.find((op) => op.undoes === batchId) ?? null, [ops, batchId]);
  return { batchOps, earlierUndo };
}

/** The undo of a batch: its check against the platform, what the user forces or accepts, the drafts to queue. */
function useUndo(batchOps: readonly OutboxOp[], batchId: string) {
  const db = useActiveDb();
  const lines = useMemo(() => undoLines(batchOps), [batchOps]);
  const [force, setForce] = useState<ReadonlySet<string>>(new Set());
  const [offers, setOffers] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<AppError | null>(null);
  const [queued, setQueued] = useState<number | null>(null);
  const { check, progress, runCheck } = useUndoCheck(db, lines, setError);
  const words = useUndoWords(db, lines);
  const judged = useMemo(
    () => (check ? judgeUndo(lines, check.result.now, { force, offers }) : []),
    [check, lines, force, offers],
  );
  const counts = useMemo(() => undoCounts(judged), [judged]);
  const drafts = useMemo(
    () => undoDrafts(judged, (line, step) => `Undo: ${words.undoWords(line, step)}`),
    [judged, words],
  );
  // an undo is a write like any other: the same rule as bulk edits, record edits and the import
  const access = useSession((st) => st.activeProfile?.access ?? 'unknown');
  const refusal = firstWriteRefusal(
    access,
    drafts.map((d) => d.op.kind),
  );
  const queueUndo = async () => {
    const odb = outboxStore.getState().db;
    if (!odb || drafts.length === 0 || refusal !== null) return;
    try {
      await queueAdded(await enqueueOps(odb, drafts, { undoes: batchId }));
      setQueued(drafts.length);
    } catch (e) {
      setError(errorFromUnknown(e));
    }
  };
  const choices = { force, setForce, offers, setOffers, error, setError };
  return {
    ...choices,
    lines,
    queued,
    check,
    progress,
    runCheck,
    words,
    judged,
    counts,
    drafts,
    refusal,
    queueUndo,
  };
}

type Undo = ReturnType<typeof useUndo>;

export default function UndoView({ params }: RouteProps) {
  const batchId = params[0] ?? '';
  const { batchOps, earlierUndo } = useBatch(useActiveDb(), batchId);
  const undo = useUndo(batchOps, batchId);
  const { error, refusal, check, judged, force, offers } = undo;
  if (batchOps.length === 0) {
    return (
      <section className="view undo-view" aria-labelledby="undo-heading">
        <h1 id="undo-heading">Undo a batch</h1>
        <p>
          This batch is not in the outbox any more (cleared, or never queued here): there is nothing to undo
          from here.
        </p>
        <a href={hrefFor('outbox')}>Back to the Outbox</a>
      </section>
    );
  }
  return (
    <section className="view undo-view" aria-labelledby="undo-heading">
      <h1 id="undo-heading">Undo a batch</h1>
      <p>
        Batch of {formatDateTime(batchOps[0]!.createdAt)}: {plural(batchOps.length, 'change')}. Each change
        that was applied is put back to the value it had before. {UNDO_LIKE_ANY_BATCH}
      </p>
      {earlierUndo && (
        <p role="note">
          This batch already has an undo, queued {formatDateTime(earlierUndo.createdAt)}. Records it put back
          show as already as before.
        </p>
      )}
      <ErrorMessage error={error} onDismiss={() => undo.setError(null)} />
      {refusal !== null && <p role="alert">{refusal} The undo can be checked but not queued.</p>}
      <p role="status" aria-live="polite">
        {statusText(undo.progress, readsOf(undo.lines).size, check, undo.counts)}
      </p>
      <UndoToolbar undo={undo} />
      <Queued count={undo.queued} />
      {check && (
        <UndoTable
          judged={judged}
          result={check.result}
          force={force}
          offers={offers}
          onForce={(id, on) => undo.setForce(toggle(force, id, on))}
          onOffer={(id, on) => undo.setOffers(toggle(offers, id, on))}
          {...undo.words}
        />
      )}
    </section>
  );
}

function UndoToolbar({ undo }: { undo: Undo }) {
  const online = useSession(isOnline);
  const { progress, check, queued, drafts, refusal, error } = undo;
  return (
    <div className="toolbar">
      <button type="button" onClick={() => void undo.runCheck()} disabled={progress !== null}>
        {checkButtonText(online, check !== null)}
      </button>
      <button
        type="button"
        className="primary"
        onClick={() => void undo.queueUndo()}
        disabled={queued !== null || progress !== null || drafts.length === 0 || refusal !== null}
      >
        {queueButtonText({
          online,
          checking: progress !== null || (check === null && error === null),
          checked: check !== null,
          changes: drafts.length,
          queued,
        })}
      </button>
      <a href={hrefFor('outbox')}>Back to the Outbox</a>
    </div>
  );
}
