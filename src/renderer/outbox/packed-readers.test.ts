/**
 * A batch stored packed (shared/replay-queue/packs.ts) reads the same as the batch stored op by op, in every reader of
 * the outbox a person sees: the counts, the Outbox's list and batches, the views' copy of the unsent ops, the overlays,
 * the import's results and a site's unsent edits.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxOp } from '../../shared/outbox.ts';
import { openFieldbookDb, type FieldbookDb } from '../db/index.ts';
import { discardOps, enqueueOps } from '../../shared/replay-queue/queue.ts';
import { outboxOps } from '../../shared/replay-queue/packs.ts';
import { countOutboxNotDone } from '../features/outbox/TabCounts.tsx';
import { countWaiting } from '../features/offline/WorkOffline.tsx';
import { batchesOf } from '../features/outbox/view-model.ts';
import { batchOps } from '../features/import/batch-ops.ts';
import { unsentEditsOfSite } from '../sync/remove-site.ts';
import { memoUnsentOps } from './ops-memo.ts';
import { unsentOpsOf } from './overlays.ts';

const dbs: FieldbookDb[] = [];
afterEach(() => dbs.splice(0).forEach((db) => db.close()));

function freshDb(): FieldbookDb {
  const db = openFieldbookDb(`packed-readers-${Math.random()}`);
  dbs.push(db);
  return db;
}

const drafts = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    op: { kind: 'user.update' as const, userid: i + 1, changes: { status: 'Inactive' } },
    summary: `user ${i + 1} -> Inactive`,
  }));

/** An earlier change done, then an import's 450 changes (packed or not: 5 packs) with one discarded. */
async function outboxAfterImport(packed: boolean) {
  const db = freshDb();
  const [earlier] = await enqueueOps(db, [{ ...drafts(1)[0]!, summary: 'earlier' }]);
  await db.outbox.update(earlier!.id, { status: 'done' });
  const ops = await enqueueOps(db, drafts(450), { batchId: 'import', label: 'Import of staff.csv', packed });
  await discardOps(db, [ops[7]!.id], 'c');
  return { db, ops };
}

/** What a person sees of the ops: queue position, summary, state. */
const seen = (ops: readonly OutboxOp[]) =>
  [...ops].sort((a, b) => a.seq - b.seq).map((op) => [op.seq, op.summary, op.status, op.batchLabel]);

describe('a batch stored packed, as every reader of the outbox shows it', () => {
  it('counts the same changes not done, and the same waiting', async () => {
    const [packed, plain] = await Promise.all([outboxAfterImport(true), outboxAfterImport(false)]);
    expect(await countOutboxNotDone(packed.db)).toBe(449);
    expect(await countOutboxNotDone(plain.db)).toBe(449);
    expect(await countWaiting(packed.db)).toBe(449);
    expect(await countWaiting(plain.db)).toBe(449);
  });

  it('lists the same changes and batches in the Outbox', async () => {
    const [packed, plain] = await Promise.all([outboxAfterImport(true), outboxAfterImport(false)]);
    expect(seen(await outboxOps(packed.db))).toEqual(seen(await outboxOps(plain.db)));
    // the batches as the Outbox words them (the earlier batch's id and time are each outbox's own)
    const batches = async (db: FieldbookDb) =>
      batchesOf(await outboxOps(db)).map(({ label, total, counts }) => ({ label, total, counts }));
    expect(await batches(packed.db)).toEqual(await batches(plain.db));
  });

  it('gives the views the same unsent changes, and the overlays', async () => {
    const [packed, plain] = await Promise.all([outboxAfterImport(true), outboxAfterImport(false)]);
    expect(seen(await memoUnsentOps(packed.db))).toEqual(seen(await memoUnsentOps(plain.db)));
    expect(seen(await unsentOpsOf(packed.db))).toEqual(seen(await unsentOpsOf(plain.db)));
    expect(await unsentOpsOf(packed.db)).toHaveLength(449);
  });

  it("reads the import's results and a site's unsent edits the same", async () => {
    const [packed, plain] = await Promise.all([outboxAfterImport(true), outboxAfterImport(false)]);
    const results = async ({ db, ops }: Awaited<ReturnType<typeof outboxAfterImport>>) => [
      ...(
        await batchOps(
          db,
          ops.map((op) => op.id),
          { first: ops[0]!.seq, last: ops[ops.length - 1]!.seq },
        )
      ).values(),
    ];
    expect(seen(await results(packed))).toEqual(seen(await results(plain)));
    expect(await results(packed)).toHaveLength(449);
    // user 200's change is in a pack the discard left packed
    await packed.db.users.put({ userid: 200, siteid: 5 } as never);
    await plain.db.users.put({ userid: 200, siteid: 5 } as never);
    expect(seen(await unsentEditsOfSite(packed.db, 5))).toEqual(seen(await unsentEditsOfSite(plain.db, 5)));
    expect(await unsentEditsOfSite(packed.db, 5)).toHaveLength(1);
  });

  it("shows a change once, as done, in the views' copy when a crash left it both packed and done", async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(120), { packed: true });
    await db.outbox.add({ ...ops[0]!, status: 'done' });
    const unsent = await memoUnsentOps(db);
    expect(unsent).toHaveLength(119);
    expect(unsent.map((op) => op.id)).not.toContain(ops[0]!.id);
  });

  it("is read again into the views' copy once a packed batch is queued", async () => {
    const db = freshDb();
    await enqueueOps(db, drafts(1));
    expect(await memoUnsentOps(db)).toHaveLength(1);
    await enqueueOps(db, drafts(120), { packed: true });
    expect(await memoUnsentOps(db)).toHaveLength(121);
  });
});
