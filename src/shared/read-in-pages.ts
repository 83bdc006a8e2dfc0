/**
 * Reading many records a page at a time, or a record at a time. IndexedDB
 * hands a read's records to the window's thread in one task, the structured clone of them all: 20,000
 * people read at once took 300 ms of it on a busy laptop, 100,000 outbox ops
 * over a second; a page of 1,000 takes a few milliseconds, and the event loop
 * runs between pages. Within one read transaction, the pages are the same
 * snapshot as one read would be.
 */
import type { Collection, IndexableType, Table } from 'dexie';

/**
 * a page of cached people or e-mails: 1,000 people are about 15 ms of the whole read's 300 ms on a busy laptop,
 * several times that on a loaded machine; half of it keeps each answer well under 50 ms there
 */
const PAGE = 500;

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
 * The records of a collection (a range of an index), one at a time through a
 * cursor: each record's answer is its own short task, and the cursor moves on
 * from where it stood. Pages of a range by offset made IndexedDB step over every
 * record before each page again: reading 60,000 outbox ops took 49 s in pages of
 * 1,000 and 133 s in pages of 250 (Chromium, a loaded 2-core machine), against
 * 7-10 s by cursor, and a page of 1,000 ops was one answer of 100 ms there. Run
 * it inside a transaction, as one read would be.
 */
export async function readRangeByCursor<T, K extends IndexableType, I>(
  range: Collection<T, K, I>,
): Promise<T[]> {
  const all: T[] = [];
  await range.each((record) => {
    all.push(record);
  });
  return all;
}
