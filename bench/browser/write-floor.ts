/**
 * The write floor, page side. The records a sync stored are read from the app's
 * cache (in the benchmark's main browser profile) and written again into a
 * fresh database of the same schema in a FRESH browser profile: the sync wrote
 * into an empty origin, and an origin's IndexedDB store that already holds the
 * whole cache would make the floor pay for compactions the sync never paid.
 * The driver carries the records between the two (bench/write-floor-lib.ts);
 * only the page-sized write transactions are timed.
 */
import Dexie, { type Table } from 'dexie';
import { openFieldbookDb, type FieldbookDb } from '../../src/renderer/db/index.ts';
import { CACHE_TABLE_SCHEMAS } from '../../src/renderer/db/schema.ts';
import { PRIMARY_KEY, type AnyRecord, type CollectionName } from '../../src/shared/records.ts';
import type { RecordStretch } from '../page-api.ts';

/** Not under the app's name prefix: the app never opens it. */
export const FLOOR_DB_NAME = 'bench-write-floor';

type AnyTable = Table<AnyRecord, string | number>;

/** Up to `count` records of a collection after `afterKey` in primary-key order, as JSON. */
export async function readStretch(
  cache: FieldbookDb,
  collection: CollectionName,
  afterKey: string | number | null,
  count: number,
): Promise<RecordStretch> {
  const table = cache.table(collection) as AnyTable;
  const records =
    afterKey === null
      ? await table.limit(count).toArray()
      : await table.where(':id').above(afterKey).limit(count).toArray();
  const keyField: string = PRIMARY_KEY[collection];
  const last = records[records.length - 1] as unknown as Record<string, string | number> | undefined;
  return {
    json: JSON.stringify(records),
    records: records.length,
    lastKey: last ? last[keyField]! : afterKey,
  };
}

let floor: Dexie | null = null;
let staged: AnyRecord[] = [];

/**
 * The cache's tables with their primary keys only: no secondary or multi-entry
 * index, no middleware (derived fields), the same (relaxed) durability. What a
 * bulk write of the same records costs IndexedDB itself on this machine.
 */
function keysOnlyDb(): Dexie {
  const db = new Dexie(FLOOR_DB_NAME, { chromeTransactionDurability: 'relaxed' });
  db.version(1).stores(
    Object.fromEntries(
      Object.entries(CACHE_TABLE_SCHEMAS).map(([table, spec]) => [table, spec.split(',')[0]!.trim()]),
    ),
  );
  return db;
}

/** `app`: the app's own schema and middleware (the write floor); `keys`: primary keys only (the keys-only floor). */
export async function floorOpen(schema: 'app' | 'keys' = 'app'): Promise<void> {
  await Dexie.delete(FLOOR_DB_NAME);
  floor = schema === 'app' ? openFieldbookDb(FLOOR_DB_NAME) : keysOnlyDb();
  await floor.open();
}

export function floorStage(json: string): number {
  staged = JSON.parse(json) as AnyRecord[];
  return staged.length;
}

/** Writes the staged records in pages of `pageSizes`, one transaction each; returns the milliseconds spent. */
export async function floorWrite(collection: CollectionName, pageSizes: number[]): Promise<number> {
  if (!floor) throw new Error('floorOpen() first');
  const target = floor.table(collection) as AnyTable;
  const pages: AnyRecord[][] = [];
  let at = 0;
  for (const size of pageSizes) {
    if (at >= staged.length) break;
    pages.push(staged.slice(at, at + size));
    at += size;
  }
  staged = [];
  const started = performance.now();
  for (const page of pages) await floor.transaction('rw', target, () => target.bulkPut(page));
  return performance.now() - started;
}

export async function floorClose(): Promise<void> {
  floor?.close();
  floor = null;
  await Dexie.delete(FLOOR_DB_NAME);
}
