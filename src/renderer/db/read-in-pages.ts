/**
 * Every record of a table, read a page at a time in primary-key order inside
 * one read transaction (the same snapshot as one read). IndexedDB hands a
 * read's records to the window's thread in one task, the structured clone of
 * them all: 20,000 people read at once took 300 ms of it on a busy laptop, a
 * page of 1,000 a few milliseconds, with the event loop free between pages.
 */
import type { IndexableType, Table } from 'dexie';

const PAGE = 1000;

export async function readInPages<T, K extends IndexableType, I>(table: Table<T, K, I>, keyOf: (record: T) => K, pageSize = PAGE): Promise<T[]> {
  return table.db.transaction('r', table, async () => {
    const all: T[] = [];
    let page = await table.orderBy(':id').limit(pageSize).toArray();
    for (;;) {
      for (const record of page) all.push(record);
      const last = page[page.length - 1];
      if (page.length < pageSize || last === undefined) return all;
      page = await table.where(':id').above(keyOf(last)).limit(pageSize).toArray();
    }
  });
}
