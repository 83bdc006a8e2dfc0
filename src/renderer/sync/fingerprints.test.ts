import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { PageFingerprint, SyncFinishedEvent, SyncPageEvent } from '../../shared/ipc.ts';
import type { UserRecord } from '../../shared/records.ts';
import { createSyncController } from './controller.ts';
import { createSyncStore } from './store.ts';
import { fakeApi } from '../testing/fake-api.ts';
import { freshDb, user } from '../testing/fixtures.ts';

const TASK = 'users:/users';

function page(pageId: number, startrow: number, records: UserRecord[], hash: string | null, done = false): SyncPageEvent {
  return {
    syncId: `sync-${pageId}`, pageId, taskId: TASK, collection: 'users', records,
    checkpoint: { taskId: TASK, collection: 'users', nextStartrow: startrow + 995, done },
    fingerprint: { startrow, hash },
  };
}

function unchanged(pageId: number, startrow: number, keys: number[], hash: string, done = false): SyncPageEvent {
  return { ...page(pageId, startrow, [], hash, done), unchangedKeys: keys };
}

function finished(syncId: string, outcome: SyncFinishedEvent['outcome'] = 'completed'): SyncFinishedEvent {
  return { syncId, outcome, requests: 2, plannedRequests: 2, collections: { users: { state: 'complete', records: 0, pages: 2, total: null } } };
}

function setup() {
  const fake = fakeApi();
  let n = 0;
  fake.respond('sync:start', () => ({ ok: true, value: { syncId: `sync-${++n}`, tasks: [] } }));
  fake.respond('sync:ack', () => ({ ok: true, value: null }));
  fake.respond('sync:cancel', () => ({ ok: true, value: null }));
  const db = freshDb();
  const store = createSyncStore();
  const controller = createSyncController(fake.api, db, store, () => new Date('2026-03-01T10:00:00Z'));
  const sentFingerprints = () => {
    const starts = fake.calls.filter((c) => c.channel === 'sync:start');
    return ((starts.at(-1)?.arg as { fingerprints?: PageFingerprint[] }).fingerprints ?? []).map((f) => `${f.startrow}:${f.hash}`).sort();
  };
  /** one pass of the given pages, to its end */
  const pass = async (syncId: string, pages: SyncPageEvent[], options: { fresh?: boolean } = {}) => {
    await controller.start(options);
    for (const p of pages) fake.emit('sync:page', { ...p, syncId });
    fake.emit('sync:finished', finished(syncId));
    await controller.idle();
    return store.getState();
  };
  return { fake, db, controller, sentFingerprints, pass };
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

  it('replaces the fingerprint of a page that changed and forgets those of pages no longer read', async () => {
    const { pass, sentFingerprints } = setup();
    await pass('sync-1', firstPages());
    await pass('sync-2', [page(3, 1, [user(1, { status: 'Inactive' }), user(2)], 'h1b', true)]);
    await pass('sync-3', []);
    expect(sentFingerprints()).toEqual(['1:h1b']);
  });

  it('forgets a page\'s fingerprint in the transaction that writes its changed records', async () => {
    const { pass, db, fake, controller } = setup();
    await pass('sync-1', firstPages());
    await controller.start();
    fake.emit('sync:page', { ...page(3, 1, [user(1, { status: 'Inactive' })], null), syncId: 'sync-2' });
    await controller.idle();
    // the pass is not over: the new hash is not saved yet, the old one is gone with the old record
    const row = await db.syncCollections.get('users');
    expect(row?.pageFingerprints).toEqual({ [`${TASK}@996`]: 'h2' });
    expect((await db.users.get(1))?.status).toBe('Inactive');
  });

  it('sends none for a collection something else wrote to (the outbox refreshing a user after replay)', async () => {
    const { pass, db, sentFingerprints } = setup();
    await pass('sync-1', firstPages());
    await db.users.put(user(2, { status: 'Expired' }));
    await pass('sync-2', []);
    expect(sentFingerprints()).toEqual([]);
    await new Promise((r) => setTimeout(r, 10));
    expect((await db.syncCollections.get('users'))?.pageFingerprints).toBeUndefined();
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

  it('sends none for a collection whose cache is empty, nor when the user asks for a fresh sync', async () => {
    const { pass, db, sentFingerprints } = setup();
    await pass('sync-1', firstPages());
    await pass('sync-2', [], { fresh: true });
    expect(sentFingerprints()).toEqual([]);
    await db.transaction('rw', db.users, async () => {
      // as if the cache had been emptied by hand: the guard forgets them too, so restore them first
      await db.users.clear();
    });
    await db.syncCollections.update('users', { pageFingerprints: { [`${TASK}@1`]: 'h1' } });
    await pass('sync-3', []);
    expect(sentFingerprints()).toEqual([]);
  });

  it('resumes after the unchanged pages of a cancelled pass, though their checkpoints were not written one by one', async () => {
    const { pass, fake, controller } = setup();
    await pass('sync-1', firstPages());
    await controller.start();
    fake.emit('sync:page', { ...unchanged(3, 1, [1, 2], 'h1'), syncId: 'sync-2' });
    fake.emit('sync:finished', finished('sync-2', 'cancelled'));
    await controller.idle();
    await controller.start();
    const resume = fake.calls.filter((c) => c.channel === 'sync:start').at(-1)?.arg as { checkpoints?: { nextStartrow: number }[] };
    expect(resume.checkpoints?.map((c) => c.nextStartrow)).toEqual([996]);
  });
});
