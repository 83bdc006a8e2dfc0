/**
 * Reading many records a page at a time. IndexedDB hands a read's records to
 * the window's thread in one task, the structured clone of them all: 20,000
 * people read at once took 300 ms of it on a busy laptop, 100,000 outbox ops
 * over a second; a page of 1,000 takes a few milliseconds, and the event loop
 * runs between pages. Within one read transaction, the pages are the same
 * snapshot as one read would be.
 */
import type { Collection, IndexableType, Table } from 'dexie';

const PAGE = 1000;

/** Every record of a table, in primary-key order. */
export async function readInPages<T, K extends IndexableType, I>(
  table: Table<T, K, I>,
  keyOf: (record: T) => K,
  pageSize = PAGE,
): Promise<T[]> {
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

/**
 * The records of a collection (a range of an index), a page at a time: `range`
 * makes the collection afresh for each page. Run it inside a transaction, or
 * the pages may come from different moments.
 */
export async function readRangeInPages<T, K extends IndexableType, I>(
  range: () => Collection<T, K, I>,
  pageSize = PAGE,
): Promise<T[]> {
  const all: T[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const page = await range().offset(offset).limit(pageSize).toArray();
    for (const record of page) all.push(record);
    if (page.length < pageSize) return all;
  }
}
