/**
 * Page fingerprints in the renderer: what each page of each sync task held the
 * last time the cache was made to match it, item by item (keys and hashes, as
 * main made them). Main skips a page whose body hashes the same (it sends only
 * the page's keys), and sends of a changed page only the items whose hash is
 * not the one the cache's copy was made from; so a fingerprint is a promise
 * that the cache holds each of the page's records exactly as the server sent it.
 *
 * One row per page in `pageFingerprints`. The promise is kept by three rules:
 *  - a written page's row is put (or, on a message that is not its last,
 *    deleted) in the same transaction that writes its records;
 *  - any write to a cache table that is not the sync's own (the outbox's
 *    refresh after replay, a user's e-mails read on their own) forgets that
 *    collection's rows (and the table sizes the last pass left, sizes.ts),
 *    and no row of it is put for the rest of the pass
 *    (main still holds the hashes it was sent: the next pass compares again);
 *  - a collection found empty when a pass starts sends none.
 */
import Dexie, { type DBCore, type Middleware } from 'dexie';
import type {
  PageFingerprintText,
  SyncPageEvent,
  SyncRecordsEvent,
  SyncUnchangedEvent,
  TaskCheckpoint,
} from '../../shared/ipc.ts';
import { pageKey } from '../../shared/page-fingerprints.ts';
import { COLLECTIONS, type CollectionName } from '../../shared/records.ts';
import type { FieldbookDb, PageFingerprintRow } from '../db/rows.ts';
import type { MemoryPart } from '../db/memory.ts';
import { forgetHeldSizes } from './sizes.ts';

/**
 * The collection whose rows keep the fingerprints of pages that fill `collection` (users' pages carry their e-mails).
 */
export function fingerprintOwner(collection: CollectionName): CollectionName {
  return collection === 'emails' ? 'users' : collection;
}

const CACHE = new Set<string>(COLLECTIONS);

/** What the guard knows of one profile's database, in its memory (db/memory.ts): gone with the profile's session. */
interface GuardState {
  /** IndexedDB transactions of the sync's own writes (page writes, pruning) */
  readonly syncTransactions: WeakSet<object>;
  /** collections written by something else since the session began or since `takeForeignWrites` */
  foreign: Set<CollectionName>;
  /** collections whose fingerprints are about to be forgotten */
  readonly forgetting: Set<CollectionName>;
  readonly listeners: Set<(collection: CollectionName) => void>;
}

const GUARD: MemoryPart<GuardState> = {
  make: () => ({
    syncTransactions: new WeakSet(),
    foreign: new Set(),
    forgetting: new Set(),
    listeners: new Set(),
  }),
};

/** Call inside a transaction of `db`: its writes are the sync's own. */
export function markSyncTransaction(db: FieldbookDb): void {
  const tx = Dexie.currentTransaction;
  if (tx) db.memory.part(GUARD).syncTransactions.add(tx.idbtrans);
}

/** Collections of `db` written by others since the last call (the set is emptied). */
export function takeForeignWrites(db: FieldbookDb): Set<CollectionName> {
  const guard = db.memory.part(GUARD);
  const taken = guard.foreign;
  guard.foreign = new Set();
  return taken;
}

/** `listener` hears of every write to `db`'s cache that is not the sync's own; returns the unsubscribe. */
export function onForeignWrite(db: FieldbookDb, listener: (collection: CollectionName) => void): () => void {
  const { listeners } = db.memory.part(GUARD);
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A write to `owner`'s tables that is not the sync's: told, and the fingerprints and sizes forgotten after it. */
function foreignWrite(db: FieldbookDb, guard: GuardState, owner: CollectionName): void {
  guard.foreign.add(owner);
  for (const l of guard.listeners) l(owner);
  // after this transaction (the row may be outside its scope), once per burst of writes
  if (guard.forgetting.has(owner)) return;
  guard.forgetting.add(owner);
  setTimeout(() => {
    guard.forgetting.delete(owner);
    void forgetFingerprints(db, owner).catch(() => undefined);
    // and the sizes the last pass left for the tables these pages fill (sizes.ts)
    void forgetHeldSizes(
      db,
      COLLECTIONS.filter((c) => fingerprintOwner(c) === owner),
    ).catch(() => undefined);
  }, 0);
}

/** The DBCore middleware that notices writes to the cache from outside the sync. */
export function fingerprintGuardMiddleware(db: FieldbookDb): Middleware<DBCore> {
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
              const guard = db.memory.part(GUARD);
              if (!guard.syncTransactions.has(req.trans as object)) foreignWrite(db, guard, owner);
              return table.mutate(req);
            },
          };
        },
      };
    },
  };
}

