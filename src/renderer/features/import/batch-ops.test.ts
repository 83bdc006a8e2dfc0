/** An import's ops read back for its results: by queue position, a page at a time. */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openOutboxOnlyDb, type OutboxDb } from '../../../shared/replay-queue/db.ts';
import { discardOps, enqueueOps } from '../../../shared/replay-queue/queue.ts';
import { batchOps, keepStoredBatch, runOps } from './batch-ops.ts';

const dbs: OutboxDb[] = [];
afterEach(() => dbs.splice(0).forEach((db) => db.close()));

/** An outbox holding an earlier batch of 3 ops, then the import's batch of `count`. */
async function outboxWithImport(count: number) {
  const db = openOutboxOnlyDb(`batch-ops-${Math.random()}`);
  dbs.push(db);
  const changes = (n: number, from: number) =>
    Array.from({ length: n }, (_, i) => ({
      op: { kind: 'user.update' as const, userid: from + i, changes: { status: 'Inactive' } },
      summary: `user ${from + i}`,
    }));
  await enqueueOps(db, changes(3, 1));
  const ops = await enqueueOps(db, changes(count, 100));
  return { db, ops, seqs: { first: ops[0]!.seq, last: ops[ops.length - 1]!.seq } };
}

describe("reading an import's ops back", () => {
  it('gives every op of the batch, and none of another batch', async () => {
    const { db, ops, seqs } = await outboxWithImport(600);
    const found = await batchOps(
      db,
      ops.map((op) => op.id),
      seqs,
    );
    expect([...found.keys()].sort()).toEqual(ops.map((op) => op.id).sort());
  });

  it('gives every op of the batch once however its ids are sliced, those read by id too', async () => {
    const { db, ops, seqs } = await outboxWithImport(600);
    // the work yields before every id; the last 10 ids are looked for by id (outside the positions given)
    let yields = 0;
    const slicing = { budgetMs: 0, checkEvery: 1, yieldNow: async () => void (yields += 1) };
    const found = await batchOps(
      db,
      ops.map((op) => op.id),
      { first: seqs.first, last: seqs.last - 10 },
      slicing,
    );
    expect(yields).toBeGreaterThan(600);
    expect([...found.keys()].sort()).toEqual(ops.map((op) => op.id).sort());
  });

  it('reads them a page of positions at a time, never one request an op', async () => {
    const { db, ops, seqs } = await outboxWithImport(600);
    const byId = vi.spyOn(db.outbox, 'bulkGet');
    await batchOps(
      db,
      ops.map((op) => op.id),
      seqs,
    );
    expect(byId).not.toHaveBeenCalled();
  });

  it('leaves out an op discarded since, as a read by id would', async () => {
    const { db, ops, seqs } = await outboxWithImport(5);
    await discardOps(db, [ops[2]!.id], 'coordinator');
    const found = await batchOps(
      db,
      ops.map((op) => op.id),
      seqs,
    );
    expect(found.has(ops[2]!.id)).toBe(false);
    expect(found.size).toBe(4);
  });

  it('reads by id an op not where the batch was queued', async () => {
    const { db, ops, seqs } = await outboxWithImport(5);
    await db.outbox.update(ops[1]!.id, { seq: 10_000 });
    expect((await batchOps(db, [ops[1]!.id], seqs)).get(ops[1]!.id)?.summary).toBe('user 101');
  });
});

describe("an import's first count, right after queueing", () => {
  /** The run the Import view keeps: each op on a row of its own. */
  const runOf = (ops: readonly { id: string; seq: number }[]) => ({
    opsByRow: new Map(ops.map((op, i) => [i + 2, [op.id]])),
    seqs: { first: ops[0]!.seq, last: ops[ops.length - 1]!.seq },
  });

  it('counts the batch as it was stored, reading nothing back', async () => {
    const { db, ops } = await outboxWithImport(600);
    const run = runOf(ops);
    keepStoredBatch(run, ops, 7);
    const reads = vi.spyOn(db.outbox, 'where');
    const found = await runOps({ db, version: 7 }, run);
    expect(reads).not.toHaveBeenCalled();
    expect([...found.keys()].sort()).toEqual(ops.map((op) => op.id).sort());
  });

  it('reads the outbox once it has changed since, so a discarded op counts as discarded', async () => {
    const { db, ops } = await outboxWithImport(5);
    const run = runOf(ops);
    keepStoredBatch(run, ops, 7);
    await discardOps(db, [ops[2]!.id], 'coordinator');
    const found = await runOps({ db, version: 8 }, run);
    expect(found.has(ops[2]!.id)).toBe(false);
    expect(found.size).toBe(4);
  });

  it('answers from the batch as stored only once: the next count (Refresh) reads the outbox', async () => {
    const { db, ops } = await outboxWithImport(5);
    const run = runOf(ops);
    keepStoredBatch(run, ops, 7);
    await runOps({ db, version: 7 }, run);
    await discardOps(db, [ops[2]!.id], 'coordinator');
    const found = await runOps({ db, version: 7 }, run);
    expect(found.has(ops[2]!.id)).toBe(false);
  });
});
