import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openFieldbookDb, type FieldbookDb } from './index.ts';
import {
  firstScreenGeneration,
  forgetFirstScreen,
  keepFirstScreen,
  keptFirstScreen,
  type KeptFirstScreen,
} from './first-screen-kept.ts';
import { keepUsersFirstScreen } from '../features/users/queries.ts';
import {
  registerPendingSource,
  type OverlayKind,
  type OverlayRecords,
  type Touched,
} from '../app/overlays.ts';
import { user } from '../testing/fixtures.ts';

/** The window's local storage, as Chromium's behaves for these calls. */
class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

let storage: MemoryStorage;
let db: FieldbookDb;
beforeEach(async () => {
  storage = new MemoryStorage();
  vi.stubGlobal('localStorage', storage);
  db = openFieldbookDb(`kept-${Math.random().toString(36).slice(2)}`);
  await db.sites.bulkPut([
    { siteid: 1, sitename: 'Riverside Plant' },
    { siteid: 2, sitename: 'Harbour Depot' },
    { siteid: 3, sitename: 'Nobody Shown Here' },
  ] as never);
  await db.users.bulkPut([
    user(1, { firstname: 'Ada', lastname: 'Lovelace', siteid: 1, extra: { note: 'private' } } as never),
    user(2, { firstname: 'Alan', lastname: 'Turing', siteid: 2 }),
    user(3, { firstname: 'Grace', lastname: 'Hopper', siteid: 1 }),
  ]);
});
afterEach(() => vi.unstubAllGlobals());

const names = (screen: KeptFirstScreen | null) => screen?.rows.map((u) => `${u.lastname}, ${u.firstname}`);

