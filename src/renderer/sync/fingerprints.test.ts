import 'fake-indexeddb/auto';
import Dexie, { type Table } from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import type {
  PageFingerprint,
  PageFingerprintText,
  SyncFinishedEvent,
  SyncPageEvent,
  SyncRecordsEvent,
  SyncUnchangedEvent,
} from '../../shared/ipc.ts';
import { FINGERPRINT_VERSION, ITEM_HASH_CHARS, readFingerprint } from '../../shared/page-fingerprints.ts';
import { COLLECTIONS, type UserRecord } from '../../shared/records.ts';
import { createSyncController } from './controller.ts';
import { PassFingerprints, SAVE_UNCHANGED_AFTER_MS, takeForeignWrites } from './fingerprints.ts';
import { pruneCollection } from './prune.ts';
import { createSyncStore } from './store.ts';
import { fakeApi } from '../testing/fake-api.ts';
import { freshDb, user } from '../testing/fixtures.ts';

const TASK = 'users:/users';

/** ITEM_HASH_CHARS characters of hash per item, as main makes them: here the item's key and the page's hash. */
const hashesOf = (keys: number[], hash: string) =>
  keys.map((k) => `${hash}-${k}`.padEnd(ITEM_HASH_CHARS, '.').slice(0, ITEM_HASH_CHARS)).join('');

/** A written page: its records, and (when `hash` is not null) the fingerprint main sends with a page's last message. */
function page(
  pageId: number,
  startrow: number,
  records: UserRecord[],
  hash: string | null,
  done = false,
): SyncRecordsEvent {
  const keys = records.map((r) => r.userid);
  return {
    kind: 'records',
    syncId: `sync-${pageId}`,
    pageId,
    taskId: TASK,
    collection: 'users',
    records,
    checkpoint: { taskId: TASK, collection: 'users', nextStartrow: startrow + 995, done },
    fingerprint:
      hash === null
        ? { startrow, hash }
        : { startrow, hash, keys, hashes: hashesOf(keys, hash), version: FINGERPRINT_VERSION },
  };
}

/** A page unchanged as a whole: its keys only, and a fingerprint naming the page. */
function unchanged(
  pageId: number,
  startrow: number,
  keys: number[],
  hash: string,
  done = false,
): SyncUnchangedEvent {
  const { syncId, taskId, checkpoint } = page(pageId, startrow, [], hash, done);
  return {
    kind: 'unchanged',
    syncId,
    pageId,
    taskId,
    checkpoint,
    collection: 'users',
    records: [],
    fingerprint: { startrow, hash },
    unchangedKeys: keys,
  };
}

/** A changed page whose items `known` the cache holds as they are: only the others travel as records. */
function partial(
  pageId: number,
  startrow: number,
  records: UserRecord[],
  known: number[],
  hash: string,
  done = false,
): SyncRecordsEvent {
  const keys = [...known, ...records.map((r) => r.userid)];
  return {
    ...page(pageId, startrow, records, hash, done),
    unchangedKeys: known,
    fingerprint: { startrow, hash, keys, hashes: hashesOf(keys, hash), version: FINGERPRINT_VERSION },
  };
}

function finished(syncId: string, outcome: SyncFinishedEvent['outcome'] = 'completed'): SyncFinishedEvent {
  return {
    syncId,
    outcome,
    requests: 2,
    plannedRequests: 2,
    collections: { users: { state: 'complete', records: 0, pages: 2, total: null } },
  };
}

/**
 * Every table's count() made by `impl`, which may call the real one (`counted`);
 * Dexie's own type for count is the overload with a then-shortcut.
 */
function mockCount(
  db: ReturnType<typeof freshDb>,
  impl: (table: Table, counted: () => Promise<number>) => Promise<number>,
) {
  const real = db.Table.prototype.count as (this: Table) => Promise<number>;
  const fake = function (this: Table) {
    return Dexie.Promise.resolve(impl(this, () => real.call(this)));
  };
  return vi
    .spyOn(db.Table.prototype, 'count')
    .mockImplementation(fake as unknown as typeof db.Table.prototype.count);
}

/**
 * The sizes the last pass left with the sync rows forgotten, as after an interrupted pass or another write: the next
 * pass counts every table.
 */
async function forgetSizes(db: ReturnType<typeof freshDb>) {
  await db.syncCollections.toCollection().modify((row) => {
    delete row.held;
  });
}

