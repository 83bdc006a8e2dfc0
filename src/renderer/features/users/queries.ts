/**
 * Queries of the users list: plain async functions over the database, so the
 * benchmarks can time them and the outbox feature can overlay pending edits.
 */
import type { GroupRecord, ProfileCategoryRecord, SiteRecord, UserRecord } from '../../../shared/records.ts';
import { matchesAllWords, searchWords } from '../../../shared/search-text.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { allUsersByName } from '../../db/users-memo.ts';
import { usersSearchIndex } from '../../db/users-search-index.ts';
import {
  applyOverlays,
  countWithPending,
  touchedOf,
  type PendingMark,
  type Touched,
} from '../../app/overlays.ts';
import { firstScreenGeneration, keepFirstScreen } from '../../db/first-screen-kept.ts';

export interface UserFilters {
  siteid?: number | null;
  status?: string | null;
  usertype?: string | null;
  /** members of this profile group */
  groupid?: number | null;
}

export type UserSortKey = 'name' | 'username' | 'employeeid' | 'status' | 'usertype' | 'siteid';
export interface UserSort {
  key: UserSortKey;
  direction: 'asc' | 'desc';
}

export const DEFAULT_SORT: UserSort = { key: 'name', direction: 'asc' };

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function sortValue(u: UserRecord, key: UserSortKey): string | number {
  switch (key) {
    case 'name':
      return u.sortName;
    case 'siteid':
      return u.siteid;
    default:
      return u[key];
  }
}

/** Sorts in place by the key, ties broken by name then id so the order is stable. */
export function sortUsers(users: UserRecord[], sort: UserSort): UserRecord[] {
  return users.sort(compareUsers(sort));
}

/** The order of the list: by the key, ties broken by name then id. */
export function compareUsers(sort: UserSort): (a: UserRecord, b: UserRecord) => number {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return (a, b) => {
    const va = sortValue(a, sort.key);
    const vb = sortValue(b, sort.key);
    const primary =
      typeof va === 'number' && typeof vb === 'number' ? va - vb : collator.compare(String(va), String(vb));
    if (primary !== 0) return sign * primary;
    return collator.compare(a.sortName, b.sortName) || a.userid - b.userid;
  };
}

/** Pure filter of users already loaded (site, status, type; group membership as a set of ids). */
export function matchesFilters(
  u: UserRecord,
  filters: UserFilters,
  groupMembers: ReadonlySet<number> | null,
): boolean {
  if (filters.siteid != null && u.siteid !== filters.siteid) return false;
  if (filters.status != null && u.status !== filters.status) return false;
  if (filters.usertype != null && u.usertype !== filters.usertype) return false;
  if (groupMembers && !groupMembers.has(u.userid)) return false;
  return true;
}

/** Does each query word (from `searchWords`) start some word of the user's search keys, in any order? */
export function matchesQuery(u: UserRecord, queryWords: readonly string[]): boolean {
  return matchesAllWords(u.searchKeys, queryWords);
}

/**
 * Users whose names, username or employee id have a word starting with each
 * word of the text, in any order, ignoring case and accents on both sides
 * ("maria bailey", "bailey, maria", "nunez" for Núñez, "fernandez" inside
 * lucia.fernandez), and matching the filters, sorted. Runs over the in-memory
 * copy of the users (see db/users-memo.ts).
 */
export async function searchUsers(
  db: FieldbookDb,
  text: string,
  filters: UserFilters = {},
  sort: UserSort = DEFAULT_SORT,
): Promise<UserRecord[]> {
  const [all, matches] = await Promise.all([allUsersByName(db), userMatcher(db, text, filters)]);
  // only those a word can match are tested (users-search-index.ts); a new array, in name order: the shared copy is
  // never handed out
  const pool = usersSearchIndex(all).candidates(searchWords(text));
  const matching = pool
    ? Array.from(pool, (position) => all[position]!).filter(matches)
    : all.filter(matches);
  return sort.key === DEFAULT_SORT.key && sort.direction === DEFAULT_SORT.direction
    ? matching
    : sortUsers(matching, sort);
}

/**
 * The same search over the effective state: pending edits put where they now match (or
 * taken out), people created offline found by the same folded words. For pickers that
 * name people ("Find a user"); the users list does the same in two steps.
 */
