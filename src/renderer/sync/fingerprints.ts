/**
 * Page fingerprints in the renderer: what each page of each sync task held the
 * last time the cache was made to match it. Main skips a page whose body hashes
 * the same (it sends only the page's keys); so a fingerprint is a promise that
 * the cache holds the page's records exactly as the server sent them.
 *
 * Kept in the task collection's `syncCollections` row (`pageFingerprints`,
 * not indexed), keyed by task and start row. The promise is kept by three rules:
 *  - a changed page forgets its old fingerprint in the same transaction that
 *    writes its records; its new hash is saved later (a crash in between only
 *    loses a fingerprint: the page is compared again next time);
 *  - any write to a cache table that is not the sync's own (the outbox's
 *    refresh after replay, a user's e-mails read on their own) forgets that
 *    collection's fingerprints, at once in memory and then in the database;
 *  - a collection found empty when a pass starts sends none.
 */
import Dexie, { type DBCore, type Middleware } from 'dexie';
import type { PageFingerprint, SyncPageEvent, TaskCheckpoint } from '../../shared/ipc.ts';
import { pageKey } from '../../shared/page-fingerprints.ts';
import { COLLECTIONS, type CollectionName } from '../../shared/records.ts';
import type { FieldbookDb } from '../db/index.ts';

/** The collection whose rows keep the fingerprints of pages that fill `collection` (users' pages carry their e-mails). */
export function fingerprintOwner(collection: CollectionName): CollectionName {
  return collection === 'emails' ? 'users' : collection;
}

const CACHE = new Set<string>(COLLECTIONS);
/** IndexedDB transactions of the sync's own writes (page writes, pruning) */
const syncTransactions = new WeakSet<object>();
/** per database name: collections written by something else since the app started or since `takeForeignWrites` */
const foreign = new Map<string, Set<CollectionName>>();
/** "<db name>\n<collection>" whose fingerprints are about to be forgotten */
const forgetting = new Set<string>();
const listeners = new Set<(dbName: string, collection: CollectionName) => void>();

/** Call inside a transaction: its writes are the sync's own. */
export function markSyncTransaction(): void {
  const tx = Dexie.currentTransaction;
  if (tx) syncTransactions.add(tx.idbtrans);
}

/** Collections written by others since the last call (the set is emptied). */
export function takeForeignWrites(dbName: string): Set<CollectionName> {
  const set = foreign.get(dbName) ?? new Set<CollectionName>();
  foreign.delete(dbName);
  return set;
}

/** `listener` hears of every write to the cache that is not the sync's own; returns the unsubscribe. */
export function onForeignWrite(listener: (dbName: string, collection: CollectionName) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The DBCore middleware that notices writes to the cache from outside the sync. */
export function fingerprintGuardMiddleware(db: () => FieldbookDb): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'pageFingerprintGuard',
    create(down) {
      return {
        ...down,
        table(name) {
          const table = down.table(name);
          if (!CACHE.has(name)) return table;
          const owner = fingerprintOwner(name as CollectionName);
          return {
            ...table,
            mutate: (req) => {
              if (!syncTransactions.has(req.trans as object)) {
                const dbName = db().name;
                const set = foreign.get(dbName) ?? new Set<CollectionName>();
                set.add(owner);
                foreign.set(dbName, set);
                for (const l of listeners) l(dbName, owner);
                // after this transaction (the row may be outside its scope), once per burst of writes
                const key = `${dbName}\n${owner}`;
                if (!forgetting.has(key)) {
                  forgetting.add(key);
                  setTimeout(() => {
                    forgetting.delete(key);
                    void forgetFingerprints(db(), owner).catch(() => undefined);
                  }, 0);
                }
              }
              return table.mutate(req);
            },
          };
        },
      };
    },
  };
}

/** Removes the collection's fingerprints (one update: an absent row stays absent). */
export async function forgetFingerprints(db: FieldbookDb, collection: CollectionName): Promise<void> {
  await db.syncCollections.update(collection, { pageFingerprints: undefined });
}

export interface StoredFingerprints {
  /** every page key with a fingerprint in the database */
  keys: Set<string>;
  /** those a pass may send: none of collections written by others or found empty */
  send: PageFingerprint[];
}

export async function loadFingerprints(db: FieldbookDb, skip: ReadonlySet<CollectionName>): Promise<StoredFingerprints> {
  const out: StoredFingerprints = { keys: new Set(), send: [] };
  for (const row of await db.syncCollections.toArray()) {
    for (const [key, hash] of Object.entries(row.pageFingerprints ?? {})) {
      out.keys.add(key);
      if (skip.has(row.collection)) continue;
      const at = key.lastIndexOf('@');
      const startrow = Number(key.slice(at + 1));
      if (at > 0 && Number.isInteger(startrow) && startrow >= 1) out.send.push({ taskId: key.slice(0, at), startrow, hash });
    }
  }
  return out;
}

