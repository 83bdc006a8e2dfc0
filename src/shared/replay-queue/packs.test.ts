/**
 * A large batch stored packed (packs.ts): every op is sent once, none that was discarded, an edit is sent as edited,
 * and what the engine wrote is never read back as queued, whatever state a crash left.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ReplayOutcome, ReplayRequest, Result } from '../ipc.ts';
import type { OutboxOp } from '../outbox.ts';
import type { OutboxDb } from './db.ts';
import { outboxDbsClosedAfterEach } from '../testing/outbox-dbs.ts';
import { statusDrafts } from '../testing/test-ops.ts';
import { OutboxEngine } from './engine.ts';
import { discardOps, editOp, enqueueOps } from './queue.ts';
import { countUnsent, packsOf, readPacks, unpackHolding, withPacked } from './packs.ts';

const freshDb = outboxDbsClosedAfterEach('packs-test');

const drafts = statusDrafts;

/** A platform answering every op done, recording what it was sent. */
function platform() {
  const sent: ReplayRequest[] = [];
  const execute = async (req: ReplayRequest): Promise<Result<ReplayOutcome>> => {
    sent.push(req);
    return { ok: true, value: { status: 'done' } };
  };
  return { execute, sent, sentIds: () => sent.map((r) => r.opId) };
}

/** An engine over `db` that sends until the queue is empty, then stops as a crash would. */
async function sendAll(db: OutboxDb, execute: ReturnType<typeof platform>['execute']): Promise<void> {
  const engine = await OutboxEngine.open({ db, execute, actor: 'c', backoff: { baseMs: 1, maxMs: 5 } });
  engine.setOnline(true);
  await engine.whenIdle();
  await engine.kill();
}

/** Every op the outbox holds, packed or not, by id (each id once when nothing is duplicated). */
async function everyOp(db: OutboxDb): Promise<OutboxOp[]> {
  return withPacked(await db.outbox.toArray(), await readPacks(db));
}

const sorted = (ids: readonly string[]) => [...ids].sort();

describe('a batch queued packed', () => {
  it('is sent op by op, each once, and a reload or a reopening after the outcomes sends none again', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(250), { packed: true });
    const first = platform();
    await sendAll(db, first.execute);
    expect(sorted(first.sentIds())).toEqual(sorted(ops.map((op) => op.id)));
    const again = platform();
    await sendAll(db, again.execute);
    expect(again.sent).toEqual([]);
    expect(await countUnsent(db)).toBe(0);
  });

  it('is counted as the same batch stored op by op', async () => {
    const [packed, plain] = [freshDb(), freshDb()];
    await enqueueOps(packed, drafts(250), { packed: true });
    await enqueueOps(plain, drafts(250));
    expect(await countUnsent(packed)).toBe(await countUnsent(plain));
    const inOrder = async (db: OutboxDb) =>
      (await everyOp(db)).sort((a, b) => a.seq - b.seq).map((op) => [op.seq, op.summary, op.status]);
    expect(await inOrder(packed)).toEqual(await inOrder(plain));
  });

  it('numbers the next batch after its last op, packed or not', async () => {
    const db = freshDb();
    await enqueueOps(db, drafts(1));
    await enqueueOps(db, drafts(150), { packed: true });
    const [next] = await enqueueOps(db, drafts(1));
    expect(next!.seq).toBe(152);
  });

  it('unpacks the pack of an op written: its other ops become records once, one already stored kept as stored', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(250), { packed: true });
    const doneAlready = { ...ops[101]!, status: 'done' as const };
    await db.outbox.add(doneAlready);
    await db.transaction('rw', db.outbox, db.outboxPacks, () => unpackHolding(db, [ops[100]!]));
    expect(await db.outboxPacks.count()).toBe(2);
    expect(await db.outbox.count()).toBe(100);
    expect(await db.outbox.get(ops[101]!.id)).toEqual(doneAlready);
    expect(await everyOp(db)).toHaveLength(250);
  });
});

describe('what a crash may leave: a pack and some of its ops stored as records', () => {
  it('sends every op once: none the engine had finished, nor a parked one, again', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(120), { packed: true });
    // the state one transaction per unpacking rules out, made by hand
    await db.outbox.bulkAdd([
      { ...ops[0]!, status: 'done' },
      { ...ops[1]!, status: 'needs-review' },
    ]);
    const p = platform();
    await sendAll(db, p.execute);
    expect(sorted(p.sentIds())).toEqual(sorted(ops.slice(2).map((op) => op.id)));
    expect((await db.outbox.get(ops[1]!.id))?.status).toBe('needs-review');
    expect(await everyOp(db)).toHaveLength(120);
  });
});

describe('a write that unpacks, stopped before its commit (a crash)', () => {
  it('leaves the pack whole and none of its ops as records: reopened, every op is sent once', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(120), { packed: true });
    const crashed = db.transaction('rw', db.outbox, db.outboxPacks, async () => {
      await unpackHolding(db, [ops[0]!]);
      throw new Error('the window closed');
    });
    await expect(crashed).rejects.toThrow('the window closed');
    expect([await db.outbox.count(), await db.outboxPacks.count()]).toEqual([0, 2]);
    const p = platform();
    await sendAll(db, p.execute);
    expect(sorted(p.sentIds())).toEqual(sorted(ops.map((op) => op.id)));
  });
});

