import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { CollectionProgress, SyncFinishedEvent, SyncPageEvent } from '../../shared/ipc.ts';
import type { UserRecord } from '../../shared/records.ts';
import { createSyncController } from './controller.ts';
import { createSyncStore } from './store.ts';
import { readPeopleRows } from '../history/packs.ts';
import { fakeApi } from '../testing/fake-api.ts';
import { freshDb, user } from '../testing/fixtures.ts';

const complete: CollectionProgress = { state: 'complete', records: 0, pages: 1, total: null };

function page(pageId: number, records: UserRecord[], done: boolean, syncId = 'sync-1'): SyncPageEvent {
  return {
    kind: 'records',
    syncId,
    pageId,
    taskId: 'users',
    collection: 'users',
    records,
    checkpoint: { taskId: 'users', collection: 'users', nextStartrow: pageId * 1000 + 1, done },
  };
}

function finished(
  outcome: SyncFinishedEvent['outcome'],
  state: CollectionProgress['state'] = 'complete',
  syncId = 'sync-1',
): SyncFinishedEvent {
  return { syncId, outcome, requests: 1, plannedRequests: 1, collections: { users: { ...complete, state } } };
}

function setup() {
  const fake = fakeApi();
  fake.respond('sync:start', () => ({ ok: true, value: { syncId: 'sync-1', tasks: [] } }));
  fake.respond('sync:ack', () => ({ ok: true, value: null }));
  fake.respond('sync:cancel', () => ({ ok: true, value: null }));
  const db = freshDb();
  const store = createSyncStore();
  const controller = createSyncController(fake.api, db, store, () => new Date('2026-03-01T10:00:00Z'));
  const acks = () =>
    fake.calls
      .filter((c) => c.channel === 'sync:ack')
      .flatMap((c) => (c.arg as { pageIds: number[] }).pageIds);
  return { fake, db, store, controller, acks };
}