/** After a complete pass: fingerprints of pages the pass did not see (a deleted group's, a shorter list's) go. */
export async function keepOnlyFingerprints(db: FieldbookDb, collections: readonly CollectionName[], seen: ReadonlySet<string>): Promise<void> {
  await db.transaction('rw', db.syncCollections, async () => {
    for (const collection of collections) {
      const row = await db.syncCollections.get(collection);
      if (!row?.pageFingerprints) continue;
      const kept = Object.fromEntries(Object.entries(row.pageFingerprints).filter(([key]) => seen.has(key)));
      await db.syncCollections.put({ ...row, pageFingerprints: kept });
    }
  });
}

/** Inside a page's transaction: the page changed, so its old fingerprint goes with the old records. */
export async function dropFingerprint(db: FieldbookDb, collection: CollectionName, key: string): Promise<void> {
  const row = await db.syncCollections.get(collection);
  if (row?.pageFingerprints && key in row.pageFingerprints) {
    delete row.pageFingerprints[key];
    await db.syncCollections.put(row);
  }
}

/** Saves hashes of pages written since the last save (`null`: the page has none any more). */
export async function saveFingerprints(db: FieldbookDb, pending: ReadonlyMap<CollectionName, ReadonlyMap<string, string | null>>): Promise<void> {
  if (pending.size === 0) return;
  await db.transaction('rw', db.syncCollections, async () => {
    for (const [collection, hashes] of pending) {
      const row = (await db.syncCollections.get(collection)) ?? { collection, lastSyncedAt: null, lastError: null, total: null };
      const map = { ...row.pageFingerprints };
      for (const [key, hash] of hashes) {
        if (hash === null) delete map[key];
        else map[key] = hash;
      }
      await db.syncCollections.put({ ...row, pageFingerprints: map });
    }
  });
}

/** Pages written between two saves of their fingerprints. */
const SAVE_EVERY = 50;

/** One pass's fingerprint bookkeeping (the controller's hook points). */
export class PassFingerprints {
  readonly #db: FieldbookDb;
  /** page keys with a fingerprint in the database */
  readonly #stored: Set<string>;
  #pending = new Map<CollectionName, Map<string, string | null>>();
  /** every page this pass delivered, written or unchanged */
  readonly #seen = new Set<string>();
  /** collections written by something else during the pass: nothing of theirs is saved */
  readonly #tainted = new Set<CollectionName>();
  #unsaved = 0;
  /**
   * Checkpoints of unchanged pages, written in batches: losing one only makes a
   * resume fetch that page again. A task's later written page replaces its entry.
   */
  #deferred = new Map<string, TaskCheckpoint>();

  constructor(db: FieldbookDb, stored = new Set<string>()) {
    this.#db = db;
    this.#stored = stored;
  }

  /** Before writing `page`: must its stored fingerprint go with its old records? */
  mustForget(page: SyncPageEvent): boolean {
    return page.fingerprint !== undefined && page.unchangedKeys === undefined && this.#stored.has(pageKey(page.taskId, page.fingerprint.startrow));
  }

  /** After `page` was written: its fingerprint is saved with the next batch. */
  async written(page: SyncPageEvent): Promise<void> {
    const fp = page.fingerprint;
    if (!fp) return;
    const key = pageKey(page.taskId, fp.startrow);
    this.#seen.add(key);
    if (page.unchangedKeys) return;
    this.#stored.delete(key);
    const owner = page.checkpoint.collection;
    if (this.#tainted.has(owner)) return;
    const hashes = this.#pending.get(owner) ?? new Map<string, string | null>();
    hashes.set(key, fp.hash);
    this.#pending.set(owner, hashes);
    if (++this.#unsaved >= SAVE_EVERY) await this.save();
  }

  /** An unchanged page: nothing to write now but (in a while) its checkpoint; its keys count as delivered. */
  async unchanged(page: SyncPageEvent & { unchangedKeys: (string | number)[] }): Promise<{ rowsWritten: number; keys: (string | number)[]; changes: [] }> {
    this.#deferred.set(page.checkpoint.taskId, { ...page.checkpoint });
    await this.written(page);
    if (this.#deferred.size >= SAVE_EVERY) await this.flushCheckpoints();
    return { rowsWritten: 0, keys: page.unchangedKeys, changes: [] };
  }

  /** A page of this task is about to be written with its own, later checkpoint. */
  supersede(taskId: string): void {
    this.#deferred.delete(taskId);
  }

  async flushCheckpoints(): Promise<void> {
    if (this.#deferred.size === 0) return;
    const rows = [...this.#deferred.values()];
    this.#deferred = new Map();
    await this.#db.syncCheckpoints.bulkPut(rows);
  }

  taint(collection: CollectionName): void {
    this.#tainted.add(collection);
    this.#pending.delete(collection);
  }

  async save(): Promise<void> {
    const pending = this.#pending;
    this.#pending = new Map();
    this.#unsaved = 0;
    await saveFingerprints(this.#db, pending);
    for (const hashes of pending.values()) for (const [key, hash] of hashes) if (hash !== null) this.#stored.add(key);
  }

  /** After a complete pass: only the pages it saw keep theirs. */
  keepOnlySeen(collections: readonly CollectionName[]): Promise<void> {
    return keepOnlyFingerprints(this.#db, collections, this.#seen);
  }
}
