/** Which sites' people the cache has read in full: kept with the users row, through passes that stop and older rows. */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { CollectionProgress, SyncFinishedEvent } from '../../shared/ipc.ts';
import { collectionRows, saveCollectionRows } from './finish.ts';
import { newPass, preparePass } from './pass.ts';
import { sitesNotRead } from './sites-read.ts';
import { removeSiteRecords } from './remove-site.ts';
import { freshDb } from '../testing/fixtures.ts';

const EARLIER = '2026-11-20T08:00:00.000Z';
const NOW = '2026-11-28T08:00:00.000Z';
const site = (siteid: number) => ({ siteid, sitename: `Site ${siteid}`, loginpage: '' });
const usersEnded = (state: CollectionProgress['state']): SyncFinishedEvent => ({
  syncId: 'sync-1',
  outcome: state === 'complete' ? 'completed' : 'failed',
  requests: 1,
  plannedRequests: 1,
  collections: { users: { state, records: 1, pages: 1, total: null } },
});

/**
 * A cache whose people a pass read to the end for site 1, then site 2 kept: its sites list read, its people
 * not yet.
 */
async function siteKeptSince() {
  const db = freshDb();
  await db.sites.bulkPut([site(1)]);
  await db.syncCollections.put({
    collection: 'users',
    lastSyncedAt: EARLIER,
    lastError: null,
    total: 1,
    sitesRead: [1],
  });
  return db;
}

/** The users row after a pass whose people ended in `state`. */
async function afterPass(db: ReturnType<typeof freshDb>, state: CollectionProgress['state']) {
  const p = newPass(db, false);
  await saveCollectionRows(db, p, await collectionRows(db, p, usersEnded(state), NOW));
  return db.syncCollections.get('users');
}

describe('the sites whose people a sync read in full', () => {
  it('are every site held once a pass reads the people to the end', async () => {
    const db = await siteKeptSince();
    await db.sites.put(site(2));
    expect(await afterPass(db, 'complete')).toMatchObject({ lastSyncedAt: NOW, sitesRead: [1, 2] });
  });

  it("stay those of the last complete pass when a new site's first pass stops before its people are read", async () => {
    const db = await siteKeptSince();
    await db.sites.put(site(2));
    const row = await afterPass(db, 'failed');
    expect(row).toMatchObject({ lastSyncedAt: EARLIER, sitesRead: [1] });
    expect(sitesNotRead(row, [1, 2])).toEqual([2]);
  });

  it('are the sites held before a pass starts, for a row an older build saved without them', async () => {
    const db = freshDb();
    await db.sites.bulkPut([site(1)]);
    await db.syncCollections.put({ collection: 'users', lastSyncedAt: EARLIER, lastError: null, total: 1 });
    expect(sitesNotRead(await db.syncCollections.get('users'), [1])).toEqual([]);
    await preparePass(db, () => undefined);
    // the pass's sites list then adds site 2, and the pass stops before its people
    await db.sites.put(site(2));
    expect(sitesNotRead(await afterPass(db, 'cancelled'), [1, 2])).toEqual([2]);
  });

  it('lose a site taken off the laptop: kept again, a pass that stops before its people leaves it unknown', async () => {
    const db = await siteKeptSince();
    await db.sites.put(site(2));
    await afterPass(db, 'complete');
    await removeSiteRecords(db, 2);
    await db.sites.put(site(2));
    expect(sitesNotRead(await afterPass(db, 'failed'), [1, 2])).toEqual([2]);
  });

  it('are none before any pass read the people to the end', () => {
    expect(sitesNotRead(undefined, [1, 2])).toEqual([1, 2]);
    expect(sitesNotRead({ lastSyncedAt: null, sitesRead: [1] }, [1])).toEqual([1]);
  });
});
