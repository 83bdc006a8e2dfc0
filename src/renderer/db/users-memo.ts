/**
 * Every cached user in name order, held in memory per database, so a search is
 * a scan of 20,000 small records in memory (a few milliseconds per keystroke)
 * rather than an IndexedDB read of thousands of matches.
 *
 * The copy is dropped on any write to the users table (see table-memo.ts).
 */
import type { UserRecord } from '../../shared/records.ts';
import { tableMemo } from './table-memo.ts';

interface UsersSource {
  name: string;
  users: { orderBy(index: 'sortName'): { toArray(): Promise<UserRecord[]> } };
}

const memo = tableMemo<UsersSource, UserRecord[]>('users', (db) => db.users.orderBy('sortName').toArray());

export const usersMemoMiddleware = memo.middleware;

/** All users ordered by "last, first" (shared: callers must not mutate the array). */
export const allUsersByName = memo.get;
