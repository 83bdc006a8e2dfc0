import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { liveQuery } from 'dexie';
import { openFieldbookDb } from './index.ts';
import { readInPages, readRangeByCursor } from '../../shared/read-in-pages.ts';
import { user } from '../testing/fixtures.ts';

const ids = (users: { userid: number }[]) => users.map((u) => u.userid);

async function cacheWith(count: number) {
  const db = openFieldbookDb(`pages-${Math.random()}`);
  await db.users.bulkPut(Array.from({ length: count }, (_, i) => user(i + 1)));
  return db;
}

describe('reading a whole table a page at a time', () => {
  it.each([0, 1, 4, 5, 11])(
    'gives every one of %i records once, in key order, as one read would',
    async (count) => {
      const db = await cacheWith(count);
      expect(ids(await readInPages(db.users, (u) => u.userid, 5))).toEqual(ids(await db.users.toArray()));
    },
  );

  it('asks IndexedDB for one page of records at a time, never for the whole table', async () => {
    const db = await cacheWith(11);
    const where = vi.spyOn(db.users, 'where');
    const orderBy = vi.spyOn(db.users, 'orderBy');
    await readInPages(db.users, (u) => u.userid, 5);
    // pages of 5, 5 and 1: the first from the start, the next two after the last key read
    expect(orderBy).toHaveBeenCalledTimes(1);
    expect(where).toHaveBeenCalledTimes(2);
  });

  it('sees a write made by another instance once it is done, as a live query', async () => {
    const name = `pages-${Math.random()}`;
    const view = openFieldbookDb(name);
    const writer = openFieldbookDb(name);
    await view.users.bulkPut([user(1), user(2)]);
    const seen: number[] = [];
    const subscription = liveQuery(
      async () => (await readInPages(view.users, (u) => u.userid, 1)).length,
    ).subscribe((n) => seen.push(n));
    await vi.waitFor(() => expect(seen).toEqual([2]));
    await writer.users.put(user(3));
    await vi.waitFor(() => expect(seen.at(-1)).toBe(3));
    subscription.unsubscribe();
  });
});

describe('reading a range of an index a record at a time', () => {
  it('gives the records of the range only, each once, as one read of it would', async () => {
    const db = await cacheWith(0);
    await db.users.bulkPut(
      Array.from({ length: 23 }, (_, i) => ({ ...user(i + 1), siteid: i % 3 === 0 ? 7 : 8 })),
    );
    const read = await db.transaction('r', db.users, () =>
      readRangeByCursor(db.users.where('siteid').equals(8)),
    );
    expect(ids(read)).toEqual(ids(await db.users.where('siteid').equals(8).toArray()));
  });

  it('never asks IndexedDB for the records in one answer, nor steps over those read again', async () => {
    const db = await cacheWith(11);
    const range = db.users.where('siteid').above(0);
    const toArray = vi.spyOn(range, 'toArray');
    const offset = vi.spyOn(range, 'offset');
    expect(await db.transaction('r', db.users, () => readRangeByCursor(range))).toHaveLength(11);
    expect(toArray).not.toHaveBeenCalled();
    expect(offset).not.toHaveBeenCalled();
  });
});
