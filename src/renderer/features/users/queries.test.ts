import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { searchUsers, searchUsersWithPending, userFilterOptions, withPendingValues } from './queries.ts';
import {
  registerPendingSource,
  type OverlayKind,
  type OverlayRecords,
  type Touched,
} from '../../app/overlays.ts';
import { freshDb, user } from '../../testing/fixtures.ts';
import type { FieldbookDb } from '../../db/index.ts';

let db: FieldbookDb;
beforeEach(async () => {
  db = freshDb();
  await db.users.bulkPut([
    user(1, {
      firstname: 'Ada',
      lastname: 'Lovelace',
      username: 'alovelace',
      employeeid: 'EMP-001',
      siteid: 1,
      status: 'Active',
      usertype: 'Supervisor',
    }),
    user(2, {
      firstname: 'Alan',
      lastname: 'Turing',
      username: 'aturing',
      employeeid: 'EMP-002',
      siteid: 1,
      status: 'Inactive',
      usertype: 'User',
    }),
    user(3, {
      firstname: 'Grace',
      lastname: 'Hopper',
      username: 'ghopper',
      employeeid: '',
      siteid: 2,
      status: 'Offline',
      usertype: 'User',
    }),
    user(4, {
      firstname: 'Adele',
      lastname: 'Goldberg',
      username: 'agoldberg',
      employeeid: 'X9',
      siteid: 2,
      status: 'Suspended-ish',
      usertype: 'Administrator',
    }),
  ]);
  await db.groupMembers.bulkPut([
    { id: '10-2', groupid: 10, userid: 2 },
    { id: '10-3', groupid: 10, userid: 3 },
  ]);
});

const ids = (users: { userid: number }[]) => users.map((u) => u.userid);

describe('searching users', () => {
  it('matches a first-name prefix whatever its case', async () => {
    expect(ids(await searchUsers(db, 'AD'))).toEqual([4, 1]);
  });

  it('matches a last-name prefix and "first last" typed in full', async () => {
    expect(ids(await searchUsers(db, 'lovel'))).toEqual([1]);
    expect(ids(await searchUsers(db, 'grace hop'))).toEqual([3]);
  });

  it('matches username and employee id prefixes', async () => {
    expect(ids(await searchUsers(db, 'aturi'))).toEqual([2]);
    expect(ids(await searchUsers(db, 'emp-00'))).toEqual([1, 2]);
  });

  it('does not match text in the middle of a name', async () => {
    expect(ids(await searchUsers(db, 'velace'))).toEqual([]);
  });

  it('ignores accents in the name and in the query', async () => {
    await db.users.bulkPut([
      user(5, { firstname: 'María', lastname: 'Núñez', username: 'mnunez' }),
      user(6, { firstname: 'Lucia', lastname: 'Fernandez', username: 'lucia.fernandez' }),
    ]);
    expect(ids(await searchUsers(db, 'nunez'))).toEqual([5]);
    expect(ids(await searchUsers(db, 'NÚÑ'))).toEqual([5]);
    expect(ids(await searchUsers(db, 'fernández'))).toEqual([6]);
  });

  it('finds a word of a username split at dots, underscores and hyphens', async () => {
    await db.users.put(user(6, { firstname: 'Lucy', lastname: 'Ferris', username: 'lucia.fernandez' }));
    expect(ids(await searchUsers(db, 'fernandez'))).toEqual([6]);
  });

  it('matches names typed in either order, with or without a comma', async () => {
    await db.users.bulkPut([
      user(7, { firstname: 'María', lastname: 'Bailey' }),
      user(8, { firstname: 'Mario', lastname: 'Bailey' }),
    ]);
    expect(ids(await searchUsers(db, 'maria bailey'))).toEqual([7]);
    expect(ids(await searchUsers(db, 'bailey, maria'))).toEqual([7]);
    expect(ids(await searchUsers(db, 'bailey mar'))).toEqual([7, 8]);
  });

  it('lists everyone by last name when there is no text', async () => {
    expect(ids(await searchUsers(db, '  '))).toEqual([4, 3, 1, 2]);
  });
});

describe('the in-memory copy behind the search', () => {
  it('sees a user added after an earlier search', async () => {
    expect(ids(await searchUsers(db, 'zz'))).toEqual([]);
    await db.users.put(user(9, { firstname: 'Zz', lastname: 'Top' }));
    expect(ids(await searchUsers(db, 'zz'))).toEqual([9]);
  });

  it('sees a change of status after an earlier search', async () => {
    expect(ids(await searchUsers(db, '', { status: 'Active' }))).toEqual([1]);
    await db.users.update(2, { status: 'Active' });
    expect(ids(await searchUsers(db, '', { status: 'Active' }))).toEqual([1, 2]);
  });
});

