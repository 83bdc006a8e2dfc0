/** Queries of the credentials views: by credential, by category, holders, expired and expiring. */
import Dexie, { type Collection } from 'dexie';
import type {
  CredentialAssignmentRecord,
  CredentialCategoryRecord,
  CredentialRecord,
  UserRecord,
} from '../../../shared/records.ts';
import { addDaysIso, todayIso } from '../../../shared/dates.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { bucketDelta, countWithPending, touchedOf, type PendingMark } from '../../app/overlays.ts';

/** Dates sort as strings; any real ISO date is >= this, and '' (no date) is below it. */
const EARLIEST = '0000-00-00';

export async function listCredentials(db: FieldbookDb): Promise<CredentialRecord[]> {
  const all = await db.credentials.toArray();
  return all.sort((a, b) => a.credentialname.localeCompare(b.credentialname));
}

export async function listCredentialCategories(db: FieldbookDb): Promise<CredentialCategoryRecord[]> {
  const all = await db.credentialCategories.toArray();
  return all.sort((a, b) => a.categoryname.localeCompare(b.categoryname));
}

export interface Holder {
  assignment: CredentialAssignmentRecord & PendingMark;
  user: UserRecord | undefined;
}

async function withUsers(db: FieldbookDb, assignments: CredentialAssignmentRecord[]): Promise<Holder[]> {
  const users = await db.users.bulkGet(assignments.map((a) => a.userid));
  return assignments.map((assignment, i) => ({ assignment, user: users[i] }));
}

/** Everyone holding the credential, soonest expiration first (no date last). */
export async function credentialHolders(db: FieldbookDb, credentialid: number): Promise<Holder[]> {
  const assignments = await db.credentialAssignments
    .where('[credentialid+expirationIso]')
    .between([credentialid, Dexie.minKey], [credentialid, Dexie.maxKey])
    .toArray();
  const dated = assignments.filter((a) => a.expirationIso);
  const undated = assignments.filter((a) => !a.expirationIso);
  return withUsers(db, [...dated, ...undated]);
}

/**
 * Long lists are read a page at a time: the views show the first page and read
 * the next as the user scrolls (reading all 5,000 assignments expiring this
 * month across every credential costs hundreds of milliseconds; a page does not).
 * Pass `limit: Infinity` for everything. 200 rows are about eight screens; at
 * 5 million training assignments (dataset `xl`) a page of 500 took 11 ms at
 * the median and over the 16 ms frame at the 95th percentile.
 */
export const PAGE_SIZE = 200;

export interface WindowOptions {
  today?: string;
  credentialid?: number;
  /** only these credentials (a site's: `siteCredentialIds`); undefined: every credential */
  credentialids?: ReadonlySet<number>;
  /** how many to read, soonest first (default PAGE_SIZE) */
  limit?: number;
}

/** The credentials of one site: those of its credential categories (each site has its own). */
export async function siteCredentialIds(db: FieldbookDb, siteid: number): Promise<ReadonlySet<number>> {
  const categories = new Set(
    (await db.credentialCategories.toArray()).filter((c) => c.siteid === siteid).map((c) => c.categoryid),
  );
  return new Set(
    (await db.credentials.toArray()).filter((c) => categories.has(c.categoryid)).map((c) => c.credentialid),
  );
}

/** Is the assignment of a credential the options keep (one credential, a site's, or any)? */
function ofCredentials(a: Pick<CredentialAssignmentRecord, 'credentialid'>, options: WindowOptions): boolean {
  return (
    (options.credentialid === undefined || a.credentialid === options.credentialid) &&
    (options.credentialids?.has(a.credentialid) ?? true)
  );
}

function scoped<K, I>(
  range: Collection<CredentialAssignmentRecord, K, I>,
  options: WindowOptions,
): Collection<CredentialAssignmentRecord, K, I> {
  const only = options.credentialids;
  return only ? range.filter((a) => only.has(a.credentialid)) : range;
}

