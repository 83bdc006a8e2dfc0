import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { CollectionProgress, SyncFinishedEvent } from '../../shared/ipc.ts';
import { collectionRows, prunePass, saveCollectionRows } from './finish.ts';
import { newPass, preparePass, recordPage } from './pass.ts';
import { markSyncTransaction } from './fingerprints.ts';
import { freshDb, user } from '../testing/fixtures.ts';

const complete: CollectionProgress = { state: 'complete', records: 1, pages: 1, total: null };
const finished = (
  outcome: SyncFinishedEvent['outcome'] = 'completed',
  state: CollectionProgress['state'] = 'complete',
): SyncFinishedEvent => ({
  syncId: 'sync-1',
  outcome,
  requests: 1,
  plannedRequests: 1,
  collections: { users: { ...complete, state } },
});

/** a pass that delivered user 1 only, its one task done */
async function passThatSaw(db: ReturnType<typeof freshDb>, resumed: boolean) {
  const p = newPass(db, resumed);
  p.syncId = 'sync-1';
  recordPage(
    p,
    {
      kind: 'records',
      syncId: 'sync-1',
      pageId: 1,
      taskId: 'users',
      collection: 'users',
      records: [user(1)],
      checkpoint: { taskId: 'users', collection: 'users', nextStartrow: 2, done: true },
    },
    {
      keys: [1],
      inserted: 0,
      rowsWritten: 0,
      changes: [],
    } as never,
  );
  return p;
}

describe('closing a pass', () => {
  it('removes what a complete fresh pass no longer saw', async () => {
    const db = freshDb();
    await db.users.bulkPut([user(1), user(2)]);
    expect(await prunePass(db, await passThatSaw(db, false), finished())).toBe(1);
    expect(await db.users.toCollection().primaryKeys()).toEqual([1]);
  });

  it('removes nothing at the end of a pass it only adopted (a reload mid-sync: it saw part of the pages)', async () => {
    const db = freshDb();
    await db.users.bulkPut([user(1), user(2)]);
    expect(await prunePass(db, await passThatSaw(db, true), finished())).toBe(0);
    expect(await db.users.count()).toBe(2);
  });

  it('removes nothing after a pass that was cancelled or broke', async () => {
    const db = freshDb();
    await db.users.bulkPut([user(1), user(2)]);
    expect(await prunePass(db, await passThatSaw(db, false), finished('cancelled', 'cancelled'))).toBe(0);
    const broken = await passThatSaw(db, false);
    broken.broken = true;
    expect(await prunePass(db, broken, finished())).toBe(0);
    expect(await db.users.count()).toBe(2);
  });

  it('keeps the last synced time of a collection that did not complete, and records its error', async () => {
    const db = freshDb();
    await db.syncCollections.put({
      collection: 'users',
      lastSyncedAt: '2026-01-01T00:00:00.000Z',
      total: 5,
      lastError: null,
    });
    const error = { code: 'network' as const, message: 'offline' };
    const rows = await collectionRows(
      db,
      await passThatSaw(db, false),
      { ...finished('failed', 'failed'), collections: { users: { ...complete, state: 'failed', error } } },
      '2026-02-01T00:00:00.000Z',
    );
    expect(rows).toEqual([
      { collection: 'users', lastSyncedAt: '2026-01-01T00:00:00.000Z', lastError: error, total: 5 },
    ]);
  });
});

describe('the size a complete pass leaves for the next one', () => {
  /** a complete pass that delivered user 1, with the tables counted as it began */
  async function countedPass(db: ReturnType<typeof freshDb>) {
    const p = newPass(db, false, { sizes: { held: {} } });
    p.syncId = 'sync-1';
    await p.sizes!.counted(['users']);
    recordPage(
      p,
      {
        kind: 'records',
        syncId: 'sync-1',
        pageId: 1,
        taskId: 'users',
        collection: 'users',
        records: [user(1)],
        checkpoint: { taskId: 'users', collection: 'users', nextStartrow: 2, done: true },
      },
      {
        keys: [1],
        inserted: 1,
        rowsWritten: 1,
        changes: [],
      } as never,
    );
    // the page's write, as the sync makes it (a write from outside would forget the size: fingerprints.ts)
    await db.transaction('rw', db.users, async () => {
      markSyncTransaction(db);
      await db.users.put(user(1));
    });
    return p;
  }

  it('is saved when only the sync wrote the table', async () => {
    const db = freshDb();
    const p = await countedPass(db);
    await saveCollectionRows(db, p, await collectionRows(db, p, finished(), '2026-02-01T00:00:00.000Z'));
    expect((await db.syncCollections.get('users'))?.held).toBe(1);
  });

  it('is not saved when something else wrote the table after the rows were worked out, before they were saved', async () => {
    const db = freshDb();
    const p = await countedPass(db);
    const rows = await collectionRows(db, p, finished(), '2026-02-01T00:00:00.000Z');
    // the outbox's refresh after a replay adds a person; its guard forgets the size at once
    p.fingerprints.taint('users');
    await saveCollectionRows(db, p, rows);
    expect(await db.syncCollections.get('users')).not.toHaveProperty('held');
  });
});

describe('starting a pass', () => {
  it('resumes when checkpoints are stored, and starts from the latest sync time and the totals', async () => {
    const db = freshDb();
    await db.syncCheckpoints.put({ taskId: 'users', collection: 'users', nextStartrow: 101, done: false });
    await db.syncCollections.bulkPut([
      { collection: 'users', lastSyncedAt: '2026-01-02T00:00:00.000Z', total: 40, lastError: null },
      { collection: 'emails', lastSyncedAt: '2026-01-03T00:00:00.000Z', total: 12, lastError: null },
    ]);
    const starting = await preparePass(db, () => undefined);
    expect(starting.pass.resumed).toBe(true);
    expect(starting.pass.previousSyncAt).toBe('2026-01-03T00:00:00.000Z');
    expect(starting.previousTotals).toEqual({ users: 40, emails: 12 });
    expect(await starting.fingerprintsToSend).toEqual([]);
  });

  it('is a fresh pass with no checkpoints, and knows which tables are empty', async () => {
    const db = freshDb();
    await db.users.put(user(1));
    const starting = await preparePass(db, () => undefined);
    expect(starting.pass.resumed).toBe(false);
    expect(starting.pass.knownEmpty.has('users')).toBe(false);
    expect(starting.pass.knownEmpty.has('credentialAssignments')).toBe(true);
  });
});
