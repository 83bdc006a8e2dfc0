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
 *
 * Counting a large table costs Chromium seconds (it steps through every
 * record), so a complete pass leaves each size it knows exactly with the
 * collection's sync row (`held`), and the next pass starts from it instead of
 * counting. A held size is only ever the sync's own last word: the next pass
 * takes it away as it starts (a pass that is then interrupted leaves none),
 * and any other write to the table forgets it (fingerprints.ts, the same guard
 * that forgets the collection's page fingerprints).
 */
import { COLLECTIONS, type CollectionName } from '../../shared/records.ts';
import type { FieldbookDb, SyncCollectionRow } from '../db/rows.ts';

/** Sizes a complete pass left, by collection (`takeHeldSizes`). */
export type HeldSizes = Partial<Record<CollectionName, number>>;

/**
 * Every cache table's size, in the order of COLLECTIONS: those `held` as they
 * are, the others each counted in its own read transaction (a page's write
 * waits only for its own table's count; a large table takes seconds). A count
 * that fails is null (that table's size is then unknown).
 */
export function countTables(
  db: FieldbookDb,
  held: HeldSizes = {},
): Map<CollectionName, Promise<number | null>> {
  const count = (c: CollectionName): Promise<number | null> => {
    const size = held[c];
    if (size !== undefined) return Promise.resolve(size);
    return db
      .transaction('r', db.table(c), () => db.table(c).count())
      .then(
        (n): number | null => n,
        () => null,
      );
  };
  return new Map(COLLECTIONS.map((c) => [c, count(c)]));
}

/**
 * The collections' sync rows, and the sizes the last complete pass left with
 * them, which are taken away in the same transaction: call as a pass starts,
 * before it writes anything. A size that is not a whole number is not one.
 */
export async function takeHeldSizes(
  db: FieldbookDb,
): Promise<{ rows: SyncCollectionRow[]; held: HeldSizes }> {
  return db.transaction('rw', db.syncCollections, async () => {
    const rows = await db.syncCollections.toArray();
    const held: HeldSizes = {};
    const taken: SyncCollectionRow[] = [];
    for (const row of rows) {
      if (!('held' in row)) continue;
      if (Number.isSafeInteger(row.held) && row.held! >= 0) held[row.collection] = row.held!;
      const { held: _, ...rest } = row;
      taken.push(rest);
    }
    if (taken.length > 0) await db.syncCollections.bulkPut(taken);
    return { rows: rows.map(({ held: _, ...rest }) => rest), held };
  });
}

/** Forgets the sizes held for `collections` (something other than the sync wrote them). */
export async function forgetHeldSizes(
  db: FieldbookDb,
  collections: readonly CollectionName[],
): Promise<void> {
  await db.syncCollections
    .where('collection')
    .anyOf([...collections])
    .filter((row) => 'held' in row)
    .modify((row) => {
      delete row.held;
    });
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
   * says whether something other than the sync wrote a collection since;
   * `held`: sizes known without counting (`takeHeldSizes`).
   */
  constructor(db: FieldbookDb, doubtful: (collection: CollectionName) => boolean, held: HeldSizes = {}) {
    this.#atStart = countTables(db, held);
    this.#doubtful = doubtful;
  }

  /**
   * Resolves once `collections` are counted: the pass writes no record of theirs before (checkpoints, outside the
   * count, may be written).
   */
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
