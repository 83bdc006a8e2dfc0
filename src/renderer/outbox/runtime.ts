/**
 * The outbox in the running app: one engine per active profile, fed by the
 * session (database, main's API, connection state). It starts after start-up,
 * runs whenever the API is reachable, pauses while offline, and stops with the
 * profile. The UI reads its state from `outboxStore`.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { openFieldbookDb, type FieldbookDb } from '../db/index.ts';
import { isOnline, sessionStore, type SessionState } from '../app/session.ts';
import { OutboxEngine, type EngineState } from '../../shared/replay-queue/engine.ts';
import { createCacheRefresher } from './cache-refresh.ts';
import { discardOps, enqueueOps, type OpDraft } from '../../shared/replay-queue/queue.ts';
import {
  BATCHED_HANDOFF,
  createBatchingExecutor,
  type BatchingExecutor,
} from '../../shared/replay-queue/batch-executor.ts';

export interface OutboxRuntimeState {
  /** the strict-durability instance the outbox writes through */
  db: FieldbookDb | null;
  engine: OutboxEngine | null;
  actor: string;
  engineState: EngineState;
  /** bumped on every queue change, so views re-read */
  version: number;
}

export const outboxStore = createStore<OutboxRuntimeState>()(() => ({
  db: null,
  engine: null,
  actor: '',
  engineState: { online: false, paused: null, inFlight: 0 },
  version: 0,
}));

export function useOutbox<T>(select: (s: OutboxRuntimeState) => T): T {
  return useStore(outboxStore, select);
}

/**
 * The outbox's version: views that overlay pending ops re-run their queries when it moves (the ops are read from
 * memory).
 */
export function usePendingVersion(): number {
  return useStore(outboxStore, (s) => s.version);
}

/** Tell the engine the queue changed (after enqueue, discard, retry, edit, resolve). */
export async function queueChanged(): Promise<void> {
  await outboxStore.getState().engine?.reload();
  outboxStore.setState((s) => ({ version: s.version + 1 }));
}

let started = false;
let opening: Promise<void> = Promise.resolve();
/** the open engine's executor (it listens for `replay:outcomes`) */
let executor: BatchingExecutor | null = null;

export function startOutboxRuntime(): void {
  if (started) return;
  started = true;
  let previous: SessionState = sessionStore.getState();
  const follow = (session: SessionState) => {
    const before = previous;
    previous = session;
    if (session.db !== before.db || session.api !== before.api) {
      // a database that cannot open (a newer build's) is reported by the session; the next profile still opens
      opening = opening.then(() => openEngine(session)).catch(() => undefined);
      return;
    }
    const engine = outboxStore.getState().engine;
    if (!engine) return;
    if (isOnline(session) !== isOnline(before)) engine.setOnline(isOnline(session));
    // a token re-entered (profiles changed): try again
    if (session.profiles !== before.profiles && engine.state().paused) engine.resume();
  };
  sessionStore.subscribe(follow);
  opening = opening.then(() => openEngine(previous));
}

async function openEngine(session: SessionState): Promise<void> {
  const old = outboxStore.getState();
  await old.engine?.kill();
  executor?.close();
  executor = null;
  old.db?.close();
  outboxStore.setState({ db: null, engine: null, engineState: { online: false, paused: null, inFlight: 0 } });
  const { api, db: cacheDb, activeProfile } = session;
  if (!api || !cacheDb || !activeProfile) return;
  const db = openFieldbookDb(cacheDb.name, { durability: 'strict' });
  const actor = activeProfile.name;
  let opened: OutboxEngine | null = null;
  const refresher = createCacheRefresher(cacheDb);
  // ops travel to main in batches (one message per turn) and their outcomes stream back
  executor = createBatchingExecutor({
    executeBatch: (arg) => api['replay:executeBatch'](arg),
    onOutcomes: (listener) => api.on['replay:outcomes'](listener),
  });
  const engine = await OutboxEngine.open({
    db,
    actor,
    execute: executor.execute,
    handoff: BATCHED_HANDOFF,
    onChange: () => {
      if (opened) outboxStore.setState((s) => ({ engineState: opened!.state(), version: s.version + 1 }));
    },
    onApplied: (op, outcome) => refresher.add(op, outcome),
  });
  opened = engine;
  outboxStore.setState({ db, engine, actor, engineState: engine.state() });
  engine.setOnline(isOnline(sessionStore.getState()));
}

/** Queue drafts through the durable outbox; returns the new ops' ids (for "Undo"). */
export async function queueDrafts(drafts: readonly OpDraft[], batchId?: string): Promise<string[]> {
  const db = outboxStore.getState().db;
  if (!db || drafts.length === 0) return [];
  const ops = await enqueueOps(db, drafts, batchId ? { batchId } : {});
  await queueChanged();
  return ops.map((op) => op.id);
}

/** Undo before sending: discard the ops (and what depends on them). */
export async function undoOps(ids: readonly string[]): Promise<void> {
  const { db, actor } = outboxStore.getState();
  if (!db || ids.length === 0) return;
  await discardOps(db, ids, actor);
  await queueChanged();
}
