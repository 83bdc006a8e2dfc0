/**
 * The packs the window holds in memory: a batch just queued packed is not read back for the views' copy of the unsent
 * ops, and a pack held is never taken for one the store no longer holds.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutboxPack } from '../../shared/outbox.ts';
import { openFieldbookDb, type FieldbookDb } from '../db/index.ts';
import { enqueueOps } from '../../shared/replay-queue/queue.ts';
import { outboxOps } from '../../shared/replay-queue/packs.ts';
import { memoUnsentOps } from './ops-memo.ts';
import { packsAsStored } from './known-packs.ts';

const dbs: FieldbookDb[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  dbs.splice(0).forEach((db) => db.close());
});

function freshDb(): FieldbookDb {
  const db = openFieldbookDb(`known-packs-${Math.random()}`);
  dbs.push(db);
  return db;
}

const drafts = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({
    op: { kind: 'user.update' as const, userid: from + i, changes: { status: 'Inactive' } },
    summary: `user ${from + i} -> Inactive`,
  }));

/** The packs' values read from the store (a read by key or a page of them), counted. */
function packReads(): () => number {
  let reads = 0;
  for (const method of ['get', 'getAll'] as const) {
    const original = IDBObjectStore.prototype[method];
    vi.spyOn(IDBObjectStore.prototype, method).mockImplementation(function (
      this: IDBObjectStore,
      ...args: Parameters<IDBObjectStore['get']>
    ) {
      if (this.name === 'outboxPacks') reads += 1;
      return original.apply(this, args);
    });
  }
  return () => reads;
}

/** The packs as the views' copy takes them, in a read transaction of their own (another window's writes unseen). */
async function packsNow(db: FieldbookDb): Promise<OutboxPack[]> {
  const store = db.backendDB().transaction('outboxPacks', 'readonly').objectStore('outboxPacks');
  return packsAsStored(store, db.memory);
}

/** A write as another window makes it: through a connection of its own, which this window's memory does not hear. */
async function elsewhere(db: FieldbookDb, write: (store: IDBObjectStore) => void): Promise<void> {
  const other = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(db.name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('not opened'));
  });
  const trans = other.transaction('outboxPacks', 'readwrite');
  write(trans.objectStore('outboxPacks'));
  await new Promise((resolve) => (trans.oncomplete = resolve));
  other.close();
}

describe('the packs this window holds', () => {
  it('a batch just queued packed is not read back for the views: its packs are held as committed', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(250), { label: 'Import of staff.csv', packed: true });
    const reads = packReads();
    const unsent = await memoUnsentOps(db);
    expect(reads()).toBe(0);
    expect(unsent.map((op) => op.id)).toEqual(ops.map((op) => op.id));
    expect(unsent).toEqual(await outboxOps(db));
  });

  it('reads the packs it does not hold, once', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(250), { packed: true });
    // another instance over the same database, with a memory of its own: it has held nothing yet
    const fresh = openFieldbookDb(db.name);
    dbs.push(fresh);
    await fresh.open();
    const reads = packReads();
    expect((await packsNow(fresh)).flatMap((pack) => pack.ops.map((op) => op.id))).toEqual(
      ops.map((op) => op.id),
    );
    expect(reads()).toBe(3);
    await packsNow(fresh);
    expect(reads()).toBe(3);
  });

  it('lets go of a pack the store no longer holds', async () => {
    const db = freshDb();
    await enqueueOps(db, drafts(250), { packed: true });
    await elsewhere(db, (store) => store.delete(101));
    expect((await packsNow(db)).map((pack) => pack.first)).toEqual([1, 201]);
  });

  it("reads again a position that another batch's pack took since", async () => {
    const db = freshDb();
    const [first] = await enqueueOps(db, drafts(1), { batchId: 'a', packed: true });
    // its op done and cleared elsewhere, the next batch numbered from the same position
    const other: OutboxPack = {
      first: 1,
      last: 1,
      batchId: 'b',
      ops: [{ ...first!, id: 'op-of-b', batchId: 'b' }],
    };
    await elsewhere(db, (store) => {
      store.delete(1);
      store.add(other);
    });
    expect((await packsNow(db)).map((pack) => pack.ops[0]!.id)).toEqual(['op-of-b']);
  });

  it("reads again a reused position after a delete of this window's was let go of and then aborted", async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, drafts(200), { batchId: 'a', packed: true });
    // this window deletes the first pack, and the write aborts: the pack stays, no longer held
    const aborted = db.transaction('rw', db.outboxPacks, async () => {
      await db.outboxPacks.delete(1);
      throw new Error('the disk is full');
    });
    await expect(aborted).rejects.toThrow('the disk is full');
    // elsewhere, the batch's last hundred ops leave with their pack, and a new batch takes the position
    const other: OutboxPack = {
      first: 101,
      last: 101,
      batchId: 'b',
      ops: [{ ...ops[0]!, id: 'op-of-b', seq: 101, batchId: 'b' }],
    };
    await elsewhere(db, (store) => {
      store.delete(101);
      store.add(other);
    });
    const truth = (await outboxOps(db)).map((op) => op.id);
    expect(truth).toHaveLength(101);
    expect((await memoUnsentOps(db)).map((op) => op.id)).toEqual(truth);
  });
});