export async function searchUsersWithPending(
  db: FieldbookDb,
  text: string,
  filters: UserFilters = {},
  sort: UserSort = DEFAULT_SORT,
): Promise<(UserRecord & PendingMark)[]> {
  const [found, matches] = await Promise.all([
    searchUsers(db, text, filters, sort),
    userMatcher(db, text, filters),
  ]);
  return applyOverlays('users', db, found, matches, compareUsers(sort));
}

/** What a search selects, as a test on one user (the pending overlay asks it of users it changes). */
export async function userMatcher(
  db: FieldbookDb,
  text: string,
  filters: UserFilters = {},
): Promise<(u: UserRecord) => boolean> {
  const words = searchWords(text);
  const members = filters.groupid != null ? await groupMemberIds(db, filters.groupid) : null;
  return (u) => (words.length === 0 || matchesQuery(u, words)) && matchesFilters(u, filters, members);
}

/** The first users in name order: what the list shows first, before everyone is loaded. */
export async function firstUsersByName(db: FieldbookDb, limit: number): Promise<UserRecord[]> {
  return db.users.orderBy('sortName').limit(limit).toArray();
}

/** The unfiltered list's first `limit` rows in name order, in their effective state (pending changes applied). */
export async function firstScreenOfUsers(
  db: FieldbookDb,
  limit: number,
): Promise<(UserRecord & PendingMark)[]> {
  return applyOverlays(
    'users',
    db,
    await firstUsersByName(db, limit),
    () => true,
    compareUsers(DEFAULT_SORT),
  );
}

/**
 * Reads the list's first screen, its count and its sites' names again and keeps
 * them for the next start (db/first-screen-kept.ts), unless a write to what they
 * show began meanwhile. Resolves whether it kept them.
 */
export async function keepUsersFirstScreen(db: FieldbookDb, limit: number): Promise<boolean> {
  const generation = firstScreenGeneration(db);
  const [rows, total] = await Promise.all([
    firstScreenOfUsers(db, limit),
    countUsers(db).then((count) => countWithPending('users', db, count, () => true)),
  ]);
  const sites = await db.sites.bulkGet([...new Set(rows.map((u) => u.siteid))]);
  return keepFirstScreen(db, generation, {
    rows,
    total,
    sites: sites.filter((s) => s !== undefined).map((s) => [s.siteid, s.sitename]),
  });
}

export async function groupMemberIds(db: FieldbookDb, groupid: number): Promise<Set<number>> {
  const members = await db.groupMembers.where('groupid').equals(groupid).toArray();
  return new Set(members.map((m) => m.userid));
}

export interface UserFilterOptions {
  sites: SiteRecord[];
  statuses: string[];
  usertypes: string[];
  groups: GroupRecord[];
  profileCategories: ProfileCategoryRecord[];
}

/**
 * The values the filters offer: whatever the cache holds, unknown values included as they are,
 * and the values pending edits and people created offline will have (a pending "Offline" is
 * offered even when no cached user has it), so every effective value can be filtered on.
 */
export async function userFilterOptions(db: FieldbookDb): Promise<UserFilterOptions> {
  const [sites, statuses, usertypes, groups, profileCategories, touched] = await Promise.all([
    db.sites.toArray(),
    db.users.orderBy('status').uniqueKeys(),
    db.users.orderBy('usertype').uniqueKeys(),
    db.groups.toArray(),
    db.profileCategories.toArray(),
    touchedOf('users', db),
  ]);
  groups.sort((a, b) => collator.compare(a.groupname, b.groupname));
  return {
    sites,
    statuses: withPendingValues(statuses.map(String), touched, 'status'),
    usertypes: withPendingValues(usertypes.map(String), touched, 'usertype'),
    groups,
    profileCategories,
  };
}

/** Pure: the cached values of a field with those of the users as pending ops leave them (removals aside), sorted. */
export function withPendingValues(
  cached: readonly string[],
  touched: Touched<UserRecord>,
  field: 'status' | 'usertype',
): string[] {
  const values = new Set(cached);
  for (const u of touched.after) if (u.pendingChange !== 'delete') values.add(String(u[field] ?? ''));
  return values.size === cached.length ? [...cached] : [...values].sort(collator.compare);
}

export async function countUsers(db: FieldbookDb): Promise<number> {
  return db.users.count();
}
