/**
 * Taking a site that is no longer kept out of the cache: its records (people,
 * what they hold, the site's groups, features, credentials and courses), in
 * transactions of at most REMOVE_CHUNK rows with the event loop let run between
 * them, so the window stays responsive. These are not the sync's writes: the
 * fingerprint guard forgets the touched collections' page fingerprints and
 * sizes (fingerprints.ts), and the next pass compares afresh. The "since last
 * sync" log loses its entries about the site's people: they are not changes the
 * server made. Refused while the Outbox holds unsent edits of the site.
 */
import type { Table } from 'dexie';
import type { OutboxOp } from '../../shared/outbox.ts';
import type { AnyRecord, CollectionName } from '../../shared/records.ts';
import { yieldToEventLoop } from '../../shared/yield.ts';
import type { FieldbookDb } from '../db/index.ts';
import type { SyncChangeLog } from './log.ts';
import { forgetSiteRead } from './sites-read.ts';
import { outboxOps } from '../../shared/replay-queue/packs.ts';

/**
 * Rows per removal transaction. Each transaction's deleted keys (primary and
 * of every index) reach every mounted live query, which merges them into its
 * own range set on the window's thread: on dataset `xl` 2,000 keys a
 * transaction made tasks of up to 592 ms (`npm run bench -- scale`, part
 * `remove`); the cost grows with the keys, so a transaction takes fewer.
 */
export const REMOVE_CHUNK = 200;

type Key = string | number;

/** What identifies the site's records in other tables. */
interface SiteIds {
  users: Set<number>;
  groups: Set<number>;
  credentials: Set<number>;
  courses: Set<number>;
  transcripts: Set<number>;
}

async function siteIds(db: FieldbookDb, siteid: number): Promise<SiteIds> {
  const categories = new Set(
    (await db.credentialCategories.toArray()).filter((c) => c.siteid === siteid).map((c) => c.categoryid),
  );
  const credentials =
    categories.size === 0
      ? []
      : await db.credentials
          .where('categoryid')
          .anyOf([...categories])
          .primaryKeys();
  return {
    users: new Set((await db.users.where('siteid').equals(siteid).primaryKeys()) as number[]),
    groups: new Set((await db.groups.toArray()).filter((g) => g.siteid === siteid).map((g) => g.groupid)),
    credentials: new Set(credentials as number[]),
    courses: new Set((await db.courses.toArray()).filter((c) => c.siteid === siteid).map((c) => c.courseid)),
    transcripts: new Set(),
  };
}

/** Unsent edits in the Outbox that concern the site (its people, groups, features, credentials or training). */
export async function unsentEditsOfSite(db: FieldbookDb, siteid: number): Promise<OutboxOp[]> {
  const ops = await outboxOps(db, (o) => o.status !== 'done');
  if (ops.length === 0) return [];
  const ids = await siteIds(db, siteid);
  return ops.filter(({ op }) => {
    if ('siteid' in op && op.siteid === siteid) return true;
    if ('userid' in op && ids.users.has(op.userid)) return true;
    if ('groupid' in op && ids.groups.has(op.groupid)) return true;
    if ('credentialid' in op && ids.credentials.has(op.credentialid)) return true;
    return 'courseid' in op && ids.courses.has(op.courseid);
  });
}

