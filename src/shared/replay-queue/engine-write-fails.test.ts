/**
 * When the laptop's storage refuses a write while an op is being sent (a full disk, a storage error), the outbox
 * stops and says so, the op waits again, and when it goes again it is checked first: a change the platform may have
 * made is never made twice, and nothing stays "being sent" for good.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReplayOutcome, ReplayRequest, Result } from '../ipc.ts';
import type { OutboxDb } from './db.ts';
import { outboxDbsClosedAfterEach } from '../testing/outbox-dbs.ts';
import { OutboxEngine, type ReplayExecutor } from './engine.ts';
import { enqueueOps } from './queue.ts';

const freshDb = outboxDbsClosedAfterEach('engine-write-fails-test');

const DISK_FULL = new DOMException('The disk is full.', 'QuotaExceededError');

const createDraft = {
  op: { kind: 'groupAccess.grant' as const, siteid: 101, groupid: 5, userid: 1 },
  summary: 'grant',
};
const updateDraft = {
  op: { kind: 'user.update' as const, userid: 1, changes: { status: 'Inactive' } },
  base: { status: 'Active' },
  summary: 'user 1 -> Inactive',
};

/** The platform, answering done and keeping every request it was sent. */
function platform() {
  const requests: ReplayRequest[] = [];
  const execute: ReplayExecutor = async (req) => {
    requests.push(req);
    return { ok: true, value: { status: 'done' } } as Result<ReplayOutcome>;
  };
  return { execute, requests };
}

/** The outbox's writes refused from the `nth` on (1-based), until the returned function is called. */
function storageFailsFrom(db: OutboxDb, nth: number) {
  const bulkPut = db.outbox.bulkPut.bind(db.outbox);
  let writes = 0;
  const spy = vi.spyOn(db.outbox, 'bulkPut').mockImplementation(((...args: Parameters<typeof bulkPut>) => {
    writes++;
    return writes >= nth ? Promise.reject(DISK_FULL) : bulkPut(...args);
  }) as typeof bulkPut);
  return () => spy.mockRestore();
}

const unhandled: unknown[] = [];
const keep = (reason: unknown) => unhandled.push(reason);
process.on('unhandledRejection', keep);
afterEach(() => {
  expect(unhandled.splice(0)).toEqual([]);
});

async function opened(db: OutboxDb, execute: ReplayExecutor) {
  const engine = await OutboxEngine.open({
    db,
    execute,
    actor: 'Coordinator',
    backoff: { baseMs: 1, maxMs: 5 },
  });
  engine.setOnline(true);
  await engine.whenIdle();
  return engine;
}

const flushed = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the outbox when the laptop cannot save', () => {
  it("stops with a message naming the laptop's storage when a sent op's outcome cannot be saved", async () => {
    const db = freshDb();
    await enqueueOps(db, [createDraft]);
    const api = platform();
    const storageBack = storageFailsFrom(db, 2); // the "being sent" mark is saved, the outcome is not
    const engine = await opened(db, api.execute);
    await flushed();
    expect(api.requests).toHaveLength(1);
    expect(engine.state().paused?.message).toMatch(/could not save/i);
    expect(engine.state().inFlight).toBe(0);
    storageBack();
  });

  it('checks first, then records done, when sending again an op whose outcome could not be saved', async () => {
    const db = freshDb();
    await enqueueOps(db, [createDraft]);
    const api = platform();
    const storageBack = storageFailsFrom(db, 2);
    const engine = await opened(db, api.execute);
    await flushed();
    storageBack();
    await engine.sendNow();
    await engine.whenIdle();
    expect(api.requests.map((req) => req.verifyFirst)).toEqual([false, true]);
    expect((await db.outbox.toArray()).map((op) => op.status)).toEqual(['done']);
  });

  it('sends an edit again after its outcome could not be saved, instead of leaving it "being sent"', async () => {
    const db = freshDb();
    await enqueueOps(db, [updateDraft]);
    const api = platform();
    const storageBack = storageFailsFrom(db, 1); // an edit saves no mark: its outcome is the first write
    const engine = await opened(db, api.execute);
    await flushed();
    expect(engine.state().paused).not.toBeNull();
    storageBack();
    await engine.sendNow();
    await engine.whenIdle();
    expect(api.requests).toHaveLength(2);
    expect((await db.outbox.toArray()).map((op) => op.status)).toEqual(['done']);
  });

  it('sends nothing while the "being sent" mark of a new record cannot be saved, and sends it once it can', async () => {
    const db = freshDb();
    await enqueueOps(db, [createDraft]);
    const api = platform();
    const storageBack = storageFailsFrom(db, 1);
    const engine = await opened(db, api.execute);
    await flushed();
    expect(api.requests).toHaveLength(0);
    expect(engine.state().paused).not.toBeNull();
    storageBack();
    await engine.sendNow();
    await engine.whenIdle();
    expect(api.requests.map((req) => req.verifyFirst)).toEqual([false]);
    expect((await db.outbox.toArray()).map((op) => op.status)).toEqual(['done']);
  });
});