function setup() {
  const fake = fakeApi();
  let n = 0;
  fake.respond('sync:start', () => ({ ok: true, value: { syncId: `sync-${++n}`, tasks: [] } }));
  fake.respond('sync:ack', () => ({ ok: true, value: null }));
  fake.respond('sync:fingerprints', () => ({ ok: true, value: null }));
  fake.respond('sync:cancel', () => ({ ok: true, value: null }));
  const db = freshDb();
  const store = createSyncStore();
  const controller = createSyncController(fake.api, db, store, () => new Date('2026-03-01T10:00:00Z'));
  /** the fingerprints sent after the last start, all messages together */
  const sentList = (): PageFingerprint[] => {
    const last = fake.calls.findLastIndex((c) => c.channel === 'sync:start');
    const messages = fake.calls
      .slice(last)
      .filter((c) => c.channel === 'sync:fingerprints')
      .map((c) => c.arg as { fingerprints: PageFingerprintText[]; total?: number });
    const list = messages.flatMap((m) => m.fingerprints);
    const follow = (fake.calls[last]?.arg as { fingerprintsFollow?: true }).fingerprintsFollow === true;
    // the last message, and only the last, says how many they all held (none for a fresh sync, which announces none)
    expect(messages.map((m) => m.total)).toEqual(
      follow ? [...messages.slice(1).map(() => undefined), list.length] : [],
    );
    // as main reads them
    return list.map((f) => readFingerprint(f)).filter((f): f is PageFingerprint => f !== null);
  };
  const sentFingerprints = () =>
    sentList()
      .map((f) => `${f.startrow}:${f.hash}`)
      .sort();
  /** one pass of the given pages, to its end */
  const pass = async (syncId: string, pages: SyncPageEvent[], options: { fresh?: boolean } = {}) => {
    await controller.start(options);
    for (const p of pages) fake.emit('sync:page', { ...p, syncId });
    fake.emit('sync:finished', finished(syncId));
    await controller.idle();
    return store.getState();
  };
  return { fake, db, controller, store, sentFingerprints, sentList, pass };
}

const firstPages = () => [page(1, 1, [user(1), user(2)], 'h1'), page(2, 996, [user(3), user(4)], 'h2', true)];