function expiringRange(db: FieldbookDb, days: number, options: WindowOptions) {
  const today = options.today ?? todayIso();
  const last = addDaysIso(today, days);
  return scoped(
    options.credentialid !== undefined
      ? db.credentialAssignments
          .where('[credentialid+expirationIso]')
          .between([options.credentialid, today], [options.credentialid, last], true, true)
      : db.credentialAssignments.where('expirationIso').between(today, last, true, true),
    options,
  );
}

function expiredRange(db: FieldbookDb, options: WindowOptions) {
  const today = options.today ?? todayIso();
  return scoped(
    options.credentialid !== undefined
      ? db.credentialAssignments
          .where('[credentialid+expirationIso]')
          .between([options.credentialid, EARLIEST], [options.credentialid, today], true, false)
      : db.credentialAssignments.where('expirationIso').between(EARLIEST, today, true, false),
    options,
  );
}

/** Does an assignment fall in the expiring window (the test of `credentialsExpiringWithin`, for pending records)? */
export function inExpiringWindow(
  a: CredentialAssignmentRecord,
  days: number,
  options: WindowOptions = {},
): boolean {
  const today = options.today ?? todayIso();
  return ofCredentials(a, options) && a.expirationIso >= today && a.expirationIso <= addDaysIso(today, days);
}

/** Does an assignment fall in the expired window (the test of `expiredCredentials`)? */
export function inExpiredWindow(a: CredentialAssignmentRecord, options: WindowOptions = {}): boolean {
  const today = options.today ?? todayIso();
  return ofCredentials(a, options) && a.expirationIso >= EARLIEST && a.expirationIso < today;
}

/** Assignments expiring from today through today + `days` (inclusive), of one credential or of all, soonest first. */
export async function credentialsExpiringWithin(
  db: FieldbookDb,
  days: number,
  options: WindowOptions = {},
): Promise<CredentialAssignmentRecord[]> {
  return expiringRange(db, days, options)
    .limit(options.limit ?? PAGE_SIZE)
    .toArray();
}

/** How many assignments expire within the window (index only). */
export async function countCredentialsExpiringWithin(
  db: FieldbookDb,
  days: number,
  options: WindowOptions = {},
): Promise<number> {
  return expiringRange(db, days, options).count();
}

/** Assignments whose expiration date is before today, of one credential or of all, most recently expired first. */
export async function expiredCredentials(
  db: FieldbookDb,
  options: WindowOptions = {},
): Promise<CredentialAssignmentRecord[]> {
  return expiredRange(db, options)
    .reverse()
    .limit(options.limit ?? PAGE_SIZE)
    .toArray();
}

export async function countExpiredCredentials(db: FieldbookDb, options: WindowOptions = {}): Promise<number> {
  return expiredRange(db, options).count();
}

/**
 * How many assignments the expired or expiring list holds (of one credential or of all),
 * pending edits counted as they will be: the list's own count, and the dashboard's figure that opens it.
 */
export async function countInWindowWithPending(
  db: FieldbookDb,
  window: 'expired' | number,
  options: WindowOptions = {},
): Promise<number> {
  if (window === 'expired')
    return countWithPending('credentialAssignments', db, await countExpiredCredentials(db, options), (a) =>
      inExpiredWindow(a, options),
    );
  return countWithPending(
    'credentialAssignments',
    db,
    await countCredentialsExpiringWithin(db, window, options),
    (a) => inExpiringWindow(a, window, options),
  );
}

/** A week of the dashboard's chart: assignments expiring from `from` up to, not including, `before`. */
export interface ExpiryRange {
  from: string;
  before: string;
}

/** The week starting that day (the dashboard's weeks start today, then every 7 days). */
export function weekRange(weekStart: string): ExpiryRange {
  return { from: weekStart, before: addDaysIso(weekStart, 7) };
}

function dateRange(db: FieldbookDb, range: ExpiryRange, options: WindowOptions) {
  return scoped(
    options.credentialid !== undefined
      ? db.credentialAssignments
          .where('[credentialid+expirationIso]')
          .between([options.credentialid, range.from], [options.credentialid, range.before], true, false)
      : db.credentialAssignments.where('expirationIso').between(range.from, range.before, true, false),
    options,
  );
}