/** Removes the collection's fingerprints. */
export async function forgetFingerprints(db: FieldbookDb, collection: CollectionName): Promise<void> {
  await db.pageFingerprints.where('collection').equals(collection).delete();
}

/** A row with the fields of a fingerprint, of their types (main reads the keys' text: readFingerprint). */
function isFingerprintRow(row: PageFingerprintRow): boolean {
  const r = row as Partial<Record<keyof PageFingerprintRow, unknown>>;
  return (
    typeof r.taskId === 'string' &&
    Number.isInteger(r.startrow) &&
    (r.hash === null || typeof r.hash === 'string') &&
    typeof r.keys === 'string' &&
    typeof r.hashes === 'string'
  );
}

export interface StoredFingerprints {
  /** every page key with a fingerprint in the database */
  keys: Set<string>;
  /** those a pass may send (keys as stored, as text): none of collections written by others or found empty */
  send: PageFingerprintText[];
}

export async function loadFingerprints(
  db: FieldbookDb,
  skip: ReadonlySet<CollectionName>,
): Promise<StoredFingerprints> {
  const out: StoredFingerprints = { keys: new Set(), send: [] };
  const unreadable = new Set<unknown>();
  const rows = await db.pageFingerprints.toArray();
  for (const row of rows) {
    out.keys.add(row.key);
    if (!skip.has(row.collection) && !isFingerprintRow(row)) unreadable.add(row.taskId);
  }
  for (const row of rows) {
    // a task with a row this build cannot read sends none: its pages are compared in full (a task known in part could
    // hide a doubtful item)
    if (skip.has(row.collection) || unreadable.has(row.taskId)) continue;
    // a row saved before fingerprints carried a version is of none (main takes it as absent)
    out.send.push({
      taskId: row.taskId,
      startrow: row.startrow,
      hash: row.hash,
      keys: row.keys,
      hashes: row.hashes,
      version:
        typeof row.version === 'number' && Number.isInteger(row.version) && row.version >= 0
          ? row.version
          : 0,
    });
  }
  return out;
}

/** After a complete pass: fingerprints of pages the pass did not see (a deleted group's, a shorter list's) go. */
export async function keepOnlyFingerprints(
  db: FieldbookDb,
  collections: readonly CollectionName[],
  seen: ReadonlySet<string>,
): Promise<void> {
  if (collections.length === 0) return;
  const keys = await db.pageFingerprints
    .where('collection')
    .anyOf([...collections])
    .primaryKeys();
  await db.pageFingerprints.bulkDelete(keys.filter((key) => !seen.has(key)));
}

/** What an unchanged page counts for: its keys delivered, nothing written. */
export interface UnchangedResult {
  rowsWritten: number;
  inserted: number;
  keys: (string | number)[];
  changes: [];
}

/**
 * Is this message its page's last? Main moves the checkpoint on only with it
 * (engine.ts): the others keep it on the page's first row. A fingerprint from
 * any other would say a page half written is whole, and the next pass would skip the rest for good.
 */
function isPageEnd(page: SyncRecordsEvent): boolean {
  return page.checkpoint.done || page.checkpoint.nextStartrow !== page.fingerprint?.startrow;
}

/** What a page's write does to its fingerprint row: put this one, or delete the row of this key. */
export type FingerprintWrite = { put: PageFingerprintRow } | { drop: string };

/**
 * How long unchanged pages' checkpoints may wait to be saved (looked at as the
 * next unchanged page comes; a group of pages that writes saves them anyway,
 * and so does the end of a pass that stops). Saving them costs
 * Chromium a writing transaction whose clean-up, on a large cache, took 0.2-0.4
 * CPU s each (a resync's trace; they were 1.7 of its 2.5 browser CPU seconds
 * when saved every 50 pages), while losing them costs only the fetching again of
 * these unchanged pages after a crash (a pass that stops saves them at its end).
 */
export const SAVE_UNCHANGED_AFTER_MS = 10_000;

