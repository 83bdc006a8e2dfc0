/**
 * Every cached user in name order, held in the database's memory (memory.ts), so a search is
 * a scan of 20,000 small records in memory (a few milliseconds per keystroke)
 * rather than an IndexedDB read of thousands of matches. The first search after
 * a start waits for this read (3.3 s through the name index at 200,000 people).
 *
 * The copy is dropped on any write to the users table (see table-memo.ts).
 */
import type { UserRecord } from '../../shared/records.ts';
import { tableMemo } from './table-memo.ts';
import type { DatabaseMemory } from './memory.ts';

interface UsersSource {
  memory: DatabaseMemory;
  users: { toArray(): Promise<UserRecord[]> };
}

/**
 * The users in the order of the `sortName` index: IndexedDB orders text keys by
 * UTF-16 code units, as `<` does, and equal keys by primary key; a record
 * without a text `sortName` is not in the index.
 */
export function inSortNameOrder(users: UserRecord[]): UserRecord[] {
  return (
    users
      .filter((u) => typeof u.sortName === 'string')
      .sort((a, b) => (a.sortName < b.sortName ? -1 : a.sortName > b.sortName ? 1 : a.userid - b.userid))
      // copied in their new order: a search walks them in name order, and records read in key order lie
      // scattered in memory (at 200,000 people the search's p50 went from 1.4 to 3.6 ms without this)
      .map((u) => ({ ...u, searchKeys: [...u.searchKeys] }))
  );
}

// Read in primary-key order and sorted here rather than through the index: at 200,000 people
// the index's read took 3.3 s (each record looked up from its index entry) and this 1.6 s, sort included.
const memo = tableMemo<UsersSource, UserRecord[]>('users', async (db) =>
  inSortNameOrder(await db.users.toArray()),
);

export const usersMemoMiddleware = memo.middleware;

/** All users ordered by "last, first" (shared: callers must not mutate the array). */
export const allUsersByName = memo.get;
