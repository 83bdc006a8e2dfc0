import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { liveQuery } from 'dexie';
import { openFieldbookDb } from './index.ts';
import { allUsersByName } from './users-memo.ts';
import { user } from '../testing/fixtures.ts';

const names = (users: { username: string }[]) => users.map((u) => u.username);

describe('the in-memory copy of the users', () => {
  it('is read once and served again while nothing changes', async () => {
    const db = openFieldbookDb(`memo-${Math.random()}`);
    await db.users.put(user(1));
    expect(allUsersByName(db)).toBe(allUsersByName(db));
  });

  it('is dropped by a write made through another instance of the same cache (the outbox opens one)', async () => {
    const name = `memo-${Math.random()}`;
    const viewDb = openFieldbookDb(name);
    const outboxDb = openFieldbookDb(name, { durability: 'strict' });
    await viewDb.users.put(user(1));
    expect(names(await allUsersByName(viewDb))).toEqual(['user1']);
    await outboxDb.users.put(user(2));
    expect(names(await allUsersByName(viewDb))).toEqual(['user1', 'user2']);
  });

  it('gives a live query that counts the users the new list after a write', async () => {
    const name = `memo-${Math.random()}`;
    const viewDb = openFieldbookDb(name);
    const writer = openFieldbookDb(name);
    await viewDb.users.put(user(1));
    const seen: number[] = [];
    const subscription = liveQuery(async () => {
      const [, users] = await Promise.all([viewDb.users.count(), allUsersByName(viewDb)]);
      return users.length;
    }).subscribe((n) => seen.push(n));
    await vi.waitFor(() => expect(seen).toEqual([1]));
    await writer.users.put(user(2));
    await vi.waitFor(() => expect(seen.at(-1)).toBe(2));
    subscription.unsubscribe();
  });
});