/** Does an assignment fall in the range (the test of `credentialsExpiringIn`, for pending records)? */
export function inExpiryRange(
  a: CredentialAssignmentRecord,
  range: ExpiryRange,
  options: WindowOptions = {},
): boolean {
  return ofCredentials(a, options) && a.expirationIso >= range.from && a.expirationIso < range.before;
}

/** Assignments expiring within the range, of one credential or of all, soonest first. */
export async function credentialsExpiringIn(
  db: FieldbookDb,
  range: ExpiryRange,
  options: WindowOptions = {},
): Promise<CredentialAssignmentRecord[]> {
  return dateRange(db, range, options)
    .limit(options.limit ?? PAGE_SIZE)
    .toArray();
}

/**
 * How many assignments expire within the range, pending edits counted: a week's bar on the dashboard and the list it
 * opens.
 */
export async function countExpiringInWithPending(
  db: FieldbookDb,
  range: ExpiryRange,
  options: WindowOptions = {},
): Promise<number> {
  return countWithPending('credentialAssignments', db, await countExpiringIn(db, range, options), (a) =>
    inExpiryRange(a, range, options),
  );
}

/** The same as the cache holds it, without what waits in the Outbox. */
export async function countExpiringIn(
  db: FieldbookDb,
  range: ExpiryRange,
  options: WindowOptions = {},
): Promise<number> {
  return dateRange(db, range, options).count();
}

export interface CredentialSummary {
  credentialid: number;
  holders: number;
  expired: number;
  within30: number;
  within60: number;
  within90: number;
  missingDates: number;
}

/** Counts of one credential's assignments, from index ranges alone (no record is read). */
export async function credentialSummary(
  db: FieldbookDb,
  credentialid: number,
  today: string = todayIso(),
): Promise<CredentialSummary> {
  const index = db.credentialAssignments.where('[credentialid+expirationIso]');
  const between = (from: string, to: string, includeTo: boolean) =>
    index.between([credentialid, from], [credentialid, to], true, includeTo).count();
  const [holders, missingDates, expired, within30, within60, within90] = await Promise.all([
    index.between([credentialid, Dexie.minKey], [credentialid, Dexie.maxKey]).count(),
    index.equals([credentialid, '']).count(),
    between(EARLIEST, today, false),
    between(today, addDaysIso(today, 30), true),
    between(today, addDaysIso(today, 60), true),
    between(today, addDaysIso(today, 90), true),
  ]);
  return { credentialid, holders, expired, within30, within60, within90, missingDates };
}

/** Counts of every cached credential, pending assignments, changes and removals counted as they will be. */
export async function credentialSummaries(
  db: FieldbookDb,
  today: string = todayIso(),
): Promise<Map<number, CredentialSummary>> {
  const ids = (await db.credentials.toCollection().primaryKeys()) as number[];
  const [summaries, touched] = await Promise.all([
    Promise.all(ids.map((id) => credentialSummary(db, id, today))),
    touchedOf('credentialAssignments', db),
  ]);
  const out = new Map(summaries.map((s) => [s.credentialid, s]));
  const fields = ['holders', 'expired', 'within30', 'within60', 'within90', 'missingDates'] as const;
  for (const field of fields) {
    const delta = bucketDelta(touched, (a) =>
      summaryField(a, field, today) ? String(a.credentialid) : null,
    );
    for (const [id, n] of delta) {
      const s = out.get(Number(id));
      if (s) out.set(s.credentialid, { ...s, [field]: s[field] + n });
    }
  }
  return out;
}

/** Does an assignment count in a summary's column? */
function summaryField(
  a: CredentialAssignmentRecord,
  field: keyof Omit<CredentialSummary, 'credentialid'>,
  today: string,
): boolean {
  switch (field) {
    case 'holders':
      return true;
    case 'missingDates':
      return a.expirationIso === '';
    case 'expired':
      return inExpiredWindow(a, { today });
    case 'within30':
      return inExpiringWindow(a, 30, { today });
    case 'within60':
      return inExpiringWindow(a, 60, { today });
    case 'within90':
      return inExpiringWindow(a, 90, { today });
  }
}
