/**
 * The outbox engine: drains the durable queue through `replay:execute`.
 *
 * - Order per target and dependencies come from lanes.ts; up to
 *   `concurrency` targets go in parallel.
 * - Before each send the op is durably marked `sending` + `maybeSent`, so a
 *   crash while sending makes the next attempt verify first (never a blind resend).
 * - An outcome is written in one transaction with its audit entry and, for a
 *   create, the new id handed to the ops waiting for it.
 * - Pauses while offline or when the token is refused (801/802); nothing is lost.
 */
import type { AppError, ReplayOutcome, ReplayRequest, Result } from '../ipc.ts';
import { readRangeByCursor } from '../read-in-pages.ts';
import { bindOp, classifyFailure, type AuditEntry, type OutboxOp } from '../outbox.ts';
import type { OutboxDb } from './db.ts';
import { backoffMs, type BackoffPolicy } from '../backoff.ts';
import { RunnableLanes } from './lanes.ts';
import { forEachSliced, type Slicing } from '../sliced.ts';
import { Semaphore } from '../semaphore.ts';
import { auditEntryOf } from './audit.ts';
import { OP_KIND_TABLE } from '../op-kinds.ts';
import { UnfinishedOps } from './unfinished.ts';
import { readPacks, unpackHolding, withPacked } from './packs.ts';
import type { OutboxChange } from './queue.ts';

/** A failed op waits 0.5–1 s, then doubles, up to 5 minutes (see backoff.ts). */
const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 5 * 60_000 };

export type ReplayExecutor = (req: ReplayRequest, signal: AbortSignal) => Promise<Result<ReplayOutcome>>;

export interface EngineOptions {
  db: OutboxDb;
  execute: ReplayExecutor;
  /** who sends (the profile name), for the audit log */
  actor: string;
  concurrency?: number;
  /**
   * Ops handed to `execute` at once (default: `concurrency`). A batching
   * executor (batch-executor.ts) whose other side sends `concurrency` at a time
   * takes more, so its batches fill and the network slots never wait on the queue.
   */
  handoff?: number;
  backoff?: BackoffPolicy;
  now?: () => number;
  random?: () => number;
  /**
   * called when something the UI shows of the queue changed: `state()` (online, paused, in flight, the ops' changes)
   * differs from what the last call told. A pump that changes none of these (a connection probe) is not reported.
   */
  onChange?: () => void;
  /** called after an op is done, so the cache can be refreshed */
  onApplied?: (op: OutboxOp, outcome: ReplayOutcome & { status: 'done' }) => void;
  /** how a reload cuts its work into slices (tests choose where it yields) */
  slicing?: Pick<Slicing, 'budgetMs' | 'checkEvery' | 'yieldNow'>;
}

export interface EngineState {
  online: boolean;
  paused: AppError | null;
  inFlight: number;
  /** moves with every change of the ops or their states (what the views' pending marks are made of) */
  changes: number;
}

const KILLED = new Error('the replay host was stopped');
/** why sending stopped when the laptop's storage refused a write (shown as "Paused: …" in the Outbox) */
const STORAGE_REFUSED: AppError = {
  code: 'internal',
  message:
    "Fieldbook could not save to this laptop's storage (the disk may be full). Nothing was lost: " +
    'free some space, then choose Send now. A change that may have reached the platform is checked before it goes again.',
};
/** ops active per network slot: one talking to the API, the others writing their outcome or waiting for a slot */
const ACTIVE_PER_SLOT = 16;
/** most ops whose records share one transaction (a transaction costs several times what a row does) */
const GROUP_MAX = 32;

/** an op deleted from the outbox by a person (discarded, or its conflict resolved with the server's values) */
interface Deleted {
  deletedId: string;
}

/** what the engine records, in order: an op's new state, or its deletion */
type Recorded = OutboxOp | Deleted;

