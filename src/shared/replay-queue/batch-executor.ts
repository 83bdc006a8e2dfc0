/**
 * The engine's executor over `replay:executeBatch`: the ops the engine hands
 * over in the same turn of the event loop travel as one message, and each
 * op's promise settles when its outcome comes back (`replay:outcomes` events,
 * the rest with the answer). Each outcome is taken once; an op whose outcome
 * never comes (the answer failed, or lacked it) fails as a transport failure
 * would, so the engine retries it and verifies first. An aborted op (a kill)
 * settles at once as cancelled; whatever main says of it later is ignored.
 */
import {
  MAX_REPLAY_BATCH,
  type AppError,
  type ReplayBatchResult,
  type ReplayOutcome,
  type ReplayOutcomesEvent,
  type ReplayRequest,
  type Result,
} from '../ipc.ts';
import type { ReplayExecutor } from './engine.ts';

/** The slice of `window.fieldbook` the executor uses. */
export interface BatchTransport {
  executeBatch(arg: { batchId: string; requests: ReplayRequest[] }): Promise<Result<ReplayBatchResult>>;
  onOutcomes(listener: (event: ReplayOutcomesEvent) => void): () => void;
}

/** Ops the engine hands a batching executor at once (its `handoff`): main's 4 network slots always have work queued. */
export const BATCHED_HANDOFF = 64;

type Settle = (result: Result<ReplayOutcome>) => void;

const CANCELLED: AppError = { code: 'cancelled', message: 'The replay was stopped.' };
const NO_OUTCOME: AppError = { code: 'network', message: 'The replay gave no outcome for this operation.' };

export interface BatchingExecutor {
  execute: ReplayExecutor;
  /** stops listening; ops still out settle as cancelled */
  close(): void;
}

export function createBatchingExecutor(
  transport: BatchTransport,
  maxBatch = MAX_REPLAY_BATCH,
): BatchingExecutor {
  /** ops handed over in this turn, not yet sent */
  let queued: { req: ReplayRequest; settle: Settle }[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** ops sent and waiting for their outcome, per batch id */
  const waiting = new Map<string, Map<string, Settle>>();
  const prefix = Math.random().toString(36).slice(2, 10);
  let batches = 0;

  const deliver = (batchId: string, opId: string, result: Result<ReplayOutcome>) => {
    const batch = waiting.get(batchId);
    const settle = batch?.get(opId);
    if (!batch || !settle) return; // taken already, or aborted: once only
    batch.delete(opId);
    settle(result);
  };
  const unsubscribe = transport.onOutcomes((event) => {
    for (const { opId, outcome } of event.outcomes)
      deliver(event.batchId, opId, { ok: true, value: outcome });
  });

  const send = async (ops: { req: ReplayRequest; settle: Settle }[]) => {
    const batchId = `${prefix}-${++batches}`;
    const batch = new Map<string, Settle>();
    for (const op of ops) batch.set(op.req.opId, op.settle);
    waiting.set(batchId, batch);
    let answer: Result<ReplayBatchResult>;
    try {
      answer = await transport.executeBatch({ batchId, requests: ops.map((op) => op.req) });
    } catch {
      answer = { ok: false, error: NO_OUTCOME };
    }
    if (answer.ok)
      for (const { opId, outcome } of answer.value.outcomes)
        deliver(batchId, opId, { ok: true, value: outcome });
    for (const opId of [...batch.keys()])
      deliver(batchId, opId, answer.ok ? { ok: false, error: NO_OUTCOME } : answer);
    waiting.delete(batchId);
  };

  const flush = () => {
    timer = null;
    const ops = queued;
    queued = [];
    for (let at = 0; at < ops.length; at += maxBatch) void send(ops.slice(at, at + maxBatch));
  };

  const execute: ReplayExecutor = (req, signal) =>
    new Promise<Result<ReplayOutcome>>((resolve) => {
      if (signal.aborted) return resolve({ ok: false, error: CANCELLED });
      let done = false;
      const settle: Settle = (result) => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', abort);
        resolve(result);
      };
      const abort = () => {
        queued = queued.filter((op) => op.settle !== settle);
        for (const batch of waiting.values()) if (batch.get(req.opId) === settle) batch.delete(req.opId);
        settle({ ok: false, error: CANCELLED });
      };
      signal.addEventListener('abort', abort, { once: true });
      queued.push({ req, settle });
      // the ops the engine hands over in this turn share one message
      timer ??= setTimeout(flush, 0);
    });

  return {
    execute,
    close() {
      unsubscribe();
      if (timer) clearTimeout(timer);
      timer = null;
      for (const { settle } of queued.splice(0)) settle({ ok: false, error: CANCELLED });
      for (const batch of waiting.values())
        for (const settle of batch.values()) settle({ ok: false, error: CANCELLED });
      waiting.clear();
    },
  };
}
