/**
 * Every cached user in name order, held in memory per database, so a search is
 * a scan of 20,000 small records in memory (a few milliseconds per keystroke)
 * rather than an IndexedDB read of thousands of matches.
 *
 * The copy is dropped the moment any write to the users table begins (a DBCore
 * middleware on every instance this module opens, the outbox's included): a read
 * started after that point queues behind the write in IndexedDB, so it cannot
 * see the old data. Writes from other windows drop it through Dexie's
 * `storagemutated` event.
 */
import Dexie, { type DBCore, type Middleware } from 'dexie';
import type { UserRecord } from '../../shared/records.ts';

interface UsersSource {
  name: string;
  users: { orderBy(index: 'sortName'): { toArray(): Promise<UserRecord[]> } };
}

const loaded = new Map<string, { source: UsersSource; users: Promise<UserRecord[]> }>();

export function forgetUsers(dbName: string): void {
  loaded.delete(dbName);
}

Dexie.on('storagemutated', (parts) => {
  for (const name of [...loaded.keys()]) {
    const prefix = `idb://${name}/users/`;
    if (Object.keys(parts).some((part) => part.startsWith(prefix))) forgetUsers(name);
  }
});

export function usersMemoMiddleware(dbName: string): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'usersMemo',
    create(down) {
      return {
        ...down,
        table(name) {
          const table = down.table(name);
          if (name !== 'users') return table;
          return {
            ...table,
            mutate: (req) => {
              forgetUsers(dbName);
              return table.mutate(req);
            },
          };
        },
      };
    },
  };
}

/** All users ordered by "last, first" (shared: callers must not mutate the array). */
export function allUsersByName(db: UsersSource): Promise<UserRecord[]> {
  const entry = loaded.get(db.name);
  if (entry && entry.source === db) return entry.users;
  const users = db.users.orderBy('sortName').toArray();
  loaded.set(db.name, { source: db, users });
  // a failed read is not kept: the next search tries again
  users.catch(() => {
    if (loaded.get(db.name)?.users === users) loaded.delete(db.name);
  });
  return users;
}
