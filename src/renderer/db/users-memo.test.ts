import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import Dexie, { liveQuery, RangeSet } from 'dexie';
import { openFieldbookDb } from './index.ts';
import { allUsersByName, inSortNameOrder } from './users-memo.ts';
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
    const outboxDb = openFieldbookDb(name, { durability: 'strict', memory: viewDb.memory });
    await viewDb.users.put(user(1));
    expect(names(await allUsersByName(viewDb))).toEqual(['user1']);
    await outboxDb.users.put(user(2));
    expect(names(await allUsersByName(viewDb))).toEqual(['user1', 'user2']);
  });

  it('gives a live query that counts the users the new list after a write', async () => {
    const name = `memo-${Math.random()}`;
    const viewDb = openFieldbookDb(name);
    const writer = openFieldbookDb(name, { memory: viewDb.memory });
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
  it('is dropped when another window writes the users (Dexie tells of it), and kept for its other tables', async () => {
    const db = openFieldbookDb(`memo-${Math.random()}`);
    await db.users.put(user(1));
    const first = allUsersByName(db);
    await first;
    Dexie.on.storagemutated.fire({ [`idb://${db.name}/sites/`]: new RangeSet() });
    expect(allUsersByName(db)).toBe(first);
    Dexie.on.storagemutated.fire({ [`idb://${db.name}/users/`]: new RangeSet() });
    expect(allUsersByName(db)).not.toBe(first);
  });
});

describe('the order of the in-memory copy', () => {
  it('is exactly the order of the name index, ties, accents, case and symbols included', async () => {
    const db = openFieldbookDb(`memo-${Math.random()}`);
    // a seeded mix: shared names (ties broken by id), accents, capitals, digits, symbols, characters beyond the BMP
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const parts = [
      'adams',
      'Adams',
      'ádams',
      "o'neil",
      'oneil',
      'zoë',
      'Zoe',
      '10',
      '9',
      'van der berg',
      '𝒜lpha',
      'émile',
      'Emile',
      '',
      'ß',
      'ss',
    ];
    const users = Array.from({ length: 400 }, (_, i) =>
      user(1000 - i, { lastname: parts[next() % parts.length]!, firstname: parts[next() % parts.length]! }),
    );
    await db.users.bulkPut(users);
    const byIndex = await db.users.orderBy('sortName').toArray();
    expect((await allUsersByName(db)).map((u) => u.userid)).toEqual(byIndex.map((u) => u.userid));
  });

  it('leaves out a record without a name key, as the index does', () => {
    const broken = { ...user(2), sortName: undefined } as unknown as ReturnType<typeof user>;
    expect(inSortNameOrder([user(3), broken, user(1)]).map((u) => u.userid)).toEqual([1, 3]);
  });
});
