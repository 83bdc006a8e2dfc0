/**
 * The write floor: the records a sync stored, written again into a fresh
 * database of the same schema in the same browser, one transaction per page of
 * the sizes the sync delivered, with nothing else going on. Source reads happen
 * between timed stretches and are not counted.
 */
import type { Table } from 'dexie';
import { openFieldbookDb, type FieldbookDb } from '../../src/renderer/db/index.ts';
import { PRIMARY_KEY, type AnyRecord } from '../../src/shared/records.ts';
import type { CollectionPages, WriteFloorResult } from './api.ts';

/** Not under the app's name prefix: the app never opens it. */
export const FLOOR_DB_NAME = 'bench-write-floor';
/** Pages read from the source before each timed stretch of writes. */
const PAGES_PER_STRETCH = 40;

type AnyTable = Table<AnyRecord, string | number>;

async function readAfter(table: AnyTable, key: string | number | null, count: number): Promise<AnyRecord[]> {
  return key === null ? table.limit(count).toArray() : table.where(':id').above(key).limit(count).toArray();
}

export async function writeFloor(cache: FieldbookDb, plan: CollectionPages[]): Promise<WriteFloorResult> {
  await openFieldbookDb(FLOOR_DB_NAME).delete();
  const floor = openFieldbookDb(FLOOR_DB_NAME);
  await floor.open();
  const result: WriteFloorResult = { ms: 0, records: 0, pages: 0, byCollection: {} };
  try {
    for (const { collection, pageSizes } of plan) {
      const source = cache.table(collection) as AnyTable;
      const target = floor.table(collection) as AnyTable;
      const keyField: string = PRIMARY_KEY[collection];
      const part = (result.byCollection[collection] = { ms: 0, records: 0, pages: 0 });
      let lastKey: string | number | null = null;
      for (let first = 0; first < pageSizes.length; first += PAGES_PER_STRETCH) {
        const sizes = pageSizes.slice(first, first + PAGES_PER_STRETCH);
        const records = await readAfter(source, lastKey, sizes.reduce((a, b) => a + b, 0));
        if (records.length === 0) break;
        lastKey = (records[records.length - 1] as unknown as Record<string, string | number>)[keyField]!;
        const pages: AnyRecord[][] = [];
        let at = 0;
        for (const size of sizes) {
          if (at >= records.length) break;
          pages.push(records.slice(at, at + size));
          at += size;
        }
        const started = performance.now();
        for (const page of pages) await floor.transaction('rw', target, () => target.bulkPut(page));
        part.ms += performance.now() - started;
        part.pages += pages.length;
        part.records += records.length;
      }
    }
    for (const part of Object.values(result.byCollection)) {
      result.ms += part.ms;
      result.pages += part.pages;
      result.records += part.records;
    }
  } finally {
    floor.close();
    await openFieldbookDb(FLOOR_DB_NAME).delete();
  }
  return result;
}
