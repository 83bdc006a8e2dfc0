import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { liveQuery } from 'dexie';
import { openFieldbookDb } from './index.ts';
import { readInPages } from './read-in-pages.ts';
import { user } from '../testing/fixtures.ts';

const ids = (users: { userid: number }[]) => users.map((u) => u.userid);

async function cacheWith(count: number) {
  const db = openFieldbookDb(`pages-${Math.random()}`);
  await db.users.bulkPut(Array.from({ length: count }, (_, i) => user(i + 1)));
  return db;
}

describe('reading a whole table a page at a time', () => {
  it.each([0, 1, 4, 5, 11])('gives every one of %i records once, in key order, as one read would', async (count) => {
    const db = await cacheWith(count);
    expect(ids(await readInPages(db.users, (u) => u.userid, 5))).toEqual(ids(await db.users.toArray()));
  });

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
    const subscription = liveQuery(async () => (await readInPages(view.users, (u) => u.userid, 1)).length).subscribe((n) => seen.push(n));
    await vi.waitFor(() => expect(seen).toEqual([2]));
    await writer.users.put(user(3));
    await vi.waitFor(() => expect(seen.at(-1)).toBe(3));
    subscription.unsubscribe();
  });
});
