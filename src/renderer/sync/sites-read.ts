/**
 * Which sites' people the cache has read in full (issue 37). The users row of
 * `syncCollections` says when a pass last read the people to the end; with it
 * go the sites that pass read them for (the sites the cache held as it ended:
 * the kept sites its sites list delivered). A site kept later, whose first
 * pass stopped before its people were all read, is held by the cache (the
 * sites list came first) but is not among them: the import then creates
 * nobody (features/import/unknown-cache.ts), since its people may be on the
 * platform without being on this laptop.
 */
import type { FieldbookDb, SyncCollectionRow } from '../db/rows.ts';

/** The ids of the sites the cache holds. */
export async function heldSiteIds(db: FieldbookDb): Promise<number[]> {
  return (await db.sites.toCollection().primaryKeys()) as number[];
}

/**
 * The users row's record after a pass: a pass that read the people to the
 * end read them for every site the cache now holds; one that did not keeps
 * the record of the last that did.
 */
export async function sitesReadAfterPass(
  db: FieldbookDb,
  usersComplete: boolean,
  before: SyncCollectionRow | undefined,
): Promise<Pick<SyncCollectionRow, 'sitesRead'>> {
  if (usersComplete) return { sitesRead: await heldSiteIds(db) };
  return before?.sitesRead ? { sitesRead: before.sitesRead } : {};
}

/**
 * A row saved before the record was kept, as a pass starts (before it writes
 * anything): the people were read to the end for the sites held then. Once
 * the pass has read a new site's place in the sites list, that is no longer
 * knowable, so it is written down now.
 */
export async function settleSitesRead(db: FieldbookDb): Promise<void> {
  await db.transaction('rw', db.syncCollections, db.sites, async () => {
    const users = await db.syncCollections.get('users');
    if (!users?.lastSyncedAt || users.sitesRead) return;
    await db.syncCollections.put({ ...users, sitesRead: await heldSiteIds(db) });
  });
}

/**
 * A site taken off the laptop (remove-site.ts) is no longer read: kept again, it counts only once a pass has
 * read its people to the end again. Called before its records go, so a removal cut short counts too.
 */
export async function forgetSiteRead(db: FieldbookDb, siteid: number): Promise<void> {
  await db.transaction('rw', db.syncCollections, db.sites, async () => {
    const users = await db.syncCollections.get('users');
    if (!users?.lastSyncedAt) return;
    const read = users.sitesRead ?? (await heldSiteIds(db));
    await db.syncCollections.put({ ...users, sitesRead: read.filter((id) => id !== siteid) });
  });
}

/**
 * The sites the cache holds whose people no pass has read in full; every
 * site when none has. A row saved before the record was kept counts for the
 * sites held (the next pass's start settles it, before the sites list can
 * add one).
 */
export function sitesNotRead(
  users: Pick<SyncCollectionRow, 'lastSyncedAt' | 'sitesRead'> | undefined,
  held: readonly number[],
): number[] {
  if (!users?.lastSyncedAt) return [...held];
  if (!users.sitesRead) return [];
  const read = new Set(users.sitesRead);
  return held.filter((siteid) => !read.has(siteid));
}
