/**
 * The outbox of the active profile: its engine, made and stopped by the profile's
 * session (app/profile-session.ts), which owns the database it writes through and
 * tells it when the connection comes and goes. It runs whenever the API is
 * reachable and pauses while offline. The views read its state from `outboxStore`,
 * which is put back as it was made when the profile's session ends.
 *
 * At a profile switch the engine stops as a crash would (`kill`): nothing more is
 * handed to main, an op being sent is given up on this side, and its outcome, if
 * main still sends one, is not recorded. The op stays in the profile's outbox marked
 * "may have been sent", so the next time the profile is opened its replay first
 * reads the platform (an update always does): it is neither lost nor sent twice.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { FieldbookApi } from '../../shared/ipc.ts';
import type { OutboxOp } from '../../shared/outbox.ts';
import type { FieldbookDb } from '../db/index.ts';
import { profileStore } from '../app/profile-stores.ts';
import { OutboxEngine, type EngineState } from '../../shared/replay-queue/engine.ts';
import { createCacheRefresher } from './cache-refresh.ts';
import { discardOps, enqueueOps, type OpDraft, type OutboxChange } from '../../shared/replay-queue/queue.ts';
import { BATCHED_HANDOFF, createBatchingExecutor } from '../../shared/replay-queue/batch-executor.ts';

export interface OutboxRuntimeState {
  /** the strict-durability instance the outbox writes through */
  db: FieldbookDb | null;
  engine: OutboxEngine | null;
  actor: string;
  engineState: EngineState;
  /**
   * Moves when the unsent ops or what their outcomes wrote to the cache may have changed, so the views that overlay
   * them re-read; never on a connection probe or a banner's change alone (those show through `engineState`).
   */
  version: number;
}

export const outboxStore = profileStore(
  createStore<OutboxRuntimeState>()(() => ({
    db: null,
    engine: null,
    actor: '',
    engineState: { online: false, paused: null, inFlight: 0, changes: 0 },
    version: 0,
  })),
);

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

/** The views read the outbox again (the version moves). */
function versionMoved(): void {
  outboxStore.setState((s) => ({ version: s.version + 1 }));
}

/**
 * After `run` (the engine taking a change written to the outbox), the version has moved at least once: by the engine
 * when its ops changed, here otherwise (no engine yet, nothing new to it, or it failed), so no view keeps a read made
 * before the write.
 */
async function movedAfter(run: Promise<void> | undefined): Promise<void> {
  const before = outboxStore.getState().version;
  try {
    await run;
  } finally {
    if (outboxStore.getState().version === before) versionMoved();
  }
}

/**
 * Tell the engine what a discard, retry, edit or resolve wrote (queue.ts's change): it takes exactly those records,
 * where a reload read the whole queue back (100,000 records after a large import) for one click. The engine still
 * reads it all when it opens, and again when a change was written while it was opening (`openProfileOutbox`).
 */
async function queueWritten(change: OutboxChange): Promise<void> {
  await movedAfter(outboxStore.getState().engine?.changed(change));
}

/** The ops the engine is sending now (none before it opens). */
export function sendingNow(): ReadonlySet<string> {
  return outboxStore.getState().engine?.sendingNow() ?? NOT_HELD.sending;
}

const NOT_HELD = { sending: new Set<string>() as ReadonlySet<string>, release: () => undefined };

/**
 * A person's discard, edit, retry or resolve: written while the engine starts no op, and handed over before the queue
 * goes on, so an op waiting is never sent as it was before the write. `write` gets the ops already on their way
 * (an update's "being sent" is never stored): it leaves them to their outcome.
 */
export async function personsWrite(
  write: (sending: ReadonlySet<string>) => Promise<OutboxChange>,
): Promise<OutboxChange> {
  const hold = outboxStore.getState().engine?.hold() ?? NOT_HELD;
  try {
    const change = await write(hold.sending);
    await queueWritten(change);
    return change;
  } finally {
    hold.release();
  }
}

/**
 * Tell the engine these ops were just queued (enqueueOps' records): it takes them from memory, where a reload
 * would read the whole queue back (100,000 records after a large import).
 */
export async function queueAdded(ops: readonly OutboxOp[]): Promise<void> {
  await movedAfter(outboxStore.getState().engine?.added(ops));
}

