/**
 * What a person's discard, retry, edit or resolve wrote is handed to the engine (`changed`, queue.ts's `OutboxChange`)
 * instead of a reload reading the whole queue back: one click on an outbox of 100,000 ops read them all. Each op
 * still goes once, none that was discarded, nothing done comes back, and the views are told.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { ReplayOutcome, ReplayRequest, Result } from '../ipc.ts';
import type { OutboxDb } from './db.ts';
import { outboxDbsClosedAfterEach } from '../testing/outbox-dbs.ts';
import { CREATE_WITH_EMAIL } from '../testing/test-ops.ts';
import { OutboxEngine } from './engine.ts';
import { discardOps, editOp, enqueueOps, resolveConflicts, retryOps } from './queue.ts';

const freshDb = outboxDbsClosedAfterEach('engine-written-test');

const statusDraft = (userid: number, status = 'Inactive') => ({
  op: { kind: 'user.update' as const, userid, changes: { status } },
  base: { status: 'Active' },
  summary: `user ${userid} -> ${status}`,
});
const drafts = (n: number) => Array.from({ length: n }, (_, i) => statusDraft(i + 1));

const CONFLICT: ReplayOutcome = { status: 'conflict', theirs: { status: 'Offline' }, fields: ['status'] };
const REFUSED: ReplayOutcome = {
  status: 'needs-review',
  error: { code: 'rejected', message: 'No.', statuscode: 1001 },
};

/** A platform answering each op's first request with `first` (done when not given) and every later one done. */
function platform(first: (req: ReplayRequest) => ReplayOutcome | undefined = () => undefined) {
  const sent: ReplayRequest[] = [];
  const execute = async (req: ReplayRequest): Promise<Result<ReplayOutcome>> => {
    const again = sent.some((r) => r.opId === req.opId);
    sent.push(req);
    return { ok: true, value: (again ? undefined : first(req)) ?? { status: 'done' } };
  };
  const sentIds = () => sent.map((r) => r.opId);
  return { execute, sent, sentIds };
}

/** A platform whose answers wait until `answer` lets them go, each with `outcome`. */
function heldPlatform(outcome: ReplayOutcome) {
  const sent: ReplayRequest[] = [];
  const waiting: (() => void)[] = [];
  const execute = (req: ReplayRequest) => {
    sent.push(req);
    return new Promise<Result<ReplayOutcome>>((resolve) =>
      waiting.push(() => resolve({ ok: true, value: outcome })),
    );
  };
  return { execute, sent, waiting, answer: () => waiting.splice(0).forEach((go) => go()) };
}

/** An engine over `db`, offline, counting its reports to the views. */
async function engineOver(db: OutboxDb, execute: ReturnType<typeof platform>['execute']) {
  const told = { count: 0 };
  const engine = await OutboxEngine.open({
    db,
    execute,
    actor: 'c',
    backoff: { baseMs: 1, maxMs: 5 },
    onChange: () => told.count++,
  });
  return { engine, told };
}

/** A reload whose read of the queue is taken now and handed back only on `release`. */
function heldReload(db: OutboxDb, engine: OutboxEngine) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const transaction = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
  const spy = vi.spyOn(db, 'transaction').mockImplementationOnce(((...args: unknown[]) =>
    transaction(...args).then(async (read) => {
      await held;
      return read;
    })) as never);
  const done = engine.reload().finally(() => spy.mockRestore());
  return { release, done };
}

const ids = (ops: readonly { id: string }[]) => ops.map((op) => op.id);

/**
 * Slicing that yields at every op and, once armed, runs `during` at the second yield: a reload making its new state
 * has then taken in one op of what it read, and goes on with the rest.
 */
function slicedWith(during: (engine: OutboxEngine) => Promise<void>) {
  let armed: OutboxEngine | null = null;
  let yields = 0;
  const yieldNow = async () => {
    if (!armed || ++yields !== 2) return;
    const engine = armed;
    armed = null;
    await during(engine);
  };
  const arm = (engine: OutboxEngine) => {
    armed = engine;
    yields = 0;
  };
  return { budgetMs: 0, checkEvery: 1, yieldNow, arm };
}

async function drain(engine: OutboxEngine): Promise<void> {
  engine.setOnline(true);
  await engine.whenIdle();
}

