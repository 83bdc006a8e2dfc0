import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { openFieldbookDb } from '../db/index.ts';
import { outboxOp, statusOp } from '../../shared/testing/test-ops.ts';
import { applyOutcomeToCache, applyOutcomesToCache, createCacheRefresher } from './cache-refresh.ts';

let n = 0;
const freshDb = () => openFieldbookDb(`cache-refresh-${++n}`);
const ann = {
  userid: 1,
  siteid: 101,
  username: 'ann',
  firstname: 'Ann',
  lastname: 'Lee',
  employeeid: 'E1',
  status: 'Active',
  usertype: 'User',
  searchKeys: ['ann lee'],
  sortName: 'lee, ann',
};

describe('after a replay, the cache shows what the server confirmed', () => {
  it('updates a user in place, search keys included', async () => {
    const db = freshDb();
    await db.users.put(ann);
    await applyOutcomeToCache(
      db,
      outboxOp({ kind: 'user.update', userid: 1, changes: { firstname: 'Anna' } }),
      { status: 'done' },
    );
    expect(await db.users.get(1)).toMatchObject({
      firstname: 'Anna',
      searchKeys: expect.arrayContaining(['anna', 'lee']),
    });
  });

  it("takes the server's record an update comes back with, in one write, marked as refreshed from the site", async () => {
    const db = freshDb();
    await db.users.put(ann);
    const writes = [vi.spyOn(db.users, 'put'), vi.spyOn(db.users, 'bulkPut')];
    const after = {
      userid: 1,
      siteid: 101,
      username: 'ann',
      firstname: 'Ann',
      lastname: 'Lee',
      employeeid: '',
      status: 'Inactive',
      usertype: 'Supervisor',
    };
    await applyOutcomeToCache(
      db,
      outboxOp({ kind: 'user.update', userid: 1, changes: { status: 'Inactive' } }),
      { status: 'done', after },
    );
    expect(await db.users.get(1)).toMatchObject({
      status: 'Inactive',
      usertype: 'Supervisor',
      refreshedAt: expect.any(String),
    });
    expect(writes.reduce((sum, spy) => sum + spy.mock.calls.length, 0)).toBe(1);
  });

  it('writes a burst of updated people in one bulk write, the later copy of a person winning, in order with the other outcomes', async () => {
    const db = freshDb();
    await db.users.bulkPut([ann]);
    const bulkPut = vi.spyOn(db.users, 'bulkPut');
    const person = (userid: number, status: string, usertype = 'User') => ({
      userid,
      siteid: 101,
      username: `u${userid}`,
      firstname: 'A',
      lastname: 'B',
      employeeid: '',
      status,
      usertype,
    });
    const update = (userid: number, status: string) =>
      outboxOp({ kind: 'user.update', userid, changes: { status } });
    await applyOutcomesToCache(db, [
      { op: update(1, 'Inactive'), outcome: { status: 'done', after: person(1, 'Inactive') } },
      { op: update(2, 'Inactive'), outcome: { status: 'done', after: person(2, 'Inactive') } },
      { op: update(1, 'Offline'), outcome: { status: 'done', after: person(1, 'Offline') } },
      // a grant's read-back comes after the run: it wins over the run's copy of person 1
      {
        op: outboxOp({ kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 1 }),
        outcome: { status: 'done', readBack: { user: person(1, 'Offline', 'Supervisor') } },
      },
    ]);
    expect(bulkPut).toHaveBeenCalledTimes(1);
    expect(await db.users.get(1)).toMatchObject({ status: 'Offline', usertype: 'Supervisor' });
    expect(await db.users.get(2)).toMatchObject({ status: 'Inactive' });
  });

  it('caches a created user under the id the server gave', async () => {
    const db = freshDb();
    await applyOutcomeToCache(
      db,
      outboxOp({
        kind: 'user.create',
        siteid: 101,
        fields: { username: 'bo', firstname: 'Bo', lastname: 'Ray' },
      }),
      { status: 'done', createdId: 77 },
    );
    expect(await db.users.get(77)).toMatchObject({ username: 'bo', siteid: 101 });
  });

  it('removes a revoked group access and adds a granted one', async () => {
    const db = freshDb();
    await db.groupAccess.put({ id: '5-1', groupid: 5, userid: 1, siteid: 101 });
    await applyOutcomeToCache(
      db,
      outboxOp({ kind: 'groupAccess.revoke', siteid: 101, groupid: 5, userid: 1 }),
      { status: 'done' },
    );
    await applyOutcomeToCache(
      db,
      outboxOp({ kind: 'groupAccess.grant', siteid: 101, groupid: 6, userid: 1 }),
      { status: 'done' },
    );
    expect((await db.groupAccess.toArray()).map((g) => g.id)).toEqual(['6-1']);
  });

  it('stores an assigned credential with its normalised dates', async () => {
    const db = freshDb();
    await applyOutcomeToCache(
      db,
      outboxOp({
        kind: 'credentialAssignment.create',
        credentialid: 9,
        userid: 1,
        fields: { startdate: '01/15/2026', expirationdate: '2028-06-30' },
      }),
      { status: 'done', createdId: '9-1' },
    );
    expect(await db.credentialAssignments.get('9-1')).toMatchObject({
      startIso: '2026-01-15',
      expirationIso: '2028-06-30',
    });
  });

  it('caches a new training assignment as main read it back, under its transcript id and course site', async () => {
    const db = freshDb();
    await db.courses.put({
      courseid: 7,
      siteid: 202,
      coursename: 'Forklift safety',
      coursetype: null,
      status: 'Active',
    });
    const after = {
      transcriptid: 9001,
      userid: 1,
      courseid: 7,
      course_name: 'Forklift safety',
      course_status: 'Not Started',
      due_date: '12/31/2026',
    };
    await applyOutcomeToCache(
      db,
      outboxOp({
        kind: 'trainingAssignment.create',
        userid: 1,
        courseid: 7,
        fields: { duedate: '12/31/2026' },
      }),
      { status: 'done', createdId: 9001, after },
    );
    expect(await db.trainingAssignments.get(9001)).toMatchObject({
      siteid: 202,
      course_name: 'Forklift safety',
      dueIso: '2026-12-31',
      openDueIso: '2026-12-31',
    });
  });

  it('caches nothing half-known when a new training assignment could not be read back', async () => {
    const db = freshDb();
    await applyOutcomeToCache(
      db,
      outboxOp({ kind: 'trainingAssignment.create', userid: 1, courseid: 7, fields: {} }),
      { status: 'done' },
    );
    await applyOutcomeToCache(
      db,
      outboxOp({ kind: 'trainingAssignment.create', userid: 1, courseid: 7, fields: {} }),
      { status: 'done', after: { course_name: 'no ids' } },
    );
    expect(await db.trainingAssignments.count()).toBe(0);
  });

  it('takes the person as the platform holds them after a grant: made a Supervisor, marked refreshed', async () => {
    const db = freshDb();
    await db.users.put(ann);
    const user = {
      ...ann,
      usertype: 'Supervisor',
      email: [{ emailid: 5, email: 'ann@example.test', status: 'Active', isprimary: true }],
    };
    await applyOutcomeToCache(
      db,
      outboxOp({ kind: 'groupAccess.grant', siteid: 101, groupid: 6, userid: 1 }),
      { status: 'done', readBack: { user } },
    );
    expect(await db.users.get(1)).toMatchObject({ usertype: 'Supervisor', refreshedAt: expect.any(String) });
    expect((await db.emails.where('userid').equals(1).toArray()).map((e) => e.email)).toEqual([
      'ann@example.test',
    ]);
  });

  it('takes the status the platform gave a person it created (Offline), not the one sent', async () => {
    const db = freshDb();
    const user = {
      userid: 77,
      siteid: 101,
      username: 'bo',
      firstname: 'Bo',
      lastname: 'Ray',
      status: 'Offline',
      usertype: 'User',
    };
    await applyOutcomeToCache(
      db,
      outboxOp({
        kind: 'user.create',
        siteid: 101,
        fields: { username: 'bo', firstname: 'Bo', lastname: 'Ray', status: 'Active' },
      }),
      { status: 'done', createdId: 77, readBack: { user } },
    );
    expect(await db.users.get(77)).toMatchObject({ status: 'Offline' });
  });

  it('picks up a name changed on the server along with an update', async () => {
    const db = freshDb();
    await db.users.put(ann);
    const after = { ...ann, lastname: 'Leigh', status: 'Inactive' };
    await applyOutcomeToCache(db, statusOp(1, 'Inactive'), { status: 'done', after });
    expect(await db.users.get(1)).toMatchObject({
      lastname: 'Leigh',
      status: 'Inactive',
      sortName: 'leigh, ann',
    });
  });

  it('keeps its own copy when the read-back is unreadable', async () => {
    const db = freshDb();
    await db.users.put(ann);
    await applyOutcomeToCache(
      db,
      outboxOp({ kind: 'groupAccess.grant', siteid: 101, groupid: 6, userid: 1 }),
      { status: 'done', readBack: { user: { userid: 'x' } } },
    );
    expect(await db.users.get(1)).toEqual(ann);
  });

  it('leaves a user it does not know alone', async () => {
    const db = freshDb();
    await applyOutcomeToCache(db, statusOp(404, 'Inactive'), { status: 'done' });
    expect(await db.users.count()).toBe(0);
  });
});