/** One pass's fingerprint bookkeeping (the controller's hook points). */
export class PassFingerprints {
  readonly #db: FieldbookDb;
  /** page keys that may have a row in the database */
  readonly #stored: Set<string>;
  /** every page this pass delivered, written or unchanged */
  readonly #seen = new Set<string>();
  /** collections written by something else during the pass: no row of theirs is put */
  readonly #tainted = new Set<CollectionName>();
  /**
   * Checkpoints of unchanged pages, written in batches: losing one only makes a
   * resume fetch that page again. A task's later written page replaces its entry.
   */
  #deferred = new Map<string, TaskCheckpoint>();
  /** when the oldest of #deferred was deferred */
  #deferredSince: number | null = null;
  readonly #now: () => number;

  constructor(db: FieldbookDb, stored = new Set<string>(), now: () => number = () => performance.now()) {
    this.#db = db;
    this.#stored = stored;
    this.#now = now;
  }

  /** Pages unchanged as a whole: no records, and a fingerprint that carries no items to store. */
  static isUnchanged(page: SyncPageEvent): page is SyncUnchangedEvent {
    return page.kind === 'unchanged';
  }

  /** What writing `page` does to its fingerprint row (none for a page without a fingerprint). */
  writeFor(page: SyncRecordsEvent): FingerprintWrite | undefined {
    const fp = page.fingerprint;
    if (!fp) return undefined;
    const key = pageKey(page.taskId, fp.startrow);
    this.#seen.add(key);
    const collection = page.checkpoint.collection;
    if (fp.hash !== null && isPageEnd(page) && !this.#tainted.has(collection)) {
      this.#stored.add(key);
      return {
        put: {
          key,
          collection,
          taskId: page.taskId,
          startrow: fp.startrow,
          hash: fp.hash,
          keys: JSON.stringify(fp.keys),
          hashes: fp.hashes,
          version: fp.version,
        },
      };
    }
    if (!this.#stored.has(key)) return undefined;
    this.#stored.delete(key);
    return { drop: key };
  }

  /**
   * Unchanged pages (one message may stand for several of a task): nothing to write now but (in a while) the
   * checkpoint; their keys count as delivered.
   */
  async unchanged(page: SyncUnchangedEvent): Promise<UnchangedResult> {
    const result = this.unchangedInGroup(page);
    if (this.#deferredSince !== null && this.#now() - this.#deferredSince >= SAVE_UNCHANGED_AFTER_MS)
      await this.flushCheckpoints();
    return result;
  }

  /**
   * An unchanged page handled among pages that are about to be written: its
   * checkpoint waits, never saved on its own (it could pass a page of its
   * task before it in the group, not yet written); the group's transaction
   * writes it (takeDeferred).
   */
  unchangedInGroup(page: SyncUnchangedEvent): UnchangedResult {
    this.#deferred.set(page.checkpoint.taskId, { ...page.checkpoint });
    this.#deferredSince ??= this.#now();
    const fp = page.fingerprint;
    for (const startrow of [fp.startrow, ...(fp.also ?? [])]) this.#seen.add(pageKey(page.taskId, startrow));
    return { rowsWritten: 0, inserted: 0, keys: page.unchangedKeys, changes: [] };
  }

  /**
   * The checkpoints waiting to be saved, handed to a transaction that writes
   * pages (after them, so a later page's checkpoint wins): no transaction of
   * their own. Every page they follow was handled before (in order), so
   * written by then or in that same transaction.
   */
  takeDeferred(): TaskCheckpoint[] {
    const rows = [...this.#deferred.values()];
    this.#deferred = new Map();
    this.#deferredSince = null;
    return rows;
  }

  /** A page of this task is about to be written with its own, later checkpoint. */
  supersede(taskId: string): void {
    this.#deferred.delete(taskId);
    if (this.#deferred.size === 0) this.#deferredSince = null;
  }

  async flushCheckpoints(): Promise<void> {
    if (this.#deferred.size === 0) return;
    await this.#db.syncCheckpoints.bulkPut(this.takeDeferred());
  }

  taint(collection: CollectionName): void {
    this.#tainted.add(collection);
  }

  /** Something other than the sync wrote `collection` (or what shares its fingerprints) during the pass. */
  tainted(collection: CollectionName): boolean {
    return this.#tainted.has(fingerprintOwner(collection));
  }

  /** After a complete pass: only the pages it saw keep theirs. */
  keepOnlySeen(collections: readonly CollectionName[]): Promise<void> {
    return keepOnlyFingerprints(this.#db, collections, this.#seen);
  }
}
