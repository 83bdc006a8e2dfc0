import 'fake-indexeddb/auto';
import { IDBObjectStore } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import type { OutboxDb } from './db.ts';
import { outboxDbsClosedAfterEach } from '../testing/outbox-dbs.ts';
import { CREATE_WITH_EMAIL } from '../testing/test-ops.ts';
import { clearDone, discardOps, editOp, enqueueOps, resolveConflicts, retryOps } from './queue.ts';

const freshDb = outboxDbsClosedAfterEach('queue-test');

/** A person's create and the e-mail that waits for their new id. */
async function createWithEmail(db: OutboxDb) {
  return enqueueOps(db, CREATE_WITH_EMAIL);
}

describe('discarding while an op is being sent', () => {
  it('leaves the create on its way alone, and the e-mail waiting for its new id with it', async () => {
    const db = freshDb();
    await createWithEmail(db);
    await db.outbox.update('create', { status: 'sending', maybeSent: true });
    expect(await discardOps(db, ['create'], 'c')).toEqual({ written: [], removed: [] });
    expect(await discardOps(db, ['create', 'email'], 'c')).toEqual({ written: [], removed: [] });
    expect((await db.outbox.toArray()).map((op) => [op.id, op.status])).toEqual([
      ['create', 'sending'],
      ['email', 'pending'],
    ]);
    expect(await db.audit.count()).toBe(0);
  });

  it('still discards the other ops asked for', async () => {
    const db = freshDb();
    await createWithEmail(db);
    const [other] = await enqueueOps(db, [
      { op: { kind: 'user.update', userid: 7, changes: { status: 'Inactive' } }, summary: 'user 7' },
    ]);
    await db.outbox.update('create', { status: 'sending', maybeSent: true });
    expect((await discardOps(db, ['create', 'email', other!.id], 'c')).removed).toEqual([other!.id]);
  });
});

describe('discarding an op that is done', () => {
  it('leaves it in the outbox as done, with nothing in the audit log saying it was discarded', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, [
      { op: { kind: 'user.update', userid: 7, changes: { status: 'Inactive' } }, summary: 'user 7' },
    ]);
    await db.outbox.update(op!.id, { status: 'done' });
    expect(await discardOps(db, [op!.id], 'c')).toEqual({ written: [], removed: [] });
    expect((await db.outbox.get(op!.id))?.status).toBe('done');
    expect(await db.audit.count()).toBe(0);
  });
});

describe('resolving an op that is not in conflict (a second click)', () => {
  const conflict = { status: 'conflict' as const, theirs: { status: 'Offline' }, conflictFields: ['status'] };

  it('leaves a queued op queued, and a done op done, with nothing in the audit log', async () => {
    const db = freshDb();
    const [queued, done] = await enqueueOps(db, [
      {
        op: { kind: 'user.update', userid: 1, changes: { status: 'Inactive' } },
        base: { status: 'Active' },
        summary: 'user 1',
      },
      {
        op: { kind: 'user.update', userid: 2, changes: { status: 'Inactive' } },
        base: { status: 'Active' },
        summary: 'user 2',
      },
    ]);
    await db.outbox.update(done!.id, { status: 'done' });
    await resolveConflicts(db, [queued!.id], 'theirs', 'c');
    await resolveConflicts(db, [done!.id], 'mine', 'c');
    expect((await db.outbox.bulkGet([queued!.id, done!.id])).map((op) => op?.status)).toEqual([
      'pending',
      'done',
    ]);
    expect(await db.audit.count()).toBe(0);
  });

  it('a second click after the first resolved it changes nothing more', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, [
      {
        op: { kind: 'user.update', userid: 1, changes: { status: 'Inactive' } },
        base: { status: 'Active' },
        summary: 'user 1',
      },
    ]);
    await db.outbox.update(op!.id, conflict);
    await resolveConflicts(db, [op!.id], 'mine', 'c');
    await resolveConflicts(db, [op!.id], 'theirs', 'c');
    expect(await db.outbox.get(op!.id)).toMatchObject({ status: 'pending', base: { status: 'Offline' } });
  });
});

describe('an op being sent', () => {
  const statusOf = (userid: number, status: string) => ({
    op: { kind: 'user.update' as const, userid, changes: { status } },
    summary: `user ${userid}`,
  });

  it('cannot be edited: the edit is refused rather than lost under the outcome of the request already out', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, [statusOf(1, 'Inactive')]);
    await db.outbox.update(op!.id, { status: 'sending', maybeSent: true });
    expect(
      await editOp(db, op!.id, { kind: 'user.update', userid: 1, changes: { status: 'Offline' } }, 'user 1'),
    ).toEqual({ written: [], removed: [] });
    expect((await db.outbox.get(op!.id))?.op).toEqual({
      kind: 'user.update',
      userid: 1,
      changes: { status: 'Inactive' },
    });
  });

  it('is not sent again by "Retry" while it is on its way', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, [statusOf(1, 'Inactive')]);
    await db.outbox.update(op!.id, { status: 'sending', maybeSent: true });
    await retryOps(db, [op!.id]);
    expect((await db.outbox.get(op!.id))?.status).toBe('sending');
  });
});

