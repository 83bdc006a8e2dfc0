import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { SyncRecordsEvent } from '../../shared/ipc.ts';
import type { CredentialAssignmentRecord, UserRecord } from '../../shared/records.ts';
import { denseRange, writePage } from './ingest.ts';
import { changedRecords, deepEqualJson } from './diff.ts';
import { credentialAssignment, freshDb, trainingAssignment, user } from '../testing/fixtures.ts';

function usersPage(records: UserRecord[], nextStartrow = 2, done = false): SyncRecordsEvent {
  return {
    kind: 'records',
    syncId: 's1',
    pageId: 1,
    taskId: 'users:site1',
    collection: 'users',
    records,
    checkpoint: { taskId: 'users:site1', collection: 'users', nextStartrow, done },
  };
}

describe('writing a sync page', () => {
  it('stores the records and the task checkpoint together', async () => {
    const db = freshDb();
    await writePage(db, usersPage([user(1), user(2)], 1001));
    expect(await db.users.count()).toBe(2);
    expect(await db.syncCheckpoints.get('users:site1')).toMatchObject({ nextStartrow: 1001, done: false });
  });

  it('uses one transaction for the whole page, never one per record', async () => {
    const db = freshDb();
    await db.open();
    const spy = vi.spyOn(db, 'transaction');
    await writePage(db, usersPage([user(1), user(2), user(3)]));
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('reads back only the records a page carries, not those it names as held (a page with one change among 1,000)', async () => {
    const db = freshDb();
    await writePage(db, usersPage(Array.from({ length: 1000 }, (_, i) => user(i + 1))));
    const where = vi.spyOn(db.Table.prototype, 'where');
    const bulkGet = vi.spyOn(db.Table.prototype, 'bulkGet');
    const held = Array.from({ length: 999 }, (_, i) => i + 2);
    const result = await writePage(db, {
      ...usersPage([user(1, { status: 'Inactive' })]),
      unchangedKeys: held,
    });
    expect(result.rowsWritten).toBe(1);
    expect(result.keys).toHaveLength(1000);
    expect(where).not.toHaveBeenCalled();
    expect(bulkGet.mock.calls.map((c) => c[0])).toEqual([[1]]);
    where.mockRestore();
    bulkGet.mockRestore();
  });

  it('reads a few changed records of a page of text keys one by one, without counting the range they span', async () => {
    const db = freshDb();
    const page = (records: CredentialAssignmentRecord[]): SyncRecordsEvent => ({
      kind: 'records',
      syncId: 's',
      pageId: 1,
      taskId: 'credentialAssignments:/credentials/7/assignments',
      collection: 'credentialAssignments',
      records,
      checkpoint: {
        taskId: 'credentialAssignments:/credentials/7/assignments',
        collection: 'credentialAssignments',
        nextStartrow: 1,
        done: true,
      },
    });
    await writePage(
      db,
      page(Array.from({ length: 200 }, (_, i) => credentialAssignment(7, 1000 + i, '2027-01-01'))),
    );
    const count = vi.spyOn(db.Collection.prototype, 'count');
    const bulkGet = vi.spyOn(db.Table.prototype, 'bulkGet');
    const result = await writePage(
      db,
      page([credentialAssignment(7, 1003, '2028-01-01'), credentialAssignment(7, 1190, '2028-01-01')]),
    );
    expect(result.rowsWritten).toBe(2);
    expect(count).not.toHaveBeenCalled();
    expect(bulkGet).toHaveBeenCalledTimes(1);
    count.mockRestore();
    bulkGet.mockRestore();
  });

  it('writes nothing when a resync delivers the same records', async () => {
    const db = freshDb();
    await writePage(db, usersPage([user(1), user(2)]));
    const again = await writePage(db, usersPage([user(1), user(2)]));
    expect(again.rowsWritten).toBe(0);
  });

  it('writes only the records that changed or are new', async () => {
    const db = freshDb();
    await writePage(db, usersPage([user(1), user(2)]));
    const result = await writePage(db, usersPage([user(1), user(2, { status: 'Inactive' }), user(3)]));
    expect(result.rowsWritten).toBe(2);
    expect((await db.users.get(2))?.status).toBe('Inactive');
  });

  it('writes nothing when unchanged training comes again (its derived index field included)', async () => {
    const db = freshDb();
    const page = (): SyncRecordsEvent => ({
      ...usersPage([]),
      collection: 'trainingAssignments',
      records: [trainingAssignment(1, 1, 50, '2026-01-01')],
    });
    await writePage(db, page());
    expect((await writePage(db, page())).rowsWritten).toBe(0);
  });

  it('keeps the last copy of a record repeated within a page', async () => {
    const db = freshDb();
    await writePage(db, usersPage([user(1, { status: 'Active' }), user(1, { status: 'Expired' })]));
    expect((await db.users.get(1))?.status).toBe('Expired');
  });

  it('stores the checkpoint of a page that carries no records', async () => {
    const db = freshDb();
    await writePage(db, usersPage([], 2001, true));
    expect(await db.syncCheckpoints.get('users:site1')).toMatchObject({ done: true });
  });

  it('leaves neither records nor checkpoint when the write fails midway', async () => {
    const db = freshDb();
    await db.open();
    vi.spyOn(db.syncCheckpoints, 'put').mockRejectedValueOnce(new Error('disk full'));
    await expect(writePage(db, usersPage([user(1)]))).rejects.toThrow('disk full');
    expect(await db.users.count()).toBe(0);
    expect(await db.syncCheckpoints.count()).toBe(0);
  });
});

describe('reading the cached copies of a page', () => {
  it('uses one range for a page of nearly contiguous ids', () => {
    expect(denseRange([5, 6, 8, 7])).toEqual({ lower: 5, upper: 8 });
  });

  it('reads key by key when the ids are sparse or not numbers', () => {
    expect(denseRange([1, 1000])).toBeNull();
    expect(denseRange(['7-1', '7-2'])).toBeNull();
  });

  it('finds changes in pages keyed "<credentialid>-<userid>"', async () => {
    const db = freshDb();
    const page = (records: CredentialAssignmentRecord[]): SyncRecordsEvent => ({
      ...usersPage([]),
      collection: 'credentialAssignments',
      records,
    });
    await writePage(
      db,
      page([
        credentialAssignment(7, 1, '01/01/2027'),
        credentialAssignment(7, 20, '01/01/2027'),
        credentialAssignment(70, 5, '01/01/2027'),
      ]),
    );
    const result = await writePage(
      db,
      page([credentialAssignment(7, 1, '01/01/2027'), credentialAssignment(7, 20, '02/01/2027')]),
    );
    expect(result.rowsWritten).toBe(1);
    expect((await db.credentialAssignments.get('7-20'))?.expirationIso).toBe('2027-02-01');
  });

  it('finds changes among sparse and dense pages alike', async () => {
    const db = freshDb();
    await writePage(db, usersPage([user(1), user(2), user(3), user(500)]));
    const result = await writePage(
      db,
      usersPage([user(1), user(2, { status: 'Inactive' }), user(3), user(500, { status: 'Inactive' })]),
    );
    expect(result.rowsWritten).toBe(2);
    const dense = await writePage(db, usersPage([user(1), user(2, { status: 'Expired' }), user(3)]));
    expect(dense.rowsWritten).toBe(1);
  });
});

describe('comparing records', () => {
  it('treats equal nested values as unchanged', () => {
    expect(deepEqualJson({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })).toBe(true);
  });

  it('sees a field added, removed or changed', () => {
    expect(deepEqualJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(deepEqualJson({ a: 1, b: undefined }, { a: 1, c: undefined })).toBe(false);
    expect(deepEqualJson({ a: [1, 2] }, { a: [1, 3] })).toBe(false);
  });

  it('returns new and changed records only', () => {
    expect(changedRecords([{ k: 1 }, { k: 2 }, { k: 3 }], [{ k: 1 }, { k: 9 }, undefined])).toEqual([
      { k: 2 },
      { k: 3 },
    ]);
  });
});
