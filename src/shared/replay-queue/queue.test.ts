import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openOutboxOnlyDb, type OutboxDb } from './db.ts';
import { discardOps, enqueueOps, resolveConflicts } from './queue.ts';

let dbCount = 0;
const dbs: OutboxDb[] = [];
function freshDb(): OutboxDb {
  const db = openOutboxOnlyDb(`queue-test-${++dbCount}`);
  dbs.push(db);
  return db;
}
afterEach(() => dbs.splice(0).forEach((db) => db.close()));

/** A person's create and the e-mail that waits for their new id. */
async function createWithEmail(db: OutboxDb) {
  return enqueueOps(db, [
    { id: 'create', op: { kind: 'user.create', siteid: 101, fields: { username: 'bo', firstname: 'Bo', lastname: 'Ray' } }, summary: 'create bo' },
    { id: 'email', op: { kind: 'email.add', userid: 0, email: 'bo@example.com' }, dependsOn: ['create'], bindings: [{ fromOp: 'create', field: 'userid' }], summary: 'add e-mail' },
  ]);
}

describe('discarding while an op is being sent', () => {
  it('leaves the create on its way alone, and the e-mail waiting for its new id with it', async () => {
    const db = freshDb();
    await createWithEmail(db);
    await db.outbox.update('create', { status: 'sending', maybeSent: true });
    expect(await discardOps(db, ['create'], 'c')).toEqual([]);
    expect(await discardOps(db, ['create', 'email'], 'c')).toEqual([]);
    expect((await db.outbox.toArray()).map((op) => [op.id, op.status])).toEqual([['create', 'sending'], ['email', 'pending']]);
    expect(await db.audit.count()).toBe(0);
  });

  it('still discards the other ops asked for', async () => {
    const db = freshDb();
    await createWithEmail(db);
    const [other] = await enqueueOps(db, [{ op: { kind: 'user.update', userid: 7, changes: { status: 'Inactive' } }, summary: 'user 7' }]);
    await db.outbox.update('create', { status: 'sending', maybeSent: true });
    expect(await discardOps(db, ['create', 'email', other!.id], 'c')).toEqual([other!.id]);
  });
});

describe('discarding an op that is done', () => {
  it('leaves it in the outbox as done, with nothing in the audit log saying it was discarded', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, [{ op: { kind: 'user.update', userid: 7, changes: { status: 'Inactive' } }, summary: 'user 7' }]);
    await db.outbox.update(op!.id, { status: 'done' });
    expect(await discardOps(db, [op!.id], 'c')).toEqual([]);
    expect((await db.outbox.get(op!.id))?.status).toBe('done');
    expect(await db.audit.count()).toBe(0);
  });
});

describe('resolving an op that is not in conflict (a second click)', () => {
  const conflict = { status: 'conflict' as const, theirs: { status: 'Offline' }, conflictFields: ['status'] };

  it('leaves a queued op queued, and a done op done, with nothing in the audit log', async () => {
    const db = freshDb();
    const [queued, done] = await enqueueOps(db, [
      { op: { kind: 'user.update', userid: 1, changes: { status: 'Inactive' } }, base: { status: 'Active' }, summary: 'user 1' },
      { op: { kind: 'user.update', userid: 2, changes: { status: 'Inactive' } }, base: { status: 'Active' }, summary: 'user 2' },
    ]);
    await db.outbox.update(done!.id, { status: 'done' });
    await resolveConflicts(db, [queued!.id], 'theirs', 'c');
    await resolveConflicts(db, [done!.id], 'mine', 'c');
    expect((await db.outbox.bulkGet([queued!.id, done!.id])).map((op) => op?.status)).toEqual(['pending', 'done']);
    expect(await db.audit.count()).toBe(0);
  });

  it('a second click after the first resolved it changes nothing more', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, [{ op: { kind: 'user.update', userid: 1, changes: { status: 'Inactive' } }, base: { status: 'Active' }, summary: 'user 1' }]);
    await db.outbox.update(op!.id, conflict);
    await resolveConflicts(db, [op!.id], 'mine', 'c');
    await resolveConflicts(db, [op!.id], 'theirs', 'c');
    expect(await db.outbox.get(op!.id)).toMatchObject({ status: 'pending', base: { status: 'Offline' } });
  });
});