describe('page fingerprints across syncs', () => {
  it('sends the fingerprint of every page the last pass wrote when the next sync starts', async () => {
    const { pass, sentFingerprints } = setup();
    await pass('sync-1', firstPages());
    await pass('sync-2', []);
    expect(sentFingerprints()).toEqual(['1:h1', '996:h2']);
  });

  it('writes nothing for an unchanged page, and its keys keep its records from being pruned', async () => {
    const { pass, db } = setup();
    await pass('sync-1', firstPages());
    const state = await pass('sync-2', [unchanged(3, 1, [1, 2], 'h1'), page(4, 996, [user(3)], 'h3', true)]);
    expect(state.rowsWritten).toBe(0);
    // user 4 left the second page: the only record removed
    expect(state.rowsRemoved).toBe(1);
    expect(((await db.users.toCollection().primaryKeys()) as number[]).sort()).toEqual([1, 2, 3]);
  });

  it('keeps the fingerprints of every page one message of unchanged pages stands for, and their records', async () => {
    const { pass, db, sentFingerprints } = setup();
    await pass('sync-1', firstPages());
    const both = {
      ...unchanged(3, 1, [1, 2, 3, 4], 'h1', true),
      fingerprint: { startrow: 1, hash: 'h1', also: [996] },
    };
    const state = await pass('sync-2', [both]);
    expect(state.rowsWritten).toBe(0);
    expect(state.rowsRemoved).toBe(0);
    expect(await db.users.count()).toBe(4);
    await pass('sync-3', []);
    expect(sentFingerprints()).toEqual(['1:h1', '996:h2']);
  });

  it('replaces the fingerprint of a page that changed and forgets those of pages no longer read', async () => {
    const { pass, sentFingerprints } = setup();
    await pass('sync-1', firstPages());
    await pass('sync-2', [page(3, 1, [user(1, { status: 'Inactive' }), user(2)], 'h1b', true)]);
    await pass('sync-3', []);
    expect(sentFingerprints()).toEqual(['1:h1b']);
  });

  it("replaces a page's fingerprint in the transaction that writes its changed records, and deletes it with a message that is not the page's last", async () => {
    const { pass, db, fake, controller } = setup();
    await pass('sync-1', firstPages());
    await controller.start();
    fake.emit('sync:page', {
      ...partial(3, 1, [user(1, { status: 'Inactive' })], [2], 'h1b'),
      syncId: 'sync-2',
    });
    await controller.idle();
    // the pass is not over, yet the row already says what the cache holds now
    expect((await db.pageFingerprints.get(`${TASK}@1`))?.hash).toBe('h1b');
    expect(JSON.parse((await db.pageFingerprints.get(`${TASK}@1`))!.keys)).toEqual([2, 1]);
    expect((await db.users.get(1))?.status).toBe('Inactive');
    // the first of a page's two messages: the records of a page half written have no fingerprint
    fake.emit('sync:page', { ...page(4, 996, [user(3, { status: 'Inactive' })], null), syncId: 'sync-2' });
    await controller.idle();
    expect(await db.pageFingerprints.get(`${TASK}@996`)).toBeUndefined();
    expect((await db.users.get(3))?.status).toBe('Inactive');
  });

  it("keeps no fingerprint from a page's first message even when it carries one: the rest of the page is read again next time", async () => {
    const { pass, db, fake, controller } = setup();
    await pass('sync-1', firstPages());
    await controller.start();
    const first = page(3, 1, [user(1, { status: 'Inactive' })], 'h1b');
    fake.emit('sync:page', {
      ...first,
      syncId: 'sync-2',
      checkpoint: { ...first.checkpoint, nextStartrow: 1 },
    });
    await controller.idle();
    expect(await db.pageFingerprints.get(`${TASK}@1`)).toBeUndefined();
    expect((await db.users.get(1))?.status).toBe('Inactive');
  });

  it('saves the checkpoint of an unchanged page behind a written one in the transaction that writes it, the later one last', async () => {
    const { pass, db, fake, controller } = setup();
    await pass('sync-1', firstPages());
    await controller.start();
    const writes = vi.spyOn(db, 'transaction');
    fake.emit('sync:page', { ...page(3, 1, [user(1, { status: 'Inactive' })], 'h1b'), syncId: 'sync-2' });
    fake.emit('sync:page', { ...unchanged(4, 996, [3, 4], 'h2'), syncId: 'sync-2' });
    await controller.idle();
    expect(writes.mock.calls.filter((c) => c[0] === 'rw')).toHaveLength(1);
    expect((await db.syncCheckpoints.get(TASK))?.nextStartrow).toBe(1991);
    expect((await db.users.get(1))?.status).toBe('Inactive');
  });

  it('saves no checkpoint of an unchanged page whose group could not be written: it never passes the page before it', async () => {
    const { pass, db, fake, controller, store } = setup();
    await pass('sync-1', firstPages());
    const before = await db.syncCheckpoints.get(TASK);
    await controller.start();
    vi.spyOn(db.pageFingerprints, 'put').mockRejectedValueOnce(new Error('quota exceeded'));
    fake.emit('sync:page', { ...page(3, 1, [user(1, { status: 'Inactive' })], 'h1b'), syncId: 'sync-2' });
    fake.emit('sync:page', { ...unchanged(4, 996, [3, 4], 'h2'), syncId: 'sync-2' });
    await controller.idle();
    expect(store.getState().error?.message).toMatch(/quota exceeded/);
    expect(await db.syncCheckpoints.get(TASK)).toEqual(before);
    expect((await db.users.get(1))?.status).not.toBe('Inactive');
  });

  it('acknowledges a run of unchanged pages in one message, and a written page with the unchanged one behind it', async () => {
    const { pass, fake, controller } = setup();
    await pass('sync-1', firstPages());
    const before = fake.calls.length;
    await controller.start();
    fake.emit('sync:page', { ...unchanged(3, 1, [1, 2], 'h1'), syncId: 'sync-2' });
    fake.emit('sync:page', { ...unchanged(4, 996, [3, 4], 'h2'), syncId: 'sync-2' });
    fake.emit('sync:page', { ...page(5, 1991, [user(5)], 'h5'), syncId: 'sync-2' });
    fake.emit('sync:page', { ...unchanged(6, 2986, [6], 'h6', true), syncId: 'sync-2' });
    await controller.idle();
    const acks = fake.calls
      .slice(before)
      .filter((c) => c.channel === 'sync:ack')
      .map((c) => c.arg);
    expect(acks).toEqual([
      { syncId: 'sync-2', pageIds: [3, 4] },
      { syncId: 'sync-2', pageIds: [5, 6] },
    ]);
  });

  it('counts the items a changed page did not resend as delivered, so they are not pruned', async () => {
    const { pass, db } = setup();
    await pass('sync-1', firstPages());
    const state = await pass('sync-2', [
      partial(3, 1, [user(1, { status: 'Inactive' })], [2], 'h1b'),
      unchanged(4, 996, [3, 4], 'h2', true),
    ]);
    expect(state.rowsWritten).toBe(1);
    expect(state.rowsRemoved).toBe(0);
    expect(((await db.users.toCollection().primaryKeys()) as number[]).sort()).toEqual([1, 2, 3, 4]);
  });

  it("sends each page's items, keys and hashes, as main listed them", async () => {
    const { pass, sentList } = setup();
    await pass('sync-1', firstPages());
    await pass('sync-2', []);
    const sent = sentList();
    const first = sent.find((f) => f.startrow === 1)!;
    expect(first.keys).toEqual([1, 2]);
    expect(first.hashes).toBe(hashesOf([1, 2], 'h1'));
  });

  it('sends none for a collection something else wrote to (the outbox refreshing a user after replay)', async () => {
    const { pass, db, sentFingerprints } = setup();
    await pass('sync-1', firstPages());
    await db.users.put(user(2, { status: 'Expired' }));
    await pass('sync-2', []);
    expect(sentFingerprints()).toEqual([]);
    await new Promise((r) => setTimeout(r, 10));
    expect(await db.pageFingerprints.count()).toBe(0);
  });

  it('sends none for a collection something else wrote to, even when forgetting its rows failed', async () => {
    const { pass, db, sentFingerprints } = setup();
    await pass('sync-1', firstPages());
    vi.spyOn(db.pageFingerprints, 'where').mockImplementationOnce(() => {
      throw new Error('the database is busy');
    });
    await db.users.put(user(2, { status: 'Expired' }));
    await new Promise((r) => setTimeout(r, 10));
    expect(await db.pageFingerprints.count()).toBe(2);
    await pass('sync-2', []);
    expect(sentFingerprints()).toEqual([]);
  });

  it('saves nothing for a collection written by something else during the pass', async () => {
    const { pass, db, fake, controller, sentFingerprints } = setup();
    await controller.start();
    fake.emit('sync:page', { ...firstPages()[0]!, syncId: 'sync-1' });
    await controller.idle();
    await db.users.put(user(1, { status: 'Expired' }));
    fake.emit('sync:page', { ...firstPages()[1]!, syncId: 'sync-1' });
    fake.emit('sync:finished', finished('sync-1'));
    await controller.idle();
    await pass('sync-2', []);
    expect(sentFingerprints()).toEqual([]);
  });

  it('saves nothing for a collection written by something else during the pass, as a restart finds (which forgets who wrote what)', async () => {
    const { pass, db, fake, controller, sentFingerprints } = setup();
    await controller.start();
    fake.emit('sync:page', { ...firstPages()[0]!, syncId: 'sync-1' });
    await controller.idle();
    await db.users.put(user(3, { status: 'Expired' }));
    fake.emit('sync:page', { ...firstPages()[1]!, syncId: 'sync-1' });
    fake.emit('sync:finished', finished('sync-1'));
    await controller.idle();
    await new Promise((r) => setTimeout(r, 10));
    // the app restarts: the writes noted in memory are gone, only the database remains
    takeForeignWrites(db);
    expect(await db.pageFingerprints.count()).toBe(0);
    await pass('sync-2', []);
    expect(sentFingerprints()).toEqual([]);
  });

  it('sends no fingerprint of a task with a row it cannot read (its pages are compared in full: a task known in part could hide a doubtful item)', async () => {
    const { pass, db, sentFingerprints } = setup();
    await pass('sync-1', firstPages());
    await db.pageFingerprints.update(`${TASK}@1`, { keys: 42 as unknown as string });
    await pass('sync-2', []);
    expect(sentFingerprints()).toEqual([]);
  });

  it('sends a row saved before fingerprints had versions as of none, so main compares its page in full (an update rebuilds it)', async () => {
    const { pass, db, sentList } = setup();
    await pass('sync-1', firstPages());
    await db.pageFingerprints
      .where('key')
      .equals(`${TASK}@1`)
      .modify((row) => {
        delete row.version;
      });
    await pass('sync-2', []);
    expect(sentList().map((f) => [f.startrow, f.version])).toEqual([
      [1, 0],
      [996, FINGERPRINT_VERSION],
    ]);
  });

  it('asks main to start while it reads the stored fingerprints, and writes no page before they are read', async () => {
    const { pass, db, fake, controller, sentFingerprints } = setup();
    await pass('sync-1', firstPages());
    const read = db.pageFingerprints.toArray.bind(db.pageFingerprints);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // (Dexie's toArray returns its own promise type: a plain async function stands in for it)
    vi.spyOn(db.pageFingerprints, 'toArray').mockImplementationOnce((async () => {
      await held;
      return read();
    }) as never);
    const starting = controller.start();
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.channel === 'sync:start')).toHaveLength(2));
    expect((fake.calls.at(-1)!.arg as { fingerprintsFollow?: true }).fingerprintsFollow).toBe(true);
    fake.emit('sync:page', { ...page(3, 1, [user(1, { status: 'Inactive' })], 'h1b'), syncId: 'sync-2' });
    await new Promise((r) => setTimeout(r, 150));
    expect((await db.users.get(1))?.status).toBe('Active');
    release();
    await starting;
    expect(sentFingerprints()).toEqual(['1:h1', '996:h2']);
    await controller.idle();
    expect((await db.users.get(1))?.status).toBe('Inactive');
  });

  it('sends none for a collection whose cache is empty, nor when the user asks for a fresh sync', async () => {
    const { pass, db, sentFingerprints } = setup();
    await pass('sync-1', firstPages());
    await pass('sync-2', [], { fresh: true });
    expect(sentFingerprints()).toEqual([]);
    await db.transaction('rw', db.users, async () => {
      // as if the cache had been emptied by hand: the guard forgets them too, so restore them first
      await db.users.clear();
    });
    await db.pageFingerprints.put({
      key: `${TASK}@1`,
      collection: 'users',
      taskId: TASK,
      startrow: 1,
      hash: 'h1',
      keys: '[1]',
      hashes: hashesOf([1], 'h1'),
    });
    await pass('sync-3', []);
    expect(sentFingerprints()).toEqual([]);
  });

  it('saves no checkpoint of the unchanged pages of a pass that completes (they would be cleared at its end)', async () => {
    const { pass, db } = setup();
    await pass('sync-1', firstPages());
    const saved = vi.spyOn(db.syncCheckpoints, 'bulkPut');
    await pass('sync-2', [unchanged(3, 1, [1, 2], 'h1'), unchanged(4, 996, [3, 4], 'h2', true)]);
    expect(saved).not.toHaveBeenCalled();
    expect(await db.syncCheckpoints.count()).toBe(0);
  });

  it('saves the waiting checkpoints of unchanged pages once the oldest has waited 10 s, so a crash costs at most that much fetching again', async () => {
    const db = freshDb();
    let now = 0;
    const passFingerprints = new PassFingerprints(db, new Set(), () => now);
    const other = (pageId: number, startrow: number, keys: number[]) =>
      ({
        ...unchanged(pageId, startrow, keys, `o${pageId}`),
        taskId: 'users:/other',
        checkpoint: {
          taskId: 'users:/other',
          collection: 'users',
          nextStartrow: startrow + 995,
          done: false,
        },
      }) as ReturnType<typeof unchanged>;
    await passFingerprints.unchanged(unchanged(1, 1, [1, 2], 'h1'));
    now = 6_000;
    await passFingerprints.unchanged(other(2, 1, [7]));
    now = SAVE_UNCHANGED_AFTER_MS - 1;
    await passFingerprints.unchanged(unchanged(3, 996, [3, 4], 'h2'));
    expect(await db.syncCheckpoints.count()).toBe(0);
    now = SAVE_UNCHANGED_AFTER_MS;
    await passFingerprints.unchanged(other(4, 996, [8]));
    expect(
      Object.fromEntries((await db.syncCheckpoints.toArray()).map((c) => [c.taskId, c.nextStartrow])),
    ).toEqual({ [TASK]: 1991, 'users:/other': 1991 });
    // the next ones wait again from their own start
    now = SAVE_UNCHANGED_AFTER_MS + 9_000;
    await passFingerprints.unchanged(unchanged(5, 1991, [5], 'h5'));
    expect((await db.syncCheckpoints.get(TASK))?.nextStartrow).toBe(1991);
  });

  it('resumes after the unchanged pages of a cancelled pass, though their checkpoints were not written one by one', async () => {
    const { pass, fake, controller } = setup();
    await pass('sync-1', firstPages());
    await controller.start();
    fake.emit('sync:page', { ...unchanged(3, 1, [1, 2], 'h1'), syncId: 'sync-2' });
    fake.emit('sync:finished', finished('sync-2', 'cancelled'));
    await controller.idle();
    await controller.start();
    const resume = fake.calls.filter((c) => c.channel === 'sync:start').at(-1)?.arg as {
      checkpoints?: { nextStartrow: number }[];
    };
    expect(resume.checkpoints?.map((c) => c.nextStartrow)).toEqual([996]);
  });
});