/** What the engine shows changed: the banners follow its state, the views' queries its ops' changes. */
function engineChanged(state: EngineState): void {
  outboxStore.setState((s) => ({
    engineState: state,
    version: state.changes === s.engineState.changes ? s.version : s.version + 1,
  }));
}

export interface ProfileOutboxOptions {
  api: FieldbookApi;
  /** the views' instance of the profile's database: refreshed after replay */
  cacheDb: FieldbookDb;
  /** the strict-durability instance the outbox writes through */
  outboxDb: FieldbookDb;
  /** the profile whose outbox this is */
  profileId: string;
  /** who sends (the profile name), for the audit log */
  actor: string;
  /** the engine opens once this has settled (the previous session's outbox has stopped) */
  after?: Promise<unknown>;
}

export interface ProfileOutbox {
  /** resolves once the engine is open (or could not open: its database is reported by the session) */
  readonly opened: Promise<void>;
  setOnline(online: boolean): void;
  /** a token re-entered: try again */
  resume(): void;
  /** Stops sending (see above); resolves once the writes it already began have landed. */
  stop(): Promise<void>;
}

/** The profile's outbox engine, shown in `outboxStore` until it stops. */
export function openProfileOutbox(options: ProfileOutboxOptions): ProfileOutbox {
  let engine: OutboxEngine | null = null;
  let online = false;
  let stopped = false;
  // a done op's record as the platform holds it is in the cache: the views that overlaid the op read it again (a copy
  // in memory, the users' search, is not followed by a live query)
  const refresher = createCacheRefresher(options.cacheDb, undefined, () => {
    if (!stopped) versionMoved();
  });
  // ops travel to main in batches (one message per turn) and their outcomes stream back
  const executor = createBatchingExecutor({
    // main sends it only while this profile is the active one
    executeBatch: (arg) => options.api['replay:executeBatch']({ ...arg, profileId: options.profileId }),
    onOutcomes: (listener) => options.api.on['replay:outcomes'](listener),
  });
  // the outbox can be written at once (a change queued now is durable); the engine takes it when it opens
  outboxStore.setState({ db: options.outboxDb, actor: options.actor });
  const open = async () => {
    await options.after;
    if (stopped) return;
    const queuedBefore = outboxStore.getState().version;
    const opened = await OutboxEngine.open({
      db: options.outboxDb,
      actor: options.actor,
      execute: executor.execute,
      handoff: BATCHED_HANDOFF,
      onChange: () => {
        if (!stopped && engine) engineChanged(engine.state());
      },
      onApplied: (op, outcome) => refresher.add(op, outcome),
    });
    engine = opened;
    if (stopped) return void (await opened.kill());
    outboxStore.setState({
      db: options.outboxDb,
      engine: opened,
      actor: options.actor,
      engineState: opened.state(),
    });
    // queued while it read the queue: read it again, or those changes would wait for the next one
    if (outboxStore.getState().version !== queuedBefore) await opened.reload();
    // opening wrote to the outbox (an op a crash left "being sent" waits again): the views read it as it is now
    versionMoved();
    opened.setOnline(online);
  };
  const opened = open().catch(() => undefined);
  return {
    opened,
    setOnline(next) {
      online = next;
      if (!stopped) engine?.setOnline(next);
    },
    resume() {
      if (!stopped && engine?.state().paused) engine.resume();
    },
    async stop() {
      stopped = true;
      // at once: what the engine is sending is given up before anything else runs
      const killed = engine?.kill();
      // an engine still opening kills itself as it opens
      await opened;
      await killed;
      executor.close();
      // the cache refreshed after the ops done before the stop, before the session closes the cache
      await refresher.settled();
    },
  };
}

/** Queue drafts through the durable outbox; returns the new ops' ids (for "Undo"). */
export async function queueDrafts(drafts: readonly OpDraft[], batchId?: string): Promise<string[]> {
  const db = outboxStore.getState().db;
  if (!db || drafts.length === 0) return [];
  const ops = await enqueueOps(db, drafts, batchId ? { batchId } : {});
  await queueAdded(ops);
  return ops.map((op) => op.id);
}

/** Undo before sending: discard the ops (and what depends on them). */
export async function undoOps(ids: readonly string[]): Promise<void> {
  const { db, actor } = outboxStore.getState();
  if (!db || ids.length === 0) return;
  await personsWrite((sending) => discardOps(db, ids, actor, { sending }));
}
