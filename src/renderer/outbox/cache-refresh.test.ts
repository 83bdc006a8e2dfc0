import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openFieldbookDb } from '../db/index.ts';
import { outboxOp, statusOp } from '../../shared/replay-queue/test-ops.ts';
import { applyOutcomeToCache } from './cache-refresh.ts';

let n = 0;
const freshDb = () => openFieldbookDb(`cache-refresh-${++n}`);
const ann = { userid: 1, siteid: 101, username: 'ann', firstname: 'Ann', lastname: 'Lee', employeeid: 'E1', status: 'Active', usertype: 'User', searchKeys: ['ann lee'], sortName: 'lee, ann' };

describe('after a replay, the cache shows what the server confirmed', () => {
  it('updates a user in place, search keys included', async () => {
    const db = freshDb();
    await db.users.put(ann);
    await applyOutcomeToCache(db, outboxOp({ kind: 'user.update', userid: 1, changes: { firstname: 'Anna' } }), { status: 'done' });
    expect(await db.users.get(1)).toMatchObject({ firstname: 'Anna', searchKeys: expect.arrayContaining(['anna lee']) });
  });

  it('caches a created user under the id the server gave', async () => {
    const db = freshDb();
    await applyOutcomeToCache(db, outboxOp({ kind: 'user.create', siteid: 101, fields: { username: 'bo', firstname: 'Bo', lastname: 'Ray' } }), { status: 'done', createdId: 77 });
    expect(await db.users.get(77)).toMatchObject({ username: 'bo', siteid: 101 });
  });

  it('removes a revoked group access and adds a granted one', async () => {
    const db = freshDb();
    await db.groupAccess.put({ id: '5-1', groupid: 5, userid: 1, siteid: 101 });
    await applyOutcomeToCache(db, outboxOp({ kind: 'groupAccess.revoke', siteid: 101, groupid: 5, userid: 1 }), { status: 'done' });
    await applyOutcomeToCache(db, outboxOp({ kind: 'groupAccess.grant', siteid: 101, groupid: 6, userid: 1 }), { status: 'done' });
    expect((await db.groupAccess.toArray()).map((g) => g.id)).toEqual(['6-1']);
  });

  it('stores an assigned credential with its normalised dates', async () => {
    const db = freshDb();
    await applyOutcomeToCache(db, outboxOp({ kind: 'credentialAssignment.create', credentialid: 9, userid: 1, fields: { startdate: '01/15/2026', expirationdate: '2028-06-30' } }), { status: 'done', createdId: '9-1' });
    expect(await db.credentialAssignments.get('9-1')).toMatchObject({ startIso: '2026-01-15', expirationIso: '2028-06-30' });
  });

  it('leaves a user it does not know alone', async () => {
    const db = freshDb();
    await applyOutcomeToCache(db, statusOp(404, 'Inactive'), { status: 'done' });
    expect(await db.users.count()).toBe(0);
  });
});