describe('a discard handed to the engine', () => {
  it('reads no other op back: discarding one op of 100 reads nothing from the outbox', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(100));
    const api = platform();
    const { engine } = await engineOver(db, api.execute);
    const change = await discardOps(db, [ops[40]!.id], 'c');
    const reads = vi.spyOn(db, 'transaction');
    await engine.changed(change);
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
    await drain(engine);
    expect(api.sent).toHaveLength(99);
    expect(api.sentIds()).not.toContain(ops[40]!.id);
  });

  it("leaves the create's dependants unsent too: the e-mail waiting for the new person's id", async () => {
    const db = freshDb();
    await enqueueOps(db, [...CREATE_WITH_EMAIL, statusDraft(7)]);
    const api = platform();
    const { engine } = await engineOver(db, api.execute);
    await engine.changed(await discardOps(db, ['create'], 'c'));
    await drain(engine);
    expect(api.sent.map((r) => r.op.kind)).toEqual(['user.update']);
    // nothing of the discarded person comes back to the outbox (as a failed e-mail, say)
    expect((await db.outbox.toArray()).map((op) => op.op.kind)).toEqual(['user.update']);
  });

  it('during a reload under way ends with the op gone, though the reload read it before the discard', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(3));
    const api = platform();
    const { engine } = await engineOver(db, api.execute);
    const reload = heldReload(db, engine);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await engine.changed(await discardOps(db, [ops[1]!.id], 'c'));
    reload.release();
    await reload.done;
    await drain(engine);
    expect(api.sentIds().sort()).toEqual([ops[0]!.id, ops[2]!.id].sort());
  });

  it('while a reload makes its new state ends with every discarded op gone, those it had taken in too', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(3));
    const api = platform();
    const slicing = slicedWith(async (engine) => {
      await engine.changed(await discardOps(db, ids(ops), 'c'));
    });
    const engine = await OutboxEngine.open({ db, execute: api.execute, actor: 'c', slicing });
    slicing.arm(engine);
    await engine.reload();
    await drain(engine);
    expect(api.sent).toEqual([]);
  });

  it('of an op waiting out a backoff does not send it on "Send now"', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, drafts(1));
    const api = platform(() => ({
      status: 'retry',
      error: { code: 'server', message: '503' },
      maybeSent: false,
    }));
    const engine = await OutboxEngine.open({
      db,
      execute: api.execute,
      actor: 'c',
      backoff: { baseMs: 60_000, maxMs: 60_000 },
    });
    engine.setOnline(true);
    await vi.waitFor(async () => expect((await db.outbox.get(op!.id))?.nextAttemptAt).not.toBeNull());
    await engine.changed(await discardOps(db, [op!.id], 'c'));
    await engine.sendNow();
    await engine.whenIdle();
    expect(api.sent).toHaveLength(1);
    expect(await db.outbox.get(op!.id)).toBeUndefined();
  });

  it('while a batch is being handed over leaves the op unsent, though the batch still held it', async () => {
    const db = freshDb();
    const api = platform();
    let ops: Awaited<ReturnType<typeof enqueueOps>> = [];
    let discarding: Promise<void> | null = null;
    // at the first yield of the hand-over, the last op of the batch is discarded and the engine told
    const yieldNow = async () => {
      if (discarding) return;
      discarding = discardOps(db, [ops.at(-1)!.id], 'c').then((change) => engine.changed(change));
      await discarding;
    };
    const slicing = { budgetMs: 0, checkEvery: 1, yieldNow };
    const engine = await OutboxEngine.open({ db, execute: api.execute, actor: 'c', slicing });
    ops = await enqueueOps(db, drafts(4));
    await engine.added(ops);
    await drain(engine);
    expect(api.sentIds().sort()).toEqual(
      ops
        .slice(0, 3)
        .map((op) => op.id)
        .sort(),
    );
  });

  it('lets the views know: the count they follow moves and they are told', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(2));
    const { engine, told } = await engineOver(db, platform().execute);
    const before = { changes: engine.state().changes, told: told.count };
    await engine.changed(await discardOps(db, [ops[0]!.id], 'c'));
    expect(engine.state().changes).toBeGreaterThan(before.changes);
    expect(told.count).toBeGreaterThan(before.told);
  });

  it('of an update being sent leaves it to its outcome: a conflict it meets still holds the change behind it', async () => {
    const db = freshDb();
    const [first, behind] = await enqueueOps(db, [statusDraft(1, 'Inactive'), statusDraft(1, 'Offline')]);
    const api = heldPlatform(CONFLICT);
    const { engine } = await engineOver(db, api.execute);
    engine.setOnline(true);
    await vi.waitFor(() => expect(api.sent).toHaveLength(1));
    // an update's "being sent" mark is never written: queue.ts deletes it, the request is already out
    await engine.changed(await discardOps(db, [first!.id], 'c'));
    api.answer();
    await engine.whenIdle();
    await engine.reload();
    await engine.whenIdle();
    expect(api.sent.map((r) => r.opId)).toEqual([first!.id]);
    expect((await db.outbox.get(first!.id))?.status).toBe('conflict');
    expect((await db.outbox.get(behind!.id))?.status).toBe('pending');
  });
});