describe('filtering and sorting users', () => {
  it('filters by site, status and user type, together with the search', async () => {
    expect(ids(await searchUsers(db, '', { siteid: 2 }))).toEqual([4, 3]);
    expect(ids(await searchUsers(db, '', { status: 'Inactive' }))).toEqual([2]);
    expect(ids(await searchUsers(db, 'a', { usertype: 'User' }))).toEqual([2]);
  });

  it('filters by profile group membership', async () => {
    expect(ids(await searchUsers(db, '', { groupid: 10 }))).toEqual([3, 2]);
    expect(ids(await searchUsers(db, 'g', { groupid: 10 }))).toEqual([3]);
  });

  it('sorts by any column in either direction', async () => {
    expect(ids(await searchUsers(db, '', {}, { key: 'username', direction: 'asc' }))).toEqual([4, 1, 2, 3]);
    expect(ids(await searchUsers(db, '', {}, { key: 'name', direction: 'desc' }))).toEqual([2, 1, 3, 4]);
  });

  it('offers unknown status values as they are', async () => {
    const options = await userFilterOptions(db);
    expect(options.statuses).toContain('Suspended-ish');
    expect(options.usertypes).toEqual(['Administrator', 'Supervisor', 'User']);
  });

  it('offers a status and a type that only a pending edit or a person created offline has', () => {
    const touched = {
      before: [user(2, { status: 'Inactive', usertype: 'User' })],
      after: [
        {
          ...user(2, { status: 'Offline', usertype: 'User' }),
          pendingOps: ['op-1'],
          pendingChange: 'update' as const,
        },
        {
          ...user(-5, { status: 'On leave', usertype: 'Contractor' }),
          pendingOps: ['op-2'],
          pendingChange: 'create' as const,
        },
      ],
    };
    expect(withPendingValues(['Active', 'Inactive'], touched, 'status')).toEqual([
      'Active',
      'Inactive',
      'Offline',
      'On leave',
    ]);
    expect(withPendingValues(['Supervisor', 'User'], touched, 'usertype')).toEqual([
      'Contractor',
      'Supervisor',
      'User',
    ]);
  });

  it('keeps the cached values as they are when nothing pending adds one', () => {
    expect(withPendingValues(['', 'Active'], { before: [], after: [] }, 'status')).toEqual(['', 'Active']);
  });
});

describe('searching users with the pending work applied', () => {
  const created = {
    ...user(-7, {
      firstname: 'María',
      lastname: 'Núñez',
      username: 'maria.nunez',
      employeeid: 'N-7',
      siteid: 1,
    }),
    pendingOps: ['op-7'],
    pendingChange: 'create' as const,
  };
  const renamed = {
    ...user(2, {
      firstname: 'Alan',
      lastname: 'Mathison',
      username: 'aturing',
      employeeid: 'EMP-002',
      siteid: 1,
      status: 'Inactive',
    }),
    pendingOps: ['op-8'],
    pendingChange: 'update' as const,
  };
  let unregister: () => void = () => undefined;
  beforeEach(() => {
    const users: Touched<OverlayRecords['users']> = {
      before: [
        user(2, {
          firstname: 'Alan',
          lastname: 'Turing',
          username: 'aturing',
          employeeid: 'EMP-002',
          siteid: 1,
          status: 'Inactive',
        }),
      ],
      after: [created, renamed],
    };
    unregister = registerPendingSource(
      async () =>
        <K extends OverlayKind>(kind: K) =>
          Promise.resolve(
            (kind === 'users' ? users : { before: [], after: [] }) as Touched<OverlayRecords[K]>,
          ),
    );
    return () => unregister();
  });

  it('finds a person created offline by a folded word of the name, in either order', async () => {
    expect(ids(await searchUsersWithPending(db, 'nunez'))).toEqual([-7]);
    expect(ids(await searchUsersWithPending(db, 'NÚÑEZ, maria'))).toEqual([-7]);
    expect(ids(await searchUsersWithPending(db, 'nunez maría'))).toEqual([-7]);
  });

  it('finds a person created offline by a username fragment and marks them as a pending create', async () => {
    const [found] = await searchUsersWithPending(db, 'nunez');
    expect(found).toMatchObject({ username: 'maria.nunez', pendingChange: 'create' });
  });

  it('finds a person by a pending new name and no longer by the old one', async () => {
    expect(ids(await searchUsersWithPending(db, 'mathison'))).toEqual([2]);
    expect(ids(await searchUsersWithPending(db, 'turing'))).toEqual([]);
  });
});
