/**
 * How many records each cache table holds through a pass, without reading
 * every key at its end. The tables are counted once as the pass starts (before
 * its first write); each page write reports the records it inserted; the sync
 * alone deletes (pruning). So while nothing else writes a table during the
 * pass, its size is known at any time: at the start, plus inserted, minus
 * removed.
 *
 * A complete pass uses that twice: a collection holding exactly as many
 * records as the pass delivered keys (all of which it holds) has nothing to
 * prune, so its keys need not be read; and the totals the Sync panel shows
 * need no count. Any doubt (a table written by something else during the pass,
 * a count that failed, more keys delivered than records held) falls back to
 * reading the keys and counting, as before.
 */
import { COLLECTIONS, type CollectionName } from '../../shared/records.ts';
import type { FieldbookDb } from '../db/index.ts';

/**
 * Every cache table's size, each counted in its own read transaction, in the
 * order of COLLECTIONS: a page's write waits only for its own table's count
 * (a large table takes seconds), not for all of them. A count that fails is
 * null (that table's size is then unknown).
 */
export function countTables(db: FieldbookDb): Map<CollectionName, Promise<number | null>> {
  return new Map(COLLECTIONS.map((c) => [c, db.transaction('r', db.table(c), () => db.table(c).count()).then((n): number | null => n, () => null)]));
}

/** The collections that hold no record at all (one key read each, not a count). */
export async function emptyTables(db: FieldbookDb): Promise<Set<CollectionName>> {
  const empty = new Set<CollectionName>();
  const firstKeys = await Promise.all(COLLECTIONS.map((c) => db.table(c).limit(1).primaryKeys()));
  COLLECTIONS.forEach((c, i) => {
    if (firstKeys[i]!.length === 0) empty.add(c);
  });
  return empty;
}

export class PassSizes {
  /** each table's count as the pass began; null when it failed (questions about it are then answered "unknown") */
  readonly #atStart: Map<CollectionName, Promise<number | null>>;
  readonly #inserted = new Map<CollectionName, number>();
  readonly #removed = new Map<CollectionName, number>();
  readonly #doubtful: (collection: CollectionName) => boolean;

  /**
   * Starts counting at once: call before the pass's first write. `doubtful`
   * says whether something other than the sync wrote a collection since.
   */
  constructor(db: FieldbookDb, doubtful: (collection: CollectionName) => boolean) {
    this.#atStart = countTables(db);
    this.#doubtful = doubtful;
  }

  /** Resolves once `collections` are counted: the pass writes no record of theirs before (checkpoints, outside the count, may be written). */
  async counted(collections: Iterable<CollectionName>): Promise<void> {
    await Promise.all([...new Set(collections)].map((c) => this.#atStart.get(c)));
  }

  inserted(collection: CollectionName, n: number): void {
    if (n > 0) this.#inserted.set(collection, (this.#inserted.get(collection) ?? 0) + n);
  }

  removed(collection: CollectionName, n: number): void {
    if (n > 0) this.#removed.set(collection, (this.#removed.get(collection) ?? 0) + n);
  }

  /** The records `collection` holds now, or null when that is not known for sure. */
  async size(collection: CollectionName): Promise<number | null> {
    const start = await this.#atStart.get(collection);
    if (start === undefined || start === null || this.#doubtful(collection)) return null;
    return start + (this.#inserted.get(collection) ?? 0) - (this.#removed.get(collection) ?? 0);
  }

  /**
   * After a complete pass that delivered `delivered` of the collection's keys
   * (each held in the cache): true when the cache holds nothing else, so
   * nothing is to be pruned and its keys need not be read.
   */
  async nothingElse(collection: CollectionName, delivered: number): Promise<boolean> {
    return (await this.size(collection)) === delivered;
  }
}