/** Every cached record of the site, by table: primary keys. */
async function siteKeys(db: FieldbookDb, siteid: number, ids: SiteIds): Promise<[CollectionName, Key[]][]> {
  const users = [...ids.users];
  const union = async (...lists: Promise<Key[]>[]) => [...new Set((await Promise.all(lists)).flat())];
  // small tables (a few rows per site), read whole
  const bySite = async (name: CollectionName, key: string) =>
    ((await db.table(name).toArray()) as Record<string, unknown>[])
      .filter((r) => r.siteid === siteid)
      .map((r) => r[key] as Key);
  const prefix = (table: Table<AnyRecord, Key>, index: string, values: Iterable<number>) =>
    Promise.all(
      [...values].map(
        (v) => table.where(index).between([v, ''], [v, '\uffff']).primaryKeys() as Promise<Key[]>,
      ),
    ).then((l) => l.flat());
  const anyOf = (table: Table<AnyRecord, Key>, index: string, values: Key[]) =>
    values.length === 0
      ? Promise.resolve([])
      : (table.where(index).anyOf(values).primaryKeys() as Promise<Key[]>);
  const t = (name: CollectionName) => db.table(name) as Table<AnyRecord, Key>;
  return [
    ['emails', await anyOf(t('emails'), 'userid', users)],
    [
      'groupMembers',
      await union(
        anyOf(t('groupMembers'), 'groupid', [...ids.groups]),
        anyOf(t('groupMembers'), 'userid', users),
      ),
    ],
    [
      'groupAccess',
      await union(
        anyOf(t('groupAccess'), 'groupid', [...ids.groups]),
        anyOf(t('groupAccess'), 'userid', users),
      ),
    ],
    [
      'moduleAccess',
      await union(
        db.moduleAccess
          .where('[siteid+accessID]')
          .between([siteid, -Infinity], [siteid, Infinity])
          .primaryKeys(),
        anyOf(t('moduleAccess'), 'userid', users),
      ),
    ],
    [
      'credentialAssignments',
      await union(
        anyOf(t('credentialAssignments'), 'userid', users),
        prefix(t('credentialAssignments'), '[credentialid+expirationIso]', ids.credentials),
      ),
    ],
    [
      'trainingAssignments',
      await union(
        anyOf(t('trainingAssignments'), 'userid', users),
        prefix(t('trainingAssignments'), '[courseid+openDueIso]', ids.courses),
      ),
    ],
    ['users', users],
    ['groups', [...ids.groups]],
    ['modules', await bySite('modules', 'id')],
    ['credentials', [...ids.credentials]],
    ['credentialCategories', await bySite('credentialCategories', 'categoryid')],
    ['courses', [...ids.courses]],
    ['profileCategories', await bySite('profileCategories', 'categoryid')],
    ['sites', [siteid]],
  ];
}

/** The change log without its entries about the site's people (their counts too). */
export function logWithoutSite(
  entry: SyncChangeLog,
  siteid: number,
  users: ReadonlySet<number>,
): SyncChangeLog {
  const keep = entry.changes.filter((c) => c.s !== siteid && !users.has(c.u));
  if (keep.length === entry.changes.length) return entry;
  const counts = { ...entry.counts };
  for (const c of entry.changes) if (!keep.includes(c)) counts[c.k] = Math.max(0, (counts[c.k] ?? 1) - 1);
  for (const k of Object.keys(counts) as (keyof typeof counts)[]) if (counts[k] === 0) delete counts[k];
  return { ...entry, counts, changes: keep };
}

export interface RemovalProgress {
  removed: number;
  total: number;
}

/**
 * Removes the site's records from the cache, REMOVE_CHUNK rows per transaction
 * (the event loop runs between them); returns how many records went. Throws
 * when the Outbox holds unsent edits of the site (nothing removed).
 */
export async function removeSiteRecords(
  db: FieldbookDb,
  siteid: number,
  onProgress?: (p: RemovalProgress) => void,
): Promise<number> {
  if ((await unsentEditsOfSite(db, siteid)).length > 0)
    throw new Error('The site has unsent edits in the Outbox.');
  // kept again later, its people count as read only once a sync has read them again (sites-read.ts)
  await forgetSiteRead(db, siteid);
  const ids = await siteIds(db, siteid);
  const keys = await siteKeys(db, siteid, ids);
  const total = keys.reduce((n, [, k]) => n + k.length, 0);
  let removed = 0;
  for (const [collection, list] of keys) {
    const table = db.table(collection) as Table<AnyRecord, Key>;
    for (let i = 0; i < list.length; i += REMOVE_CHUNK) {
      const chunk = list.slice(i, i + REMOVE_CHUNK);
      await db.transaction('rw', table, () => table.bulkDelete(chunk));
      removed += chunk.length;
      onProgress?.({ removed, total });
      await yieldToEventLoop();
    }
  }
  await db.transaction('rw', db.syncChanges, async () => {
    for (const entry of await db.syncChanges.toArray()) {
      const kept = logWithoutSite(entry, siteid, ids.users);
      if (kept !== entry) await db.syncChanges.put(kept);
    }
  });
  // the Sync panel's totals: what the cache now holds
  for (const [collection] of keys) {
    const count = await db.table(collection).count();
    await db.transaction('rw', db.syncCollections, async () => {
      const row = await db.syncCollections.get(collection);
      if (row && row.total !== null) await db.syncCollections.put({ ...row, total: count });
    });
  }
  return removed;
}