describe('the users list kept for the next start', () => {
  it('holds the first rows in name order, the count and the names of their sites, and nothing the list does not show', async () => {
    expect(await keepUsersFirstScreen(db, 2)).toBe(true);
    const kept = keptFirstScreen(db.name);
    expect(names(kept)).toEqual(['Hopper, Grace', 'Lovelace, Ada']);
    expect(kept?.total).toBe(3);
    expect(kept?.sites).toEqual([[1, 'Riverside Plant']]);
    const text = [...storage.items.values()].join('');
    expect(text).not.toContain('private');
    expect(text).not.toContain('searchKeys":["');
  });

  it('shows queued changes as the list did: a person created offline counts and shows, marked', async () => {
    const created = {
      ...user(-7, { firstname: 'Maria', lastname: 'Abbot', siteid: 2 }),
      pendingOps: ['op-1'],
      pendingChange: 'create' as const,
    };
    const users: Touched<OverlayRecords['users']> = { before: [], after: [created] };
    const unregister = registerPendingSource(
      async () =>
        <K extends OverlayKind>(kind: K) =>
          Promise.resolve(
            (kind === 'users' ? users : { before: [], after: [] }) as Touched<OverlayRecords[K]>,
          ),
    );
    try {
      await keepUsersFirstScreen(db, 60);
    } finally {
      unregister();
    }
    const kept = keptFirstScreen(db.name);
    expect(names(kept)?.[0]).toBe('Abbot, Maria');
    expect(kept?.rows[0]).toMatchObject({ userid: -7, pendingOps: ['op-1'], pendingChange: 'create' });
    expect(kept?.total).toBe(4);
  });

  it.each([
    ['a person is changed', (d: FieldbookDb) => d.users.update(1, { lastname: 'Byron' })],
    ['a person is removed', (d: FieldbookDb) => d.users.delete(2)],
    ['a site is renamed', (d: FieldbookDb) => d.sites.put({ siteid: 1, sitename: 'Riverside' } as never)],
    [
      'a change is queued',
      (d: FieldbookDb) =>
        d.table('outbox').put({ id: 'op-9', status: 'pending', targetKey: 'users:1', seq: 1 }),
    ],
  ])('is dropped the moment %s, through any instance of the database', async (_what, write) => {
    await keepUsersFirstScreen(db, 60);
    const other = openFieldbookDb(db.name, { durability: 'strict', memory: db.memory });
    await write(other);
    expect(keptFirstScreen(db.name)).toBeNull();
  });

  it('stays when a table the list does not show is written', async () => {
    await keepUsersFirstScreen(db, 60);
    await db.trainingAssignments.clear();
    await db.pageFingerprints.clear();
    expect(names(keptFirstScreen(db.name))).toHaveLength(3);
  });

  it('is not kept from reads that began before a write to what they show', async () => {
    const generation = firstScreenGeneration(db);
    const screen = { rows: [user(1)], total: 3, sites: [] };
    await db.users.update(3, { status: 'Inactive' });
    expect(keepFirstScreen(db, generation, screen)).toBe(false);
    expect(keptFirstScreen(db.name)).toBeNull();
    expect(keepFirstScreen(db, firstScreenGeneration(db), screen)).toBe(true);
  });

  it('is not kept when a write begins while its reads are under way', async () => {
    const saving = keepUsersFirstScreen(db, 60);
    await db.users.put(user(4, { lastname: 'Aardvark' }));
    expect(await saving).toBe(false);
    expect(keptFirstScreen(db.name)).toBeNull();
  });

  it('belongs to its own profile: another database has none', async () => {
    await keepUsersFirstScreen(db, 60);
    expect(keptFirstScreen(`${db.name}-other`)).toBeNull();
  });

  it('is deleted with the profile', async () => {
    await keepUsersFirstScreen(db, 60);
    forgetFirstScreen(db.name);
    expect(keptFirstScreen(db.name)).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it('is kept again after a write once the list reads it afresh', async () => {
    await keepUsersFirstScreen(db, 60);
    await db.users.update(1, { lastname: 'Byron' });
    expect(await keepUsersFirstScreen(db, 60)).toBe(true);
    expect(names(keptFirstScreen(db.name))).toContain('Byron, Ada');
    await db.users.delete(1);
    expect(keptFirstScreen(db.name)).toBeNull();
  });
});

describe('a kept screen that cannot be trusted is not shown', () => {
  const good = () => ({
    format: 1,
    total: 1,
    sites: [[1, 'Riverside Plant']],
    rows: [
      {
        userid: 1,
        siteid: 1,
        username: 'a',
        firstname: 'A',
        lastname: 'B',
        employeeid: '',
        status: 'Active',
        usertype: 'User',
        sortName: 'b, a',
        searchKeys: [],
      },
    ],
  });
  const key = () => `fieldbook.firstScreen.${db.name}`;

  it('reads a well-formed one', () => {
    storage.setItem(key(), JSON.stringify(good()));
    expect(keptFirstScreen(db.name)?.rows).toHaveLength(1);
  });

  it.each([
    ['text that is not JSON', () => '{"format":1,'],
    ['another format', () => JSON.stringify({ ...good(), format: 2 })],
    [
      'a name that is not text',
      () => JSON.stringify({ ...good(), rows: [{ ...good().rows[0], lastname: 42 }] }),
    ],
    [
      'an id that is not a whole number',
      () => JSON.stringify({ ...good(), rows: [{ ...good().rows[0], userid: 1.5 }] }),
    ],
    [
      'an unknown kind of queued change',
      () => JSON.stringify({ ...good(), rows: [{ ...good().rows[0], pendingChange: 'explode' }] }),
    ],
    ['a count that is not a number', () => JSON.stringify({ ...good(), total: '3' })],
    ['a site without a name', () => JSON.stringify({ ...good(), sites: [[1]] })],
    [
      'more rows than a first screen',
      () =>
        JSON.stringify({
          ...good(),
          rows: Array.from({ length: 101 }, (_, i) => ({ ...good().rows[0], userid: i + 1 })),
        }),
    ],
    ['the same person twice', () => JSON.stringify({ ...good(), rows: [good().rows[0], good().rows[0]] })],
    ['null', () => 'null'],
  ])('%s', (_what, text) => {
    storage.setItem(key(), text());
    expect(keptFirstScreen(db.name)).toBeNull();
  });

  it('a storage that refuses to save (full) keeps nothing and throws nothing', () => {
    const full = {
      getItem: () => null,
      removeItem: () => undefined,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(keepFirstScreen(db, firstScreenGeneration(db), { rows: [], total: 0, sites: [] }, full)).toBe(
      false,
    );
  });
});