describe('pruning and totals without reading every key', () => {
  /** e-mails arrive in a message of their own, under the users task's checkpoint */
  const emailsPage = (pageId: number, emails: [number, number][]): SyncPageEvent => ({
    kind: 'records',
    syncId: `sync-${pageId}`,
    pageId,
    taskId: TASK,
    collection: 'emails',
    records: emails.map(([emailid, userid]) => ({
      emailid,
      userid,
      email: `u${userid}-${emailid}@example.org`,
      status: 'Active',
      isprimary: true,
    })),
    checkpoint: { taskId: TASK, collection: 'users', nextStartrow: 1, done: false },
  });
  const totals = async (db: ReturnType<typeof setup>['db']) =>
    Object.fromEntries((await db.syncCollections.toArray()).map((r) => [r.collection, r.total]));
  const finishedWithEmails = (syncId: string): SyncFinishedEvent => ({
    ...finished(syncId),
    collections: {
      users: finished(syncId).collections.users!,
      emails: { state: 'complete', records: 0, pages: 1, total: null },
    },
  });

  it('reads no key to find nothing to prune when the pass delivered every record the cache holds, and says the total', async () => {
    const { pass, db } = setup();
    await pass('sync-1', firstPages());
    const keyReads = vi.spyOn(db.users, 'toCollection');
    const state = await pass('sync-2', [
      unchanged(3, 1, [1, 2], 'h1'),
      unchanged(4, 996, [3, 4], 'h2', true),
    ]);
    expect(state.rowsRemoved).toBe(0);
    // nor does the compliance history's snapshot: it reads only the people written since the last (history/snapshot.ts)
    expect(keyReads).not.toHaveBeenCalled();
    expect((await totals(db)).users).toBe(4);
  });

  it('handles unchanged pages while the tables are still being counted, and writes no record before the count', async () => {
    const { pass, db, fake, controller } = setup();
    await pass('sync-1', firstPages());
    await forgetSizes(db);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const counts = mockCount(db, async (_table, counted) => {
      const n = await counted();
      await held;
      return n;
    });
    await controller.start();
    fake.emit('sync:page', { ...unchanged(3, 1, [1, 2], 'h1'), syncId: 'sync-2' });
    fake.emit('sync:page', { ...unchanged(4, 996, [3, 4], 'h2'), syncId: 'sync-2' });
    await vi.waitFor(() =>
      expect(
        fake.calls
          .filter((c) => c.channel === 'sync:ack')
          .flatMap((c) => (c.arg as { pageIds: number[] }).pageIds),
      ).toContain(4),
    );
    fake.emit('sync:page', { ...page(5, 1991, [user(5)], 'h5', true), syncId: 'sync-2' });
    // longer than a small page waits for company (GATHER_MS)
    await new Promise((r) => setTimeout(r, 400));
    expect(await db.users.get(5)).toBeUndefined();
    release();
    fake.emit('sync:finished', finished('sync-2'));
    await controller.idle();
    counts.mockRestore();
    expect(await db.users.get(5)).toBeDefined();
    expect((await totals(db)).users).toBe(5);
  });

  it("writes a page once its own table is counted, while another table's count goes on", async () => {
    const { pass, db, fake, controller } = setup();
    await pass('sync-1', firstPages());
    await forgetSizes(db);
    // the training assignments' count never ends in this test
    const counts = mockCount(db, (table, counted) =>
      table.name === 'trainingAssignments' ? new Promise<number>(() => {}) : counted(),
    );
    await controller.start();
    fake.emit('sync:page', { ...page(5, 1991, [user(5)], 'h5'), syncId: 'sync-2' });
    await vi.waitFor(async () => expect(await db.users.get(5)).toBeDefined(), { timeout: 2000 });
    counts.mockRestore();
  });

  it('reads every key as before when the tables could not be counted as the pass began', async () => {
    const { pass, db } = setup();
    await pass('sync-1', firstPages());
    await forgetSizes(db);
    // every count made as the pass begins fails (one per table); later ones work
    let made = 0;
    const counts = mockCount(db, (_table, counted) =>
      ++made <= COLLECTIONS.length ? Promise.reject(new Error('the disk is gone')) : counted(),
    );
    const keyReads = vi.spyOn(db.users, 'toCollection');
    const state = await pass('sync-2', [unchanged(3, 1, [1, 2], 'h1'), page(4, 996, [user(3)], 'h3', true)]);
    expect(keyReads).toHaveBeenCalled();
    expect(state.rowsRemoved).toBe(1);
    expect((await totals(db)).users).toBe(3);
    counts.mockRestore();
  });

  it('counts the records a pass added into the total, and still finds one the server dropped', async () => {
    const { pass, db } = setup();
    await pass('sync-1', firstPages());
    const state = await pass('sync-2', [
      unchanged(3, 1, [1, 2], 'h1'),
      page(4, 996, [user(3), user(5), user(6)], 'h3', true),
    ]);
    expect(state.rowsRemoved).toBe(1);
    expect((await totals(db)).users).toBe(5);
    expect(await db.users.count()).toBe(5);
  });

  it('counts a record two pages of a first sync both hold once in the total', async () => {
    const { pass, db } = setup();
    await pass('sync-1', [
      page(1, 1, [user(1), user(2)], 'h1'),
      page(2, 996, [user(2), user(3)], 'h2', true),
    ]);
    expect((await totals(db)).users).toBe(3);
  });

  it('does not take a record something else added during the pass for one the pass delivered', async () => {
    const { db, fake, controller } = setup();
    await controller.start();
    for (const p of firstPages()) fake.emit('sync:page', { ...p, syncId: 'sync-1' });
    fake.emit('sync:finished', finished('sync-1'));
    await controller.idle();
    await controller.start();
    fake.emit('sync:page', { ...unchanged(3, 1, [1, 2], 'h1'), syncId: 'sync-2' });
    await controller.idle();
    // one more record than the cache held when the pass began, that the server does not have
    await db.users.put(user(99));
    fake.emit('sync:page', { ...unchanged(4, 996, [3, 4], 'h2', true), syncId: 'sync-2' });
    fake.emit('sync:finished', finished('sync-2'));
    await controller.idle();
    expect(((await db.users.toCollection().primaryKeys()) as number[]).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4,
    ]);
    expect((await totals(db)).users).toBe(4);
  });

  it("removes a dropped user's e-mails with the user, and keeps the e-mails' total right", async () => {
    const { db, fake, controller } = setup();
    const run = async (syncId: string, pages: SyncPageEvent[]) => {
      await controller.start();
      for (const p of pages) fake.emit('sync:page', { ...p, syncId });
      fake.emit('sync:finished', finishedWithEmails(syncId));
      await controller.idle();
    };
    await run('sync-1', [
      emailsPage(1, [
        [10, 1],
        [40, 4],
        [41, 4],
      ]),
      ...firstPages(),
    ]);
    expect((await totals(db)).emails).toBe(3);
    await run('sync-2', [unchanged(3, 1, [1, 2], 'h1'), page(4, 996, [user(3)], 'h3', true)]);
    expect((await db.emails.toArray()).map((e) => e.emailid)).toEqual([10]);
    expect((await totals(db)).emails).toBe(1);
  });

  it('deletes a pruned user and their e-mails in one transaction (a crash between the two would leave e-mails of nobody)', async () => {
    const { db } = setup();
    await db.users.bulkPut([user(1), user(4)]);
    await db.emails.bulkPut(
      [10, 40, 41].map((emailid) => ({
        emailid,
        userid: emailid === 10 ? 1 : 4,
        email: `e${emailid}@example.org`,
        status: 'Active',
        isprimary: null,
      })),
    );
    const transactions = vi.spyOn(db, 'transaction');
    expect(await pruneCollection(db, 'users', new Set([1]))).toEqual({ removed: 1, emails: 2 });
    expect(transactions).toHaveBeenCalledTimes(1);
    expect((await db.emails.toArray()).map((e) => e.emailid)).toEqual([10]);
  });
});