describe('a person writing a packed op', () => {
  it("discards it alone: the pack's other ops stay, each once, and are sent", async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(250), { packed: true });
    // the last op of the first pack
    const change = await discardOps(db, [ops[99]!.id], 'c');
    expect(change.removed).toEqual([ops[99]!.id]);
    expect(await countUnsent(db)).toBe(249);
    expect(await db.audit.count()).toBe(1);
    const p = platform();
    await sendAll(db, p.execute);
    expect(sorted(p.sentIds())).toEqual(sorted(ops.filter((_, i) => i !== 99).map((op) => op.id)));
  });

  it("edits it: the edit is what is sent, once, and the pack's other ops stay once", async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(250), { packed: true });
    const edited = { kind: 'user.update' as const, userid: 6, changes: { status: 'Offline' } };
    const change = await editOp(db, ops[5]!.id, edited, 'user 6 -> Offline');
    expect(change.written.map((op) => op.op)).toEqual([edited]);
    expect(await countUnsent(db)).toBe(250);
    const p = platform();
    await sendAll(db, p.execute);
    expect(p.sent).toHaveLength(250);
    expect(p.sent.find((r) => r.opId === ops[5]!.id)?.op).toEqual(edited);
  });
});

describe("a batch's discard, every op of its packs", () => {
  /** The records a write adds to the outbox table, counted as Dexie makes them. */
  function recordsAdded(db: OutboxDb): () => number {
    let added = 0;
    db.outbox.hook('creating', () => {
      added += 1;
    });
    return () => added;
  }

  const audited = async (db: OutboxDb) => sorted((await db.audit.toArray()).map((entry) => entry.opId));

  it('deletes the packs whole, no op stored on the way, each op discarded once, and none is sent after', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(250), { packed: true });
    const ids = ops.map((op) => op.id);
    const engine = await OutboxEngine.open({ db, execute: platform().execute, actor: 'c' });
    const added = recordsAdded(db);
    const change = await discardOps(db, ids, 'c');
    expect(sorted(change.removed)).toEqual(sorted(ids));
    expect(added()).toBe(0);
    expect([await db.outbox.count(), await db.outboxPacks.count()]).toEqual([0, 0]);
    expect(await audited(db)).toEqual(sorted(ids));
    // the engine that held the batch, told of the discard, and one opened afterwards: nothing is sent
    await engine.changed(change);
    const p = platform();
    const sending = await OutboxEngine.open({ db, execute: p.execute, actor: 'c' });
    for (const e of [engine, sending]) e.setOnline(true);
    await Promise.all([engine.whenIdle(), sending.whenIdle()]);
    await Promise.all([engine.kill(), sending.kill()]);
    expect(p.sent).toEqual([]);
  });

  it('leaves an op on its way to its outcome: its pack is unpacked, the others deleted whole', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(250), { packed: true });
    const onItsWay = ops[150]!;
    const added = recordsAdded(db);
    const change = await discardOps(
      db,
      ops.map((op) => op.id),
      'c',
      { sending: new Set([onItsWay.id]) },
    );
    expect(change.removed).toHaveLength(249);
    expect(change.removed).not.toContain(onItsWay.id);
    // its pack's hundred ops stored, then the 99 others deleted: the op waits for its outcome as a record
    expect(added()).toBe(100);
    expect(await everyOp(db)).toEqual([onItsWay]);
    expect(await db.outboxPacks.count()).toBe(0);
    expect(await audited(db)).toEqual(sorted(change.removed));
  });

  it('discards a pack already started (unpacked by its first outcome): its done and sending ops stay', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(250), { packed: true });
    // the engine's first outcomes in the first pack, as written: the pack unpacked in the same transaction
    await db.transaction('rw', db.outbox, db.outboxPacks, async () => {
      await unpackHolding(db, [ops[0]!]);
      await db.outbox.update(ops[0]!.id, { status: 'done' });
      await db.outbox.update(ops[1]!.id, { status: 'sending' });
    });
    const change = await discardOps(
      db,
      ops.map((op) => op.id),
      'c',
    );
    expect(sorted(change.removed)).toEqual(sorted(ops.slice(2).map((op) => op.id)));
    expect((await everyOp(db)).sort((a, b) => a.seq - b.seq).map((op) => [op.id, op.status])).toEqual([
      [ops[0]!.id, 'done'],
      [ops[1]!.id, 'sending'],
    ]);
    expect(await db.outboxPacks.count()).toBe(0);
    expect(await audited(db)).toEqual(sorted(change.removed));
  });

  it('stopped before its commit (a crash), leaves every pack whole and nothing audited: every op is sent once', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(250), { packed: true });
    // the audit is written after the packs are deleted: its failure stops the discard there
    const closed = () => {
      throw new Error('the window closed');
    };
    db.audit.hook('creating', closed);
    await expect(
      discardOps(
        db,
        ops.map((op) => op.id),
        'c',
      ),
    ).rejects.toThrow();
    expect([await db.outbox.count(), await db.outboxPacks.count(), await db.audit.count()]).toEqual([
      0, 3, 0,
    ]);
    db.audit.hook('creating').unsubscribe(closed);
    const p = platform();
    await sendAll(db, p.execute);
    expect(sorted(p.sentIds())).toEqual(sorted(ops.map((op) => op.id)));
  });
});

describe('packsOf', () => {
  it('packs a hundred ops to a record, in queue order, the last pack holding the rest', () => {
    const ops = Array.from(
      { length: 250 },
      (_, i) => ({ id: `o${i}`, seq: i + 1, batchId: 'b' }) as OutboxOp,
    );
    expect(packsOf(ops).map((p) => [p.first, p.last, p.ops.length])).toEqual([
      [1, 100, 100],
      [101, 200, 100],
      [201, 250, 50],
    ]);
  });
});