describe('a retry handed to the engine', () => {
  it('sends a refused op again once, at once, without a reload', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, drafts(1));
    const api = platform(() => REFUSED);
    const { engine } = await engineOver(db, api.execute);
    await drain(engine);
    const reload = vi.spyOn(engine, 'reload');
    await engine.changed(await retryOps(db, [op!.id]));
    // sent without anyone waking the engine (no probe, no whenIdle)
    await vi.waitFor(() => expect(api.sent).toHaveLength(2));
    await engine.whenIdle();
    expect(api.sentIds()).toEqual([op!.id, op!.id]);
    expect((await db.outbox.get(op!.id))?.status).toBe('done');
    expect(reload).not.toHaveBeenCalled();
  });

  it('never brings back an op done since: a record older than its outcome is not sent again', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, drafts(1));
    const api = platform();
    const { engine } = await engineOver(db, api.execute);
    const waiting = (await db.outbox.get(op!.id))!;
    await drain(engine);
    // a retry's record of the op as it was before its outcome (written by a click that raced the send)
    await engine.changed({
      written: [{ ...waiting, updatedAt: new Date(Date.now() + 60_000).toISOString() }],
      removed: [],
    });
    await engine.whenIdle();
    expect(api.sent).toHaveLength(1);
  });

  it('while a reload makes its new state sends every retried op again, those it had taken in too', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(3));
    const api = platform(() => REFUSED);
    const slicing = slicedWith(async (engine) => {
      await engine.changed(await retryOps(db, ids(ops)));
    });
    const engine = await OutboxEngine.open({ db, execute: api.execute, actor: 'c', slicing });
    await drain(engine);
    // offline meanwhile: nothing retried is sent (and settled) before the reload's state takes over
    engine.setOnline(false);
    slicing.arm(engine);
    await engine.reload();
    await drain(engine);
    expect(api.sent).toHaveLength(6);
    expect((await db.outbox.toArray()).every((op) => op.status === 'done')).toBe(true);
  });
});

describe('an edit handed to the engine', () => {
  it('sends the edited values, not the ones first queued', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, drafts(1));
    const api = platform();
    const { engine } = await engineOver(db, api.execute);
    const edited = { kind: 'user.update' as const, userid: 1, changes: { status: 'Offline' } };
    await engine.changed(await editOp(db, op!.id, edited, 'user 1 -> Offline'));
    await drain(engine);
    expect(api.sent.map((r) => r.op)).toEqual([edited]);
  });
});

describe('a resolve handed to the engine', () => {
  it("updates the list without a reload: the merged change goes, checked against the server's values", async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, drafts(1));
    const api = platform(() => CONFLICT);
    const { engine, told } = await engineOver(db, api.execute);
    await drain(engine);
    const before = told.count;
    const reads = vi.spyOn(db, 'transaction');
    const change = await resolveConflicts(db, [op!.id], 'mine', 'c');
    reads.mockClear();
    await engine.changed(change);
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
    expect(told.count).toBeGreaterThan(before);
    await engine.whenIdle();
    expect(api.sent.at(-1)).toMatchObject({ opId: op!.id, base: { status: 'Offline' } });
    expect((await db.outbox.get(op!.id))?.status).toBe('done');
  });

  it("with the server's values lets the change queued behind it on that person go", async () => {
    const db = freshDb();
    const [first, behind] = await enqueueOps(db, [statusDraft(1, 'Inactive'), statusDraft(1, 'Offline')]);
    const api = platform((req) => (req.opId === first!.id ? CONFLICT : undefined));
    const { engine } = await engineOver(db, api.execute);
    await drain(engine);
    expect(api.sentIds()).toEqual([first!.id]);
    await engine.changed(await resolveConflicts(db, [first!.id], 'theirs', 'c'));
    await engine.whenIdle();
    expect(api.sentIds()).toEqual([first!.id, behind!.id]);
  });

  it('twice (a double click) sends the merged change once', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, drafts(1));
    const api = platform(() => CONFLICT);
    const { engine } = await engineOver(db, api.execute);
    await drain(engine);
    await engine.changed(await resolveConflicts(db, [op!.id], 'mine', 'c'));
    await engine.changed(await resolveConflicts(db, [op!.id], 'mine', 'c'));
    await engine.whenIdle();
    expect(api.sentIds()).toEqual([op!.id, op!.id]);
  });
});