describe('a burst of outcomes refreshes the cache in one transaction', () => {
  const bob = { ...ann, userid: 2, username: 'bob', firstname: 'Bob', searchKeys: ['bob lee'] };

  it('applies outcomes in the order given, so the last change to a record wins', async () => {
    const db = freshDb();
    await db.users.bulkPut([ann, bob]);
    await applyOutcomesToCache(db, [
      {
        op: outboxOp({ kind: 'user.update', userid: 1, changes: { firstname: 'Anna' } }),
        outcome: { status: 'done' },
      },
      { op: statusOp(2, 'Inactive'), outcome: { status: 'done' } },
      {
        op: outboxOp({ kind: 'user.update', userid: 1, changes: { firstname: 'Annie' } }),
        outcome: { status: 'done' },
      },
    ]);
    expect(await db.users.get(1)).toMatchObject({ firstname: 'Annie' });
    expect(await db.users.get(2)).toMatchObject({ status: 'Inactive' });
  });

  it('gathers the outcomes the engine commits together into one transaction', async () => {
    const db = freshDb();
    await db.users.bulkPut([ann, bob]);
    const transaction = vi.spyOn(db, 'transaction');
    const refresher = createCacheRefresher(db);
    refresher.add(statusOp(1, 'Inactive'), { status: 'done' });
    refresher.add(statusOp(2, 'Inactive'), { status: 'done' });
    await refresher.settled();
    expect(transaction).toHaveBeenCalledTimes(1);
    expect((await db.users.toArray()).map((u) => u.status)).toEqual(['Inactive', 'Inactive']);
  });

  it('takes outcomes that arrive while a burst is being written in the next one', async () => {
    const db = freshDb();
    await db.users.bulkPut([ann, bob]);
    const refresher = createCacheRefresher(db);
    refresher.add(statusOp(1, 'Inactive'), { status: 'done' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    refresher.add(statusOp(2, 'Inactive'), { status: 'done' });
    refresher.add(statusOp(1, 'Active'), { status: 'done' });
    await refresher.settled();
    expect(await db.users.get(1)).toMatchObject({ status: 'Active' });
    expect(await db.users.get(2)).toMatchObject({ status: 'Inactive' });
  });

  it('reports a refresh that fails and keeps refreshing what comes after', async () => {
    const db = freshDb();
    await db.users.put(ann);
    const errors: unknown[] = [];
    const refresher = createCacheRefresher(db, (err) => errors.push(err));
    const transaction = vi.spyOn(db, 'transaction').mockRejectedValueOnce(new Error('disk full'));
    refresher.add(statusOp(1, 'Inactive'), { status: 'done' });
    await refresher.settled();
    transaction.mockRestore();
    refresher.add(statusOp(1, 'Inactive'), { status: 'done' });
    await refresher.settled();
    expect(errors).toEqual([new Error('disk full')]);
    expect(await db.users.get(1)).toMatchObject({ status: 'Inactive' });
  });

  it('writes a burst that went back as a whole one outcome at a time, so one bad outcome costs only its own refresh', async () => {
    const db = freshDb();
    await db.users.bulkPut([ann, bob]);
    const errors: unknown[] = [];
    const refresher = createCacheRefresher(db, (err) => errors.push(err));
    const real = db.transaction.bind(db);
    let calls = 0;
    // the burst, then the first outcome on its own, fail; the second outcome on its own goes through
    vi.spyOn(db, 'transaction').mockImplementation(((...args: Parameters<typeof db.transaction>) =>
      ++calls <= 2 ? Promise.reject(new Error('bad record')) : real(...args)) as typeof db.transaction);
    refresher.add(statusOp(1, 'Inactive'), { status: 'done' });
    refresher.add(statusOp(2, 'Inactive'), { status: 'done' });
    await refresher.settled();
    expect(errors).toEqual([new Error('bad record')]);
    expect(await db.users.get(1)).toMatchObject({ status: 'Active' });
    expect(await db.users.get(2)).toMatchObject({ status: 'Inactive' });
  });
});