describe('the table sizes a complete pass leaves for the next', () => {
  /** the tables counted as a pass starts (the counts are all asked for before start() returns) */
  async function countedAtStart(
    db: ReturnType<typeof freshDb>,
    controller: ReturnType<typeof setup>['controller'],
  ): Promise<string[]> {
    const counted: string[] = [];
    const counts = mockCount(db, (table, real) => (counted.push(table.name), real()));
    await controller.start();
    counts.mockRestore();
    return counted;
  }
  const held = async (db: ReturnType<typeof freshDb>) => (await db.syncCollections.get('users'))?.held;

  it('starts from them instead of counting, and still finds a record the server dropped', async () => {
    const { pass, db, fake, controller, store } = setup();
    await pass('sync-1', firstPages());
    expect(await held(db)).toBe(4);
    const counted = await countedAtStart(db, controller);
    expect(counted).not.toContain('users');
    // other tables this pass never wrote are counted as before
    expect(counted).toContain('trainingAssignments');
    fake.emit('sync:page', { ...unchanged(3, 1, [1, 2], 'h1'), syncId: 'sync-2' });
    fake.emit('sync:page', { ...page(4, 996, [user(3)], 'h3', true), syncId: 'sync-2' });
    fake.emit('sync:finished', finished('sync-2'));
    await controller.idle();
    expect(store.getState().rowsRemoved).toBe(1);
    expect(((await db.users.toCollection().primaryKeys()) as number[]).sort()).toEqual([1, 2, 3]);
    expect(await held(db)).toBe(3);
  });

  it('takes them away as a pass starts: after a pass that never finished, the next counts again', async () => {
    const { pass, db, fake, controller } = setup();
    await pass('sync-1', firstPages());
    await controller.start();
    fake.emit('sync:page', { ...page(5, 1991, [user(5), user(6)], 'h5'), syncId: 'sync-2' });
    await vi.waitFor(async () => expect(await db.users.get(6)).toBeDefined(), { timeout: 2000 });
    // the app is closed here: sync-2 never finishes, and the cache holds 6 users, not 4
    expect(await held(db)).toBeUndefined();
    controller.dispose();
    const restarted = createSyncController(
      fake.api,
      db,
      createSyncStore(),
      () => new Date('2026-03-01T10:00:00Z'),
    );
    expect(await countedAtStart(db, restarted)).toContain('users');
  });

  it('forgets them when something else writes the table, so a record the server never had is still removed after a restart', async () => {
    const { pass, db } = setup();
    await pass('sync-1', firstPages());
    // a record written outside the sync (the outbox's refresh of a user the server has since deleted)
    await db.users.put(user(9));
    await vi.waitFor(async () => expect(await held(db)).toBeUndefined());
    // the app restarts: this window's memory of the write is gone, the database's is not
    takeForeignWrites(db);
    const state = await pass('sync-2', [
      page(3, 1, [user(1), user(2)], 'h1'),
      page(4, 996, [user(3), user(4)], 'h2', true),
    ]);
    expect(state.rowsRemoved).toBe(1);
    expect(await db.users.get(9)).toBeUndefined();
  });

  it('counts a table this window wrote since the last pass, even before that size is forgotten', async () => {
    const { pass, db, controller } = setup();
    await pass('sync-1', firstPages());
    await db.users.put(user(9));
    await vi.waitFor(async () => expect(await held(db)).toBeUndefined());
    // as if the pass started before the guard's forgetting came (it comes after the write's transaction)
    await db.syncCollections.update('users', { held: 4 });
    expect(await countedAtStart(db, controller)).toContain('users');
  });

  it('counts a table whose held size is not a whole number (a damaged row), and takes it away all the same', async () => {
    const { pass, db, controller } = setup();
    await pass('sync-1', firstPages());
    await db.syncCollections.update('users', { held: 2.5 });
    expect(await countedAtStart(db, controller)).toContain('users');
    expect(await held(db)).toBeUndefined();
  });

  it('leaves none for a table something else wrote during the pass', async () => {
    const { db, fake, controller } = setup();
    await controller.start();
    fake.emit('sync:page', { ...page(1, 1, [user(1), user(2)], 'h1'), syncId: 'sync-1' });
    await vi.waitFor(async () => expect(await db.users.get(2)).toBeDefined(), { timeout: 2000 });
    await db.users.put(user(9));
    fake.emit('sync:page', { ...page(2, 996, [user(3)], 'h2', true), syncId: 'sync-1' });
    fake.emit('sync:finished', finished('sync-1'));
    await controller.idle();
    // its keys were read to prune (user 9, which the server did not list, went), and no size is left
    expect(((await db.users.toCollection().primaryKeys()) as number[]).sort()).toEqual([1, 2, 3]);
    expect(await held(db)).toBeUndefined();
  });
});
