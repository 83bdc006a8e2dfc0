/**
 * Removing records the server no longer returns. Only a complete, fresh pass
 * knows what the server has: after a cancelled, failed or resumed pass (or one
 * in which any collection failed) nothing is removed, because a record missing
 * from such a pass may simply not have been fetched.
 */
import type { CollectionProgress, SyncFinishedEvent, TaskCheckpoint } from '../../shared/ipc.ts';
import type { AnyRecord, CollectionName } from '../../shared/records.ts';
import type { Table } from 'dexie';
import type { FieldbookDb } from '../db/index.ts';
import { markSyncTransaction } from './fingerprints.ts';

export interface PassSummary {
  /** the pass started from stored checkpoints */
  resumed: boolean;
  outcome: SyncFinishedEvent['outcome'];
  collections: Partial<Record<CollectionName, CollectionProgress>>;
  /** the last checkpoint seen for each task of the pass */
  checkpoints: ReadonlyMap<string, TaskCheckpoint>;
}

/** Collections whose cached records not delivered by this pass may be deleted. */
export function collectionsToPrune(pass: PassSummary): CollectionName[] {
  if (pass.resumed || pass.outcome !== 'completed') return [];
  const states = Object.values(pass.collections);
  if (states.some((c) => c.state !== 'complete')) return [];
  const tasksByCollection = new Map<CollectionName, TaskCheckpoint[]>();
  for (const cp of pass.checkpoints.values()) {
    const list = tasksByCollection.get(cp.collection) ?? [];
    list.push(cp);
    tasksByCollection.set(cp.collection, list);
  }
  const out: CollectionName[] = [];
  for (const [collection, tasks] of tasksByCollection) {
    // a collection the pass never reported on was not covered: leave it alone
    if (pass.collections[collection]?.state !== 'complete') continue;
    if (tasks.every((t) => t.done)) out.push(collection);
  }
  return out;
}

/** Keys cached but not delivered (pure). */
export function staleKeys(
  cached: readonly (string | number)[],
  delivered: ReadonlySet<string | number>,
): (string | number)[] {
  return cached.filter((k) => !delivered.has(k));
}

const DELETE_CHUNK = 5_000;

export interface Pruned {
  /** records of the collection deleted */
  removed: number;
  /** e-mails deleted with their users (pruning users only) */
  emails: number;
}

/**
 * Deletes the collection's cached records whose keys the pass did not deliver.
 * `onRemoved` receives each chunk's records just before they go (the change log).
 * Users go with their e-mails, in the same transaction: a crash between the two
 * would leave e-mails of nobody that a later pass need not look for.
 */
export async function pruneCollection(
  db: FieldbookDb,
  collection: CollectionName,
  delivered: ReadonlySet<string | number>,
  onRemoved?: (records: AnyRecord[]) => void,
): Promise<Pruned> {
  const table = db.table(collection) as Table<AnyRecord, string | number>;
  const cached = (await table.toCollection().primaryKeys()) as (string | number)[];
  const stale = staleKeys(cached, delivered);
  const withEmails = collection === 'users';
  let emails = 0;
  for (let i = 0; i < stale.length; i += DELETE_CHUNK) {
    const chunk = stale.slice(i, i + DELETE_CHUNK);
    if (onRemoved) onRemoved((await table.bulkGet(chunk)).filter((r): r is AnyRecord => r !== undefined));
    // the sync's own write: records no page of a complete pass held (page fingerprints stay valid)
    await db.transaction('rw', withEmails ? [table, db.emails] : [table], async () => {
      markSyncTransaction(db);
      if (withEmails) emails += await db.emails.where('userid').anyOf(chunk).delete();
      await table.bulkDelete(chunk);
    });
  }
  return { removed: stale.length, emails };
}

/**
 * E-mails arrive with the users list (their pages carry the users tasks'
 * checkpoints) or one user at a time from `users:detail`. Those a re-read
 * user's item no longer lists go with that user's write (emails.ts); those of
 * users who are gone go here, once users are pruned.
 */
export function orphanEmailKeys(
  emails: readonly { emailid: number; userid: number }[],
  userids: ReadonlySet<number>,
): number[] {
  return emails.filter((e) => !userids.has(e.userid)).map((e) => e.emailid);
}

export async function pruneOrphanEmails(db: FieldbookDb): Promise<number> {
  const userids = new Set((await db.users.toCollection().primaryKeys()) as number[]);
  const stale = orphanEmailKeys(await db.emails.toArray(), userids);
  if (stale.length === 0) return 0;
  await db.transaction('rw', db.emails, () => {
    markSyncTransaction(db);
    return db.emails.bulkDelete(stale);
  });
  return stale.length;
}