interface PendingWrite {
  ops: OutboxOp[];
  audits: AuditEntry[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class OutboxEngine {
  private readonly opts: Required<Omit<EngineOptions, 'onChange' | 'onApplied'>> &
    Pick<EngineOptions, 'onChange' | 'onApplied'>;
  /** ops not done yet (and those in flight), with the ops waiting for each create's new id */
  private ops = new UnfinishedOps();
  /** ops done or deleted since open: a read that predates their outcome or deletion must not bring them back */
  private readonly goneIds = new Set<string>();
  /** what may run next, per target: the scheduler's index, kept in step with every outcome */
  private lanes = new RunnableLanes((id) => this.ops.get(id));
  /** reloads started: the last one's state takes over */
  private reloads = 0;
  private latestReload: Promise<void> = Promise.resolve();
  /** the ops recorded while a reload makes its new state (one list per reload under way) */
  private readonly recorders = new Set<Recorded[]>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly writes = new Set<Promise<unknown>>();
  private pendingWrites: PendingWrite[] = [];
  private flushing: Promise<void> | null = null;
  /** ops handed to `execute` at once: `handoff` (shared/semaphore.ts) */
  private readonly slots: Semaphore;
  /** aborted by a kill: the ops waiting for a slot leave the line */
  private readonly killSwitch = new AbortController();
  /** one per op being sent, so a kill aborts them all (short-lived: nothing piles up on a long-lived signal) */
  private readonly controllers = new Set<AbortController>();
  private readonly busyTargets = new Set<string>();
  /** persons' writes under way (`hold`): no op starts until each is handed over */
  private holds = 0;
  private killed = false;
  private online = false;
  private paused: AppError | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private idleWaiters: (() => void)[] = [];
  /** changes of the ops or their states: every `apply`, every reload's state taking over */
  private changes = 0;
  /** the state `onChange` last told of: a pump that changed none of it is not reported */
  private told: EngineState | null = null;

  private constructor(opts: EngineOptions) {
    this.opts = {
      concurrency: 4,
      handoff: opts.concurrency ?? 4,
      backoff: DEFAULT_BACKOFF,
      now: () => Date.now(),
      random: Math.random,
      slicing: {},
      ...opts,
    };
    this.slots = new Semaphore(this.opts.handoff);
  }

  /** Open over the stored outbox. An op left `sending` by a crash goes back to pending, marked to verify first. */
  static async open(opts: EngineOptions): Promise<OutboxEngine> {
    const engine = new OutboxEngine(opts);
    const { db } = opts;
    await db.transaction('rw', db.outbox, async () => {
      await db.outbox.where('status').equals('sending').modify({ status: 'pending', maybeSent: true });
    });
    await engine.reload();
    return engine;
  }

  state(): EngineState {
    return { online: this.online, paused: this.paused, inFlight: this.inFlight.size, changes: this.changes };
  }

  /**
   * Re-read the queue after an edit elsewhere (enqueue, discard, retry...). Ops in flight keep their live state. The
   * new state is made a slice at a time (100,000 ops made in one go held the window for 200 ms) while the old one goes
   * on serving the engine; what the engine records meanwhile is applied to the new state before it takes over. A
   * reload started meanwhile read later: it takes over instead, and this one resolves with it.
   */
  reload(): Promise<void> {
    const mine = ++this.reloads;
    const done = this.reloadAs(mine);
    this.latestReload = done;
    return done;
  }

  private async reloadAs(mine: number): Promise<void> {
    // what the engine records from now on (and ops added: `added`) may postdate the read: it is applied to the new
    // state, in order
    const since: Recorded[] = [];
    this.recorders.add(since);
    try {
      const stored = await unfinishedOps(this.opts.db);
      const stale = () => this.killed || mine !== this.reloads;
      const next = await this.newerOf(stored, stale);
      if (!next) return this.afterStale(mine);
      const lanes = new RunnableLanes((id) => next.get(id));
      const built = await lanes.rebuild([...next.values()], { ...this.opts.slicing, stopped: stale });
      if (!built) return this.afterStale(mine);
      this.ops = next;
      this.lanes = lanes;
      this.changes++;
      for (const op of since) this.apply(op);
    } finally {
      this.recorders.delete(since);
    }
    this.pump();
  }

  /**
   * Ops just queued (enqueueOps' records, as stored), taken into the state a slice at a time, where a reload read the
   * whole queue back (after an import, 100,000 records one by one, and its state made again). A reload under way whose
   * read may predate them gets them too, as it gets every op the engine records. A reload started meanwhile read them
   * (or their discard): it stops this. An op the engine knows already is left as the engine knows it (newer).
   */
  async added(ops: readonly OutboxOp[]): Promise<void> {
    const reloads = this.reloads;
    const done = await forEachSliced(
      ops.length,
      (i) => {
        const op = ops[i]!;
        if (!this.goneIds.has(op.id) && !this.ops.get(op.id)) this.remember(op);
      },
      { ...this.opts.slicing, stopped: () => this.killed || this.reloads !== reloads },
    );
    if (done) this.pump();
  }

  /**
   * What a person's discard, retry, edit or resolve wrote (queue.ts's `OutboxChange`: the records as stored and the ids
   * deleted, dependants of a discarded create included), taken into the state as `added` takes new ops, where a reload
   * read the whole queue back for one click. A reload under way gets each of them as it gets every op the engine
   * records; a reload started meanwhile read them, and stops this. An op in flight is the engine's until its outcome,
   * written or deleted: a person's write leaves it alone (`hold`'s `sending`), and the outcome settles it. A record
   * older than the engine's own state of the op, or of an op done or deleted since, is not taken: nothing done comes
   * back.
   */
  async changed(change: OutboxChange): Promise<void> {
    const reloads = this.reloads;
    const entries: Recorded[] = [...change.removed.map((deletedId) => ({ deletedId })), ...change.written];
    const done = await forEachSliced(
      entries.length,
      (i) => {
        const entry = entries[i]!;
        if ('deletedId' in entry) {
          if (!this.inFlight.has(entry.deletedId)) this.remember(entry);
        } else if (!this.goneIds.has(entry.id) && !this.keepsKnown(entry)) this.remember(entry);
      },
      { ...this.opts.slicing, stopped: () => this.killed || this.reloads !== reloads },
    );
    if (done) this.pump();
  }

  /** The ops on their way now (an update's "being sent" is never stored: the Outbox shows them from here). */
  sendingNow(): ReadonlySet<string> {
    return new Set(this.inFlight.keys());
  }

  /**
   * Start no op while a person's discard, edit, retry or resolve is written and handed over (`changed`): the ops
   * waiting then go as written. `sending`: the ops already on their way, which the write must leave to their outcome.
   * An update's "being sent" is never stored, so only the engine knows it: a discard would be written back by its
   * outcome, an edit overwritten by it. `release` lets the queue go on.
   */
  hold(): { sending: ReadonlySet<string>; release: () => void } {
    this.holds++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.holds--;
      this.pump();
    };
    return { sending: new Set(this.inFlight.keys()), release };
  }

  /** A reload overtaken by a later one resolves with it; one stopped by a kill resolves at once. */
  private afterStale(mine: number): Promise<void> {
    return this.killed || mine === this.reloads ? Promise.resolve() : this.latestReload;
  }

  /** The stored ops, each against the engine's own state of it: null when `stale()` stopped the work. */
  private async newerOf(stored: readonly OutboxOp[], stale: () => boolean): Promise<UnfinishedOps | null> {
    const next = new UnfinishedOps();
    const made = await forEachSliced(
      stored.length,
      (i) => {
        const op = stored[i]!;
        if (this.goneIds.has(op.id)) return;
        next.set(this.keepsKnown(op) ?? op);
      },
      { ...this.opts.slicing, stopped: stale },
    );
    return made ? next : null;
  }

  /**
   * The engine's own state of an op where it wins over a stored record: the record may predate an outcome recorded
   * since (the newer of the two wins), and an op in flight is ours.
   */
  private keepsKnown(stored: OutboxOp): OutboxOp | undefined {
    const known = this.ops.get(stored.id);
    const ours =
      known !== undefined &&
      (this.inFlight.has(stored.id) || (known.updatedAt ?? '') > (stored.updatedAt ?? ''));
    return ours ? known : undefined;
  }

  /**
   * Keep the in-memory state in step with what was written. A done op leaves memory (a dependency not there is done).
   */
  private remember(entry: Recorded): void {
    for (const since of this.recorders) since.push(entry);
    this.apply(entry);
  }

  private apply(entry: Recorded): void {
    if ('deletedId' in entry) return this.forget(entry.deletedId);
    const op = entry;
    this.changes++;
    if (op.status === 'done') {
      this.ops.delete(op.id);
      this.goneIds.add(op.id);
    } else {
      this.ops.set(op);
    }
    this.lanes.changed(op);
  }

  /**
   * An op deleted from the outbox leaves memory; to the lanes it has left as a done op has (what waited on it goes).
   */
  private forget(id: string): void {
    this.changes++;
    this.goneIds.add(id);
    const known = this.ops.get(id);
    if (!known) return;
    this.ops.delete(id);
    this.lanes.changed({ ...known, status: 'done' });
  }

  /** Connection state from `connection:probe` / `connection:changed`: replay runs only while online. */
  setOnline(online: boolean): void {
    const reconnected = online && !this.online;
    this.online = online;
    if (reconnected) {
      // shown at once; what waited out a backoff while the network was down goes once its wait is cleared
      this.tell();
      void this.clearBackoffs().catch(() => undefined);
    } else this.pump();
  }

  /** "Send now": lift the pause, cut every backoff short and go. */
  async sendNow(): Promise<void> {
    this.paused = null;
    this.tell();
    await this.clearBackoffs();
  }

  private async clearBackoffs(): Promise<void> {
    const waiting = [...this.ops.values()].filter(
      (op) => op.status === 'pending' && op.nextAttemptAt !== null,
    );
    await this.write(() =>
      this.opts.db.transaction('rw', this.opts.db.outbox, async () => {
        for (const op of waiting) await this.opts.db.outbox.update(op.id, { nextAttemptAt: null });
      }),
    );
    for (const op of waiting) this.remember({ ...op, nextAttemptAt: null });
    this.pump();
  }

  /** After the token was fixed. */
  resume(): void {
    this.paused = null;
    this.pump();
  }

  /** Resolves when nothing more can happen without a person: all done or parked, or paused/offline. */
  whenIdle(): Promise<void> {
    this.pump();
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stop at once, as a crash would: requests in flight are aborted (they may
   * or may not have reached the server) and no outcome is recorded after this.
   * Resolves once the writes already handed to IndexedDB have settled.
   */
  async kill(): Promise<void> {
    this.killed = true;
    for (const controller of this.controllers) controller.abort(KILLED);
    if (this.timer) clearTimeout(this.timer);
    this.killSwitch.abort(KILLED);
    // a crash drops what was not yet handed to IndexedDB
    if (this.flushing === null) this.pendingWrites.splice(0).forEach((w) => w.reject(KILLED));
    await Promise.allSettled([...this.writes]);
    this.idleWaiters.splice(0).forEach((resolve) => resolve());
  }

  private canRun(): boolean {
    return !this.killed && this.online && this.paused === null && this.holds === 0;
  }

  /**
   * Nothing in flight, and nothing that can go without a person: the pump that
   * ran last looked at every candidate and started none, so what is left waits
   * for a parked op (a conflict, a review; also the ops queued behind it on its
   * target or depending on it) unless it waits out a backoff, which ends by itself.
   */
  private isIdle(): boolean {
    if (this.killed) return true;
    if (this.inFlight.size > 0 || this.holds > 0) return false;
    if (!this.canRun()) return true;
    return !this.lanes.waitsForTime();
  }

  private pump(): void {
    if (this.canRun()) {
      const busyTargets = this.busyTargets;
      const now = this.opts.now();
      // More ops are active than there are network slots, so the durable bookkeeping of some overlaps the requests of
      // others.
      const capacity =
        Math.max(this.opts.concurrency * ACTIVE_PER_SLOT, this.opts.handoff) - this.inFlight.size;
      const { ready, wakeAt } =
        capacity > 0 ? this.lanes.take({ now, busyTargets, capacity }) : { ready: [], wakeAt: null };
      for (const op of ready) {
        this.busyTargets.add(op.targetKey);
        const running = this.send(op).finally(() => {
          this.inFlight.delete(op.id);
          this.busyTargets.delete(op.targetKey);
          this.lanes.wake(op.targetKey);
          this.pump();
        });
        this.inFlight.set(op.id, running);
      }
      // every candidate was looked at and some wait out a backoff: look again when the first one ends
      if (wakeAt !== null) this.scheduleWake(wakeAt, now);
    }
    this.tell();
    if (this.isIdle()) this.idleWaiters.splice(0).forEach((resolve) => resolve());
  }

  /** `onChange`, when something it reports moved since it last told (a probe that changed nothing is not news). */
  private tell(): void {
    const now = this.state();
    const told = this.told;
    const same =
      told !== null &&
      told.online === now.online &&
      told.paused === now.paused &&
      told.inFlight === now.inFlight &&
      told.changes === now.changes;
    if (same) return;
    this.told = now;
    this.opts.onChange?.();
  }

  private scheduleWake(wakeAt: number, now: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pump(), Math.max(0, wakeAt - now));
  }

  /** Every IndexedDB write goes through here: none starts after a kill, and kill() waits for those already started. */
  private write<T>(run: () => Promise<T>): Promise<T> {
    if (this.killed) return Promise.reject(KILLED);
    const promise = run();
    this.writes.add(promise);
    void promise.finally(() => this.writes.delete(promise)).catch(() => undefined);
    return promise;
  }

  /**
   * Group commit: ops finishing together share one transaction, so the
   * durable queue costs a transaction per batch rather than per op. Each
   * caller resumes only once its own records are committed.
   */
  private persist(ops: OutboxOp[], audits: AuditEntry[]): Promise<void> {
    if (this.killed) return Promise.reject(KILLED);
    return new Promise<void>((resolve, reject) => {
      this.pendingWrites.push({ ops, audits, resolve, reject });
      if (this.flushing === null && this.readyToFlush()) this.flushing = this.flush();
    });
  }

  /**
   * A batch waits for company while other ops are still talking to the API
   * (their outcomes come next; the network slots stay busy meanwhile), up to
   * GROUP_MAX, and goes at once when no other op could join it. Every op on
   * the network ends by persisting, which looks again, so nothing waits forever.
   */
  private readyToFlush(): boolean {
    const waiting = this.pendingWrites.length;
    const onNetwork = this.slots.inUse + this.slots.waiting;
    return waiting > 0 && waiting >= Math.min(GROUP_MAX, onNetwork);
  }

  private async flush(): Promise<void> {
    const db = this.opts.db;
    while (!this.killed && this.readyToFlush()) {
      const batch = this.pendingWrites.splice(0);
      const ops = batch.flatMap((w) => w.ops);
      const audits = batch.flatMap((w) => w.audits);
      try {
        await this.write(() =>
          db.transaction('rw', db.outbox, db.outboxPacks, db.audit, async () => {
            // the first outcome of a packed op unpacks its pack: the engine's records are then written over it
            await unpackHolding(db, ops);
            await db.outbox.bulkPut(ops);
            if (audits.length > 0) await db.audit.bulkAdd(audits);
          }),
        );
        batch.forEach((w) => w.resolve());
      } catch (err) {
        batch.forEach((w) => w.reject(err));
      }
    }
    // a crash drops what was not yet handed to IndexedDB
    if (this.killed) this.pendingWrites.splice(0).forEach((w) => w.reject(KILLED));
    this.flushing = null;
  }

  private async send(op: OutboxOp): Promise<void> {
    let requested = false;
    let sending = op;
    try {
      if (op.bindings && op.bindings.length > 0) {
        await this.save(
          {
            ...op,
            status: 'failed',
            lastError: { code: 'internal', message: 'An operation it depends on gave no new id.' },
          },
          'failed',
        );
        return;
      }
      sending = {
        ...op,
        status: 'sending',
        maybeSent: true,
        attempts: op.attempts + 1,
        updatedAt: new Date(this.opts.now()).toISOString(),
      };
      this.remember(sending);
      // Durable before the request leaves: a crash from here on makes the next attempt verify first.
      // An update needs no mark: its replay always reads the record first and stops if the change is there.
      if (!isUpdate(op)) await this.persist([sending], []);
      const request: ReplayRequest = {
        opId: op.id,
        op: op.op,
        base: op.base,
        verifyFirst: op.maybeSent,
        ...(op.resolution ? { resolution: op.resolution } : {}),
      };
      let result: Result<ReplayOutcome>;
      // at most `handoff` ops are handed to `execute` at once (`concurrency` talk to the API at once); a kill
      // rejects the wait
      const release = await this.slots.acquire({ signal: this.killSwitch.signal });
      try {
        if (this.killed) throw KILLED; // nothing leaves after a kill
        const controller = new AbortController();
        this.controllers.add(controller);
        try {
          result = await this.opts.execute(request, controller.signal);
        } finally {
          this.controllers.delete(controller);
        }
      } catch (err) {
        if (err === KILLED) throw err;
        result = { ok: false, error: { code: 'network', message: 'The replay request could not be made.' } };
      } finally {
        release();
      }
      if (this.killed) return; // a crash here: the op stays `sending` + maybeSent, verified next time
      requested = true;
      await this.record(op, sending, result);
    } catch (err) {
      if (err !== KILLED) this.notSaved(requested ? { ...sending, status: 'pending' } : op);
    }
  }

  /**
   * The laptop's storage refused a write of this op (a full disk): sending stops, with words for the coordinator, and
   * the op waits again as the engine last knew it. Once requested, it stays marked as maybe sent (`sending` is), so it
   * is checked before it goes again; "Send now" lifts the pause.
   */
  private notSaved(op: OutboxOp): void {
    this.paused = STORAGE_REFUSED;
    this.remember(op);
  }

  private async record(before: OutboxOp, sending: OutboxOp, result: Result<ReplayOutcome>): Promise<void> {
    const outcome: ReplayOutcome = result.ok ? result.value : failureOutcome(result.error);
    const now = new Date(this.opts.now()).toISOString();
    const base = { ...sending, updatedAt: now };
    switch (outcome.status) {
      case 'done': {
        const done: OutboxOp = {
          ...base,
          status: 'done',
          maybeSent: false,
          lastError: null,
          nextAttemptAt: null,
          response: outcome.response ?? null,
          createdId: outcome.createdId ?? null,
        };
        await this.save(done, 'done', outcome);
        this.opts.onApplied?.(done, outcome);
        return;
      }
      case 'conflict':
        await this.save(
          {
            ...base,
            status: 'conflict',
            theirs: outcome.theirs,
            conflictFields: outcome.fields,
            maybeSent: false,
          },
          'conflict',
          outcome,
        );
        return;
      case 'needs-review':
        await this.save(
          {
            ...base,
            status: 'needs-review',
            lastError: outcome.error,
            response: outcome.error.response ?? null,
          },
          'needs-review',
          outcome,
        );
        return;
      case 'retry': {
        const wait = backoffMs(
          sending.attempts,
          this.opts.random(),
          this.opts.backoff,
          outcome.error.retryAfterMs,
        );
        // once it may have been sent, it stays so until an outcome settles it: an attempt that did not
        // write (its check read failed) proves nothing about the earlier one
        const maybeSent = before.maybeSent || (outcome.maybeSent ?? true);
        const retry: OutboxOp = {
          ...base,
          status: 'pending',
          lastError: outcome.error,
          maybeSent,
          nextAttemptAt: new Date(this.opts.now() + wait).toISOString(),
        };
        await this.save(retry, null);
        return;
      }
      case 'paused':
        // The token was refused: nothing reached the record. Keep what we knew before this attempt.
        this.paused = outcome.error;
        await this.save(
          {
            ...base,
            status: 'pending',
            lastError: outcome.error,
            maybeSent: before.maybeSent,
            attempts: before.attempts,
          },
          null,
        );
        return;
    }
  }

  /** Write the op (and its audit entry, and the new id for its dependants) in one transaction. */
  private async save(
    op: OutboxOp,
    audited: 'done' | 'conflict' | 'needs-review' | 'failed' | null,
    outcome?: ReplayOutcome,
  ): Promise<void> {
    const dependants =
      op.status === 'done' && op.createdId !== null && op.createdId !== undefined ? this.boundTo(op) : [];
    const audits = audited
      ? [
          auditEntryOf(
            op,
            audited,
            this.opts.actor,
            op.updatedAt ?? new Date(this.opts.now()).toISOString(),
            outcome,
          ),
        ]
      : [];
    await this.persist([op, ...dependants], audits);
    this.remember(op);
    for (const dependant of dependants) this.remember(dependant);
  }

  /** Ops waiting for this create's new id, with it filled in. */
  private boundTo(created: OutboxOp): OutboxOp[] {
    const id = typeof created.createdId === 'number' ? created.createdId : Number(created.createdId);
    if (!Number.isInteger(id)) return [];
    const out: OutboxOp[] = [];
    for (const op of this.ops.boundTo(created.id)) {
      const bindings = op.bindings!.filter((b) => b.fromOp === created.id);
      let spec = op.op;
      for (const binding of bindings) spec = bindOp(spec, binding.field, id);
      out.push({ ...op, op: spec, bindings: op.bindings!.filter((b) => b.fromOp !== created.id) });
    }
    return out;
  }
}

/**
 * Every op not done yet, read through the status index: done ops (kept until
 * cleared) never run again, and a dependency that is not among these is done,
 * so a reload costs what is still queued, not the whole outbox's history.
 */
async function unfinishedOps(db: OutboxDb): Promise<OutboxOp[]> {
  return db.transaction('r', db.outbox, db.outboxPacks, async () => {
    // a record at a time (read-in-pages.ts): 100,000 ops read at once held the window for over a second
    const [before, after, packs] = await Promise.all([
      readRangeByCursor(db.outbox.where('status').below('done')),
      readRangeByCursor(db.outbox.where('status').above('done')),
      readPacks(db),
    ]);
    // a packed op whose id a done record holds (a pack and its ops both stored) is done: never sent again
    const done = packs.length === 0 ? [] : await db.outbox.where('status').equals('done').primaryKeys();
    return withPacked([...before, ...after], packs, done);
  });
}

function isUpdate(op: OutboxOp): boolean {
  return OP_KIND_TABLE[op.op.kind].effect === 'update';
}

/** A transport failure of `replay:execute` itself, in the terms of an outcome. */
export function failureOutcome(error: AppError): ReplayOutcome {
  const cls = classifyFailure(error);
  if (cls === 'retry') return { status: 'retry', error, maybeSent: true };
  return cls === 'paused' ? { status: 'paused', error } : { status: 'needs-review', error };
}
