/**
 * Ops just queued are handed to the engine (`added`) instead of a reload reading the whole queue back: each is sent
 * once, none that was discarded meanwhile, none twice.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { ReplayOutcome, ReplayRequest, Result } from '../ipc.ts';
import { outboxDbsClosedAfterEach } from '../testing/outbox-dbs.ts';
import { statusDrafts } from '../testing/test-ops.ts';
import { OutboxEngine } from './engine.ts';
import { discardOps, enqueueOps } from './queue.ts';

const freshDb = outboxDbsClosedAfterEach('engine-added-test');

const drafts = statusDrafts;

function platform() {
  const sent: ReplayRequest[] = [];
  const execute = async (req: ReplayRequest): Promise<Result<ReplayOutcome>> => {
    sent.push(req);
    return { ok: true, value: { status: 'done' } };
  };
  return { execute, sent };
}

describe('ops handed to the engine as they are queued', () => {
  it('are each sent once, without the queue being read again', async () => {
    const db = freshDb();
    const api = platform();
    const engine = await OutboxEngine.open({ db, execute: api.execute, actor: 'c' });
    const ops = await enqueueOps(db, drafts(5));
    const read = vi.spyOn(db, 'transaction');
    await engine.added(ops);
    expect(read).not.toHaveBeenCalled();
    engine.setOnline(true);
    await engine.whenIdle();
    expect(api.sent.map((r) => r.opId).sort()).toEqual(ops.map((op) => op.id).sort());
    expect((await db.outbox.toArray()).every((op) => op.status === 'done')).toBe(true);
  });

  it('reach the engine when a reload whose read predates them ends after them', async () => {
    const db = freshDb();
    const api = platform();
    const engine = await OutboxEngine.open({ db, execute: api.execute, actor: 'c' });
    // the reload reads the empty queue, then hands its read back only after the ops were added
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
    vi.spyOn(db, 'transaction').mockImplementationOnce(((...args: unknown[]) =>
      transaction(...args).then(async (read) => {
        await held;
        return read;
      })) as never);
    const reloading = engine.reload();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const ops = await enqueueOps(db, drafts(3));
    await engine.added(ops);
    release();
    await reloading;
    engine.setOnline(true);
    await engine.whenIdle();
    expect(api.sent).toHaveLength(3);
  });

  it('sends nothing again that the engine already sent', async () => {
    const db = freshDb();
    const api = platform();
    const engine = await OutboxEngine.open({ db, execute: api.execute, actor: 'c' });
    const ops = await enqueueOps(db, drafts(3));
    await engine.reload();
    engine.setOnline(true);
    await engine.whenIdle();
    await engine.added(ops);
    await engine.whenIdle();
    expect(api.sent).toHaveLength(3);
    expect((await db.outbox.toArray()).every((op) => op.status === 'done')).toBe(true);
  });

  it('sends none of them that was discarded while they were being handed over', async () => {
    const db = freshDb();
    const api = platform();
    let discarding: Promise<void> | null = null;
    let ops: Awaited<ReturnType<typeof enqueueOps>> = [];
    // at the first yield, the last op of the batch is discarded and the engine told (a reload)
    const yieldNow = async () => {
      if (discarding) return;
      discarding = discardOps(db, [ops.at(-1)!.id], 'c').then(() => engine.reload());
      await discarding;
    };
    const slicing = { budgetMs: 0, checkEvery: 1, yieldNow };
    const engine = await OutboxEngine.open({ db, execute: api.execute, actor: 'c', slicing });
    ops = await enqueueOps(db, drafts(4));
    await engine.added(ops);
    engine.setOnline(true);
    await engine.whenIdle();
    expect(api.sent.map((r) => r.opId).sort()).toEqual(
      ops
        .slice(0, 3)
        .map((op) => op.id)
        .sort(),
    );
    expect(await db.outbox.get(ops.at(-1)!.id)).toBeUndefined();
  });
});