describe('queueing', () => {
  it('numbers a later batch after everything already queued, so a later edit of a person goes after the earlier one', async () => {
    const db = freshDb();
    const [first] = await enqueueOps(db, [
      { op: { kind: 'user.update', userid: 1, changes: { status: 'Inactive' } }, summary: 'user 1' },
    ]);
    const [second] = await enqueueOps(db, [
      { op: { kind: 'user.update', userid: 1, changes: { status: 'Active' } }, summary: 'user 1 again' },
    ]);
    expect(second!.seq).toBeGreaterThan(first!.seq);
  });

  /** `count` status changes, one a person */
  const statusChanges = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      op: { kind: 'user.update' as const, userid: i + 1, changes: { status: 'Inactive' } },
      summary: `user ${i + 1}`,
    }));

  it('stores a batch of many slices whole, each op once, numbered in the order queued', async () => {
    const db = freshDb();
    const ops = await enqueueOps(db, statusChanges(1_234));
    const stored = await db.outbox.orderBy('seq').toArray();
    expect(stored.map((op) => op.id)).toEqual(ops.map((op) => op.id));
    expect(stored.map((op) => op.summary)).toEqual(statusChanges(1_234).map((d) => d.summary));
  });

  /** The stores IndexedDB is asked to write a record into while `run` runs, one entry a record. */
  async function recordsStored(run: () => Promise<unknown>): Promise<string[]> {
    const stores: string[] = [];
    const { add, put } = IDBObjectStore.prototype;
    const counted = (write: typeof add) =>
      function (this: InstanceType<typeof IDBObjectStore>, ...args: Parameters<typeof add>) {
        stores.push(this.name);
        return write.apply(this, args);
      };
    const spies = [
      vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(counted(add)),
      vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(counted(put)),
    ];
    try {
      await run();
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
    return stores;
  }

  it("stores a large batch a hundred ops to a record, and nothing besides (each record is the browser's main cost)", async () => {
    const db = freshDb();
    await enqueueOps(db, statusChanges(1)); // the database open, and a queue to number the batch after
    const stores = await recordsStored(() => enqueueOps(db, statusChanges(250), { packed: true }));
    expect(stores).toEqual(Array(3).fill('outboxPacks'));
    expect(await db.outbox.count()).toBe(1);
  });

  it('stores none of a packed batch when one of its packs cannot be stored: nothing is half queued', async () => {
    const db = freshDb();
    await enqueueOps(db, statusChanges(1_234), { packed: true });
    // a pack keyed at a queue position already taken: the numbering below is forced back to collide
    const taken = vi
      .spyOn(db.outboxPacks, 'orderBy')
      .mockImplementationOnce(() => ({ last: async () => undefined }) as never);
    await expect(enqueueOps(db, statusChanges(1_234), { packed: true })).rejects.toThrow();
    taken.mockRestore();
    expect(await db.outboxPacks.count()).toBe(13);
  });

  it('stores none of a batch when one of its slices cannot be stored: nothing is half queued', async () => {
    const db = freshDb();
    const [kept] = await enqueueOps(db, statusChanges(1));
    // the 1,000th op reuses the id of an op already queued: its slice fails, after others were handed over
    const drafts = statusChanges(1_234).map((d, i) => (i === 999 ? { ...d, id: kept!.id } : d));
    await expect(enqueueOps(db, drafts)).rejects.toThrow();
    expect(await db.outbox.count()).toBe(1);
  });

  it('"Clear done" removes the done ops only: every op still to send stays', async () => {
    const db = freshDb();
    const ops = await enqueueOps(
      db,
      [1, 2, 3].map((userid) => ({
        op: { kind: 'user.update' as const, userid, changes: { status: 'Inactive' } },
        summary: `user ${userid}`,
      })),
    );
    await db.outbox.update(ops[0]!.id, { status: 'done' });
    await db.outbox.update(ops[1]!.id, { status: 'needs-review' });
    expect(await clearDone(db)).toBe(1);
    expect((await db.outbox.bulkGet([ops[1]!.id, ops[2]!.id])).map((op) => op?.status)).toEqual([
      'needs-review',
      'pending',
    ]);
  });
});