describe('a sync driven from the renderer', () => {
  it('acknowledges a page only after its records are stored', async () => {
    const { fake, db, controller, acks } = setup();
    await controller.start();
    let storedAtAck = -1;
    fake.respond('sync:ack', () => {
      void db.users.count().then((n) => (storedAtAck = n));
      return { ok: true, value: null };
    });
    fake.emit('sync:page', page(1, [user(1), user(2)], false));
    await controller.idle();
    expect(acks()).toEqual([1]);
    await vi.waitFor(() => expect(storedAtAck).toBe(2));
  });

  it('writes the pages that waited while it was busy in one transaction, and acknowledges them together', async () => {
    const { fake, db, controller, acks } = setup();
    await controller.start();
    const writes = vi.spyOn(db, 'transaction');
    fake.emit('sync:page', page(1, [user(1)], false));
    fake.emit('sync:page', page(2, [user(2)], false));
    fake.emit('sync:page', page(3, [user(3)], true));
    await controller.idle();
    expect(writes).toHaveBeenCalledTimes(1);
    expect(
      fake.calls.filter((c) => c.channel === 'sync:ack').map((c) => (c.arg as { pageIds: number[] }).pageIds),
    ).toEqual([[1, 2, 3]]);
    expect(acks()).toEqual([1, 2, 3]);
    expect(await db.users.count()).toBe(3);
    expect((await db.syncCheckpoints.get('users'))?.done).toBe(true);
  });

  it("writes a resync's many small changed pages that wait, forty of them, in one transaction (each costs Chromium a clean-up)", async () => {
    const { fake, db, controller, acks } = setup();
    await controller.start();
    const writes = vi.spyOn(db, 'transaction');
    for (let i = 1; i <= 40; i++) fake.emit('sync:page', page(i, [user(i)], i === 40));
    await controller.idle();
    expect(writes).toHaveBeenCalledTimes(1);
    expect(acks()).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await db.users.count()).toBe(40);
  });

  describe('small pages gather for a moment to share a transaction', () => {
    // only setTimeout is faked: the IndexedDB under test runs on setImmediate
    const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const settle = async () => {
      for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    };

    it('writes a few changed records that arrive one after the other together, once no more come within the moment', async () => {
      const { fake, db, controller, acks } = setup();
      await controller.start();
      const writes = vi.spyOn(db, 'transaction');
      fakeClock();
      try {
        fake.emit('sync:page', page(1, [user(1)], false));
        await settle();
        fake.emit('sync:page', page(2, [user(2)], false));
        await settle();
        expect(writes).not.toHaveBeenCalled();
        vi.advanceTimersByTime(150);
        await settle();
      } finally {
        vi.useRealTimers();
      }
      await controller.idle();
      expect(writes).toHaveBeenCalledTimes(1);
      expect(acks()).toEqual([1, 2]);
      expect(await db.users.count()).toBe(2);
    });

    it('does not wait once the sync has finished: no page comes after', async () => {
      const { fake, db, controller, acks } = setup();
      await controller.start();
      fakeClock();
      try {
        fake.emit('sync:page', page(1, [user(1)], true));
        await settle();
        fake.emit('sync:finished', finished('completed'));
        await settle();
        expect(acks()).toEqual([1]);
        expect(await db.users.count()).toBe(1);
      } finally {
        vi.useRealTimers();
      }
      await controller.idle();
    });

    it('writes a page of many records at once, without waiting for company', async () => {
      const { fake, db, controller } = setup();
      await controller.start();
      const writes = vi.spyOn(db, 'transaction');
      fakeClock();
      try {
        fake.emit(
          'sync:page',
          page(
            1,
            Array.from({ length: 600 }, (_, i) => user(i + 1)),
            false,
          ),
        );
        await settle();
        expect(writes).toHaveBeenCalledTimes(1);
      } finally {
        vi.useRealTimers();
      }
      await controller.idle();
    });
  });

  it('stores none of a group it could not store whole, and acknowledges none of it', async () => {
    const { fake, db, store, controller, acks } = setup();
    await db.open();
    await controller.start();
    const put = db.syncCheckpoints.put.bind(db.syncCheckpoints);
    vi.spyOn(db.syncCheckpoints, 'put')
      .mockImplementationOnce(put)
      .mockRejectedValueOnce(new Error('quota exceeded'));
    fake.emit('sync:page', page(1, [user(1)], false));
    fake.emit('sync:page', page(2, [user(2)], false));
    await controller.idle();
    expect(acks()).toEqual([]);
    expect(await db.users.count()).toBe(0);
    expect(await db.syncCheckpoints.count()).toBe(0);
    expect(store.getState().error?.message).toContain('quota exceeded');
  });

  it('still writes the pages after one whose failure could not even be cancelled', async () => {
    const { fake, db, controller, acks } = setup();
    await db.open();
    await controller.start();
    fake.respond('sync:cancel', () => {
      throw new Error('the bridge is gone');
    });
    vi.spyOn(db.syncCheckpoints, 'put').mockRejectedValueOnce(new Error('quota exceeded'));
    fake.emit('sync:page', page(1, [user(1)], false));
    fake.emit('sync:page', page(1, [user(2)], true, 'sync-2'));
    await controller.idle();
    expect(acks()).toEqual([1]);
    expect(await db.users.get(2)).toBeDefined();
  });

  it('does not acknowledge a page it could not store, shows the error and cancels', async () => {
    const { fake, db, store, controller, acks } = setup();
    await db.open();
    await controller.start();
    vi.spyOn(db.syncCheckpoints, 'put').mockRejectedValueOnce(new Error('quota exceeded'));
    fake.emit('sync:page', page(1, [user(1)], false));
    await controller.idle();
    expect(acks()).toEqual([]);
    expect(store.getState().error?.message).toContain('quota exceeded');
    expect(fake.calls.some((c) => c.channel === 'sync:cancel')).toBe(true);
    expect((await db.syncCollections.get('users'))?.lastError?.message).toContain('quota exceeded');
  });

  it('removes nothing after a pass with a page it could not store, though main completed it before the cancel came', async () => {
    const { fake, db, controller } = setup();
    await db.users.bulkPut([user(1), user(2), user(3)]);
    await controller.start();
    const put = db.syncCheckpoints.put.bind(db.syncCheckpoints);
    vi.spyOn(db.syncCheckpoints, 'put')
      .mockImplementationOnce(put)
      .mockRejectedValueOnce(new Error('quota exceeded'));
    // two lists of one collection: the first is written whole; the page of the second that holds
    // users 2 and 3 could not be stored (they were not delivered, yet are still on the server)
    const taskPage = (pageId: number, taskId: string, records: UserRecord[]): SyncPageEvent => ({
      ...page(pageId, records, true),
      taskId,
      checkpoint: { taskId, collection: 'users', nextStartrow: 1001, done: true },
    });
    fake.emit('sync:page', taskPage(1, 'users:a', [user(1)]));
    await controller.idle();
    fake.emit('sync:page', taskPage(2, 'users:b', [user(2), user(3)]));
    fake.emit('sync:finished', finished('completed'));
    await controller.idle();
    expect((await db.users.toCollection().primaryKeys()).sort()).toEqual([1, 2, 3]);
  });

  it('resumes an interrupted pass from its stored checkpoints', async () => {
    const { fake, controller, store } = setup();
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], false));
    fake.emit('sync:finished', finished('cancelled', 'cancelled'));
    await controller.idle();
    await controller.start();
    const second = fake.calls.filter((c) => c.channel === 'sync:start')[1]?.arg as {
      checkpoints?: unknown[];
    };
    expect(second.checkpoints).toEqual([
      { taskId: 'users', collection: 'users', nextStartrow: 1001, done: false },
    ]);
    expect(store.getState().resumed).toBe(true);
  });

  it('reads everything again on "Start a full sync", even after an interrupted pass, and removes what it no longer sees', async () => {
    const { fake, db, controller, store } = setup();
    await db.users.bulkPut([user(1), user(2)]);
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], false));
    fake.emit('sync:finished', finished('cancelled', 'cancelled'));
    await controller.idle();
    await controller.start({ fresh: true });
    const second = fake.calls.filter((c) => c.channel === 'sync:start')[1]?.arg as {
      checkpoints?: unknown[];
    };
    expect(second.checkpoints).toBeUndefined();
    expect(store.getState().resumed).toBe(false);
    fake.emit('sync:page', { ...page(1, [user(1)], true), syncId: 'sync-1' });
    fake.emit('sync:finished', finished('completed'));
    await controller.idle();
    expect(await db.users.toCollection().primaryKeys()).toEqual([1]);
  });

  it('stays running after the final progress event until the last pages are written and the checkpoints cleared', async () => {
    const { fake, db, store, controller } = setup();
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], true));
    fake.emit('sync:progress', {
      syncId: 'sync-1',
      phase: 'completed',
      collection: 'users',
      records: 1,
      pages: 1,
      requests: 1,
      plannedRequests: 1,
      rate: 0,
      total: 1,
      collections: {},
    });
    // no moment shows "completed" next to a "Resume sync" button: the pass is still running
    expect(store.getState().running).toBe(true);
    fake.emit('sync:finished', finished('completed'));
    await controller.idle();
    expect(store.getState()).toMatchObject({ running: false, finished: { outcome: 'completed' } });
    expect(await db.syncCheckpoints.count()).toBe(0);
  });

  it('ends a completed pass as completed even when its day of compliance history cannot be written', async () => {
    const { fake, db, store, controller } = setup();
    vi.spyOn(db.historySyncs, 'add').mockRejectedValue(new Error('QuotaExceededError'));
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], true));
    fake.emit('sync:finished', finished('completed'));
    await controller.idle();
    // the day is a gap in the trend; the sync is not left "running"
    expect(store.getState()).toMatchObject({ running: false, finished: { outcome: 'completed' } });
    expect(await db.users.count()).toBe(1);
    expect(await db.historySyncs.count()).toBe(0);
  });

  it('writes a day of compliance history for a completed pass that read every list, and none when one failed', async () => {
    const { fake, db, controller } = setup();
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], true));
    fake.emit('sync:finished', finished('completed'));
    await controller.idle();
    expect(await db.historySyncs.count()).toBe(1);
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], true));
    fake.emit('sync:finished', finished('completed', 'failed'));
    await controller.idle();
    expect(await db.historySyncs.count()).toBe(1);
  });

  it('says the sync is done before its day of compliance history is written: the coordinator does not wait for it', async () => {
    const { fake, db, store, controller } = setup();
    const order: string[] = [];
    store.subscribe((s, before) => {
      if (before.running && !s.running) order.push('sync done');
    });
    const add = db.historySyncs.add.bind(db.historySyncs);
    vi.spyOn(db.historySyncs, 'add').mockImplementation((row) => {
      order.push('history written');
      return add(row);
    });
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], true));
    fake.emit('sync:finished', finished('completed'));
    await controller.idle();
    expect(order).toEqual(['sync done', 'history written']);
  });

  it("writes the day as its pass left the cache, the next pass's pages waiting while it reads the cache", async () => {
    const { fake, db, store, controller } = setup();
    // a snapshot that takes its time reading the cache
    const read = db.requirements.toArray.bind(db.requirements);
    const slowRead = async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return read();
    };
    vi.spyOn(db.requirements, 'toArray').mockImplementation(slowRead as unknown as typeof read);
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], true));
    fake.emit('sync:finished', finished('completed'));
    // the coordinator starts the next sync as soon as the first says it is done
    await vi.waitFor(() => expect(store.getState().running).toBe(false));
    await controller.start();
    fake.emit('sync:page', page(1, [user(1), user(2)], true, 'sync-2'));
    await controller.idle();
    const first = (await db.historySyncs.orderBy('seq').first())!;
    const people = await readPeopleRows(db, { upTo: first.seq! });
    expect(people.map((p) => p.userid)).toEqual([1]);
    expect(await db.users.count()).toBe(2);
  });

  it("writes the day as its pass left the cache, the next pass's pages not waiting for the day to be made", async () => {
    const { fake, db, store, controller } = setup();
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], true));
    fake.emit('sync:finished', finished('completed'));
    await controller.idle();
    // the next day is slow to make: the history's heads are read only once the next page is stored
    let pageStored = () => {};
    const nextPage = new Promise<void>((resolve) => (pageStored = resolve));
    const bulkGet = db.historyHeads.bulkGet.bind(db.historyHeads);
    const slowly = async (keys: number[]) => {
      await nextPage;
      return bulkGet(keys);
    };
    vi.spyOn(db.historyHeads, 'bulkGet').mockImplementation(slowly as typeof bulkGet);
    const order: string[] = [];
    const add = db.historySyncs.add.bind(db.historySyncs);
    vi.spyOn(db.historySyncs, 'add').mockImplementation((row) => {
      order.push('day written');
      return add(row);
    });
    await controller.start();
    fake.emit('sync:page', page(1, [user(1, { status: 'Inactive' }), user(3)], true));
    fake.emit('sync:finished', finished('completed'));
    await vi.waitFor(() => expect(store.getState().running).toBe(false));
    // the coordinator syncs again at once: its page changes both people back before the day is written
    await controller.start();
    fake.emit('sync:page', page(1, [user(1), user(3, { status: 'Inactive' })], true));
    await vi.waitFor(async () => expect((await db.users.get(3))?.status).toBe('Inactive'));
    order.push('next page stored');
    pageStored();
    await controller.idle();
    expect(order).toEqual(['next page stored', 'day written']);
    const day = (await db.historySyncs.orderBy('seq').last())!;
    const rows = (await readPeopleRows(db, { upTo: day.seq! })).filter((row) => row.seq === day.seq);
    // a row's person fields are their fact's (history/facts.ts `userEntry`): the status is the sixth
    const statuses = rows.map((row) => [row.userid, row.u?.[5]]);
    expect(statuses).toEqual([
      [1, 'Inactive'],
      [3, 'Active'],
    ]);
  });

  it('clears the checkpoints when a pass completes, so the next sync is a full one', async () => {
    const { fake, db, controller } = setup();
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], true));
    fake.emit('sync:finished', finished('completed'));
    await controller.idle();
    expect(await db.syncCheckpoints.count()).toBe(0);
  });

  it('removes users a completed full pass no longer returns', async () => {
    const { fake, db, controller, store } = setup();
    await db.users.bulkPut([user(1), user(2), user(3)]);
    await controller.start();
    fake.emit('sync:page', page(1, [user(1), user(3)], true));
    fake.emit('sync:finished', finished('completed'));
    await controller.idle();
    expect((await db.users.toCollection().primaryKeys()).sort()).toEqual([1, 3]);
    expect(store.getState().rowsRemoved).toBe(1);
  });

  it('removes the e-mails of users a completed full pass no longer returns, and keeps the others', async () => {
    const { fake, db, controller } = setup();
    await db.users.bulkPut([user(1), user(2)]);
    await db.emails.bulkPut([
      { emailid: 11, userid: 1, email: 'one@example.com', status: 'Active', isprimary: null },
      { emailid: 21, userid: 2, email: 'two@example.com', status: 'Active', isprimary: null },
      { emailid: 22, userid: 2, email: 'two.b@example.com', status: 'Active', isprimary: null },
    ]);
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], true));
    fake.emit('sync:finished', finished('completed'));
    await controller.idle();
    expect(await db.emails.toCollection().primaryKeys()).toEqual([11]);
  });

  it('removes nothing after a cancelled pass', async () => {
    const { fake, db, controller } = setup();
    await db.users.bulkPut([user(1), user(2)]);
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], false));
    fake.emit('sync:finished', finished('cancelled', 'cancelled'));
    await controller.idle();
    expect(await db.users.count()).toBe(2);
  });

  it('removes nothing after a resumed pass, even when it completes', async () => {
    const { fake, db, controller } = setup();
    await db.users.bulkPut([user(1), user(2)]);
    await db.syncCheckpoints.put({ taskId: 'users', collection: 'users', nextStartrow: 1001, done: false });
    await controller.start();
    fake.emit('sync:page', page(2, [user(1)], true));
    fake.emit('sync:finished', finished('completed'));
    await controller.idle();
    expect(await db.users.count()).toBe(2);
  });

  it('removes nothing after a pass it did not start and saw only the end of (the window reloaded mid-sync), even when it completes', async () => {
    const { fake, db, controller } = setup();
    await db.users.bulkPut([user(1), user(2), user(3)]);
    // no start: the pages of a sync another load of this window asked for
    fake.emit('sync:page', page(7, [user(3)], true, 'sync-before-reload'));
    fake.emit('sync:finished', finished('completed', 'complete', 'sync-before-reload'));
    await controller.idle();
    expect((await db.users.toCollection().primaryKeys()).sort()).toEqual([1, 2, 3]);
  });

  it('removes nothing after a pass of another sync than the one it started', async () => {
    const { fake, db, controller } = setup();
    await db.users.bulkPut([user(1), user(2)]);
    await controller.start();
    fake.emit('sync:page', page(3, [user(1)], true, 'sync-other'));
    fake.emit('sync:finished', finished('completed', 'complete', 'sync-other'));
    await controller.idle();
    expect(await db.users.count()).toBe(2);
  });

  it('records when each collection was last synced, and its total for next time', async () => {
    const { fake, db, controller } = setup();
    await controller.start();
    fake.emit('sync:page', page(1, [user(1), user(2)], true));
    fake.emit('sync:finished', finished('completed'));
    await controller.idle();
    expect(await db.syncCollections.get('users')).toMatchObject({
      lastSyncedAt: '2026-03-01T10:00:00.000Z',
      total: 2,
      lastError: null,
    });
    await controller.start();
    const next = fake.calls.filter((c) => c.channel === 'sync:start')[1]?.arg as {
      previousTotals?: Record<string, number>;
    };
    expect(next.previousTotals).toMatchObject({ users: 2 });
  });

  it('keeps the error of a failed collection for the sync screen', async () => {
    const { fake, db, controller } = setup();
    await controller.start();
    fake.emit('sync:finished', {
      syncId: 'sync-1',
      outcome: 'completed',
      requests: 1,
      plannedRequests: 1,
      collections: {
        moduleAccess: {
          state: 'failed',
          records: 0,
          pages: 0,
          total: null,
          error: { code: 'access-denied', message: 'No access to that feature.' },
        },
      },
    });
    await controller.idle();
    expect((await db.syncCollections.get('moduleAccess'))?.lastError?.code).toBe('access-denied');
  });

  it('reports a sync that cannot start', async () => {
    const { fake, store, controller } = setup();
    fake.respond('sync:start', () => ({
      ok: false,
      error: { code: 'token-rejected', message: 'The site does not accept this token.' },
    }));
    await controller.start();
    expect(store.getState()).toMatchObject({ running: false, error: { code: 'token-rejected' } });
  });

  it('is running from the click on: the last outcome leaves the screen at once, and a second click starts no second pass', async () => {
    const { fake, store, controller } = setup();
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], true));
    fake.emit('sync:finished', finished('completed'));
    await vi.waitFor(() => expect(store.getState().finished?.outcome).toBe('completed'));
    const first = controller.start();
    // before anything is awaited: no "Sync completed" left beside a pass that has begun
    expect(store.getState()).toMatchObject({ running: true, finished: null });
    const second = controller.start();
    await Promise.all([first, second]);
    expect(fake.calls.filter((c) => c.channel === 'sync:start')).toHaveLength(2);
  });
});

describe('switching profile during a sync', () => {
  it('still writes the pages already received into the old cache, without touching the shown state', async () => {
    const { fake, db, store, controller } = setup();
    await controller.start();
    fake.emit('sync:page', page(1, [user(1)], false));
    controller.dispose();
    store.setState({ rowsWritten: 0, pagesWritten: 0 });
    await controller.idle();
    expect(await db.users.count()).toBe(1);
    expect(store.getState().pagesWritten).toBe(0);
  });

  it('ignores pages that arrive after it is disposed', async () => {
    const { fake, db, controller } = setup();
    controller.dispose();
    fake.emit('sync:page', page(1, [user(1)], false));
    await controller.idle();
    expect(await db.users.count()).toBe(0);
  });
});
