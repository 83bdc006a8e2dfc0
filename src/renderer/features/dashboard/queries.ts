/** The compliance picture at a glance: the three series the dashboard charts. */
import { addDaysIso, todayIso } from '../../../shared/dates.ts';
import type { FieldbookDb } from '../../db/index.ts';
import {
  countOverdueForCourse,
  countOverdueTraining,
  countOverdueWithPending,
  isOverdue,
} from '../training/queries.ts';
import {
  countCredentialsExpiringWithin,
  countExpiredCredentials,
  countExpiringIn,
  countExpiringInWithPending,
  countInWindowWithPending,
  siteCredentialIds,
  weekRange,
  type WindowOptions,
} from '../credentials/queries.ts';
import {
  bucketDelta,
  touchedOf,
  type OverlayKind,
  type OverlayRecords,
  type Touched,
} from '../../app/overlays.ts';

/**
 * Whether the figures include the changes waiting in the Outbox (as the lists they open do),
 * or are as the platform holds them (the cache alone: what the last sync read).
 */
export type FiguresOf = 'with pending' | 'platform';

/** The site the figures are of: its id, or null for every site. */
export type SiteScope = number | null;

/** The credential options of a site scope: that site's credentials only. */
async function credentialScope(db: FieldbookDb, siteid: SiteScope, today: string): Promise<WindowOptions> {
  return siteid === null ? { today } : { today, credentialids: await siteCredentialIds(db, siteid) };
}

/** The collections the figures count: what a change there does to them is included (see `pendingInFigures`). */
const COUNTED: readonly OverlayKind[] = ['users', 'credentialAssignments', 'trainingAssignments'];

async function touchedFor<K extends OverlayKind>(
  kind: K,
  db: FieldbookDb,
  of: FiguresOf,
): Promise<Touched<OverlayRecords[K]>> {
  return of === 'platform' ? { before: [], after: [] } : touchedOf(kind, db);
}

/**
 * How many changes not sent yet the figures include: the pending operations on the people, credentials and training
 * they count.
 */
export async function pendingInFigures(db: FieldbookDb): Promise<number> {
  const touched = await Promise.all(COUNTED.map((kind) => touchedOf(kind, db)));
  return new Set(touched.flatMap((t) => t.after.flatMap((r) => r.pendingOps ?? []))).size;
}

/** Counts with the pending operations' changes added (a bucket the cache lacks is added when it gains records). */
function withDelta<T extends { count: number }>(
  rows: T[],
  key: (r: T) => string,
  delta: Map<string, number>,
  make: (bucket: string, count: number) => T | null,
): T[] {
  const out = rows.map((r) => ({ ...r, count: r.count + (delta.get(key(r)) ?? 0) }));
  const known = new Set(rows.map(key));
  for (const [bucket, n] of delta) {
    if (known.has(bucket) || n <= 0) continue;
    const made = make(bucket, n);
    if (made) out.push(made);
  }
  return out;
}

export interface WeekBucket {
  /** first day of the week, ISO */
  weekStart: string;
  count: number;
}

/**
 * Credential assignments expiring in each of the next `weeks` weeks, each counted by the
 * query of the list its bar opens (Credentials → the week's holders), pending edits included.
 */
export async function credentialsExpiringByWeek(
  db: FieldbookDb,
  weeks = 12,
  today: string = todayIso(),
  of: FiguresOf = 'with pending',
  siteid: SiteScope = null,
): Promise<WeekBucket[]> {
  const starts = Array.from({ length: weeks }, (_, i) => addDaysIso(today, i * 7));
  const count = of === 'platform' ? countExpiringIn : countExpiringInWithPending;
  const options = await credentialScope(db, siteid, today);
  const counts = await Promise.all(starts.map((weekStart) => count(db, weekRange(weekStart), options)));
  return starts.map((weekStart, i) => ({ weekStart, count: counts[i]! }));
}

export interface CourseCount {
  courseid: number;
  coursename: string;
  count: number;
}

/**
 * Courses with overdue (not done) assignments, the most first, `top` of them (index counts only); a site's courses
 * when one is given.
 */
export async function overdueTrainingByCourse(
  db: FieldbookDb,
  top = Infinity,
  today: string = todayIso(),
  of: FiguresOf = 'with pending',
  siteid: SiteScope = null,
): Promise<CourseCount[]> {
  const [all, touched] = await Promise.all([db.courses.toArray(), touchedFor('trainingAssignments', db, of)]);
  const courses = all.filter((c) => siteid === null || c.siteid === siteid);
  const counts = await Promise.all(courses.map((c) => countOverdueForCourse(db, c.courseid, today)));
  const delta = bucketDelta(touched, (t) => (isOverdue(t, today) ? String(t.courseid) : null));
  return withDelta(
    courses.map((c, i) => ({ courseid: c.courseid, coursename: c.coursename, count: counts[i]! })),
    (c) => String(c.courseid),
    delta,
    () => null,
  )
    .filter((c) => c.count > 0)
    .sort((a, b) => b.count - a.count || a.coursename.localeCompare(b.coursename))
    .slice(0, top);
}

export interface StatusCount {
  status: string;
  count: number;
}

/** How many of the cache's users (of a site, when one is given) have each status. */
async function statusCounts(
  db: FieldbookDb,
  siteid: SiteScope,
): Promise<{ statuses: string[]; counts: number[] }> {
  if (siteid === null) {
    const statuses = (await db.users.orderBy('status').uniqueKeys()).map(String);
    return {
      statuses,
      counts: await Promise.all(statuses.map((status) => db.users.where('status').equals(status).count())),
    };
  }
  const counts = new Map<string, number>();
  await db.users
    .where('siteid')
    .equals(siteid)
    .each((u) => {
      counts.set(u.status, (counts.get(u.status) ?? 0) + 1);
    });
  return { statuses: [...counts.keys()], counts: [...counts.values()] };
}

/** Users per status, every value as it is (unknown ones included); a site's people when one is given. */
export async function userStatusBreakdown(
  db: FieldbookDb,
  of: FiguresOf = 'with pending',
  siteid: SiteScope = null,
): Promise<StatusCount[]> {
  const [{ statuses, counts }, touched] = await Promise.all([
    statusCounts(db, siteid),
    touchedFor('users', db, of),
  ]);
  const delta = bucketDelta(touched, (u) => (siteid === null || u.siteid === siteid ? u.status : null));
  return withDelta(
    statuses.map((status, i) => ({ status, count: counts[i]! })),
    (s) => s.status,
    delta,
    (status, count) => ({ status, count }),
  )
    .filter((s) => s.count > 0)
    .sort((a, b) => b.count - a.count);
}

export interface AttentionFigures {
  /** overdue training assignments, every course */
  overdue: number;
  expired: number;
  /** credentials expiring from today through 7 days */
  expiringWeek: number;
  /** credentials expiring within the "soon" window */
  expiringSoon: number;
}

/**
 * The dashboard's headline figures, each counted by the query of the list it opens
 * (Training → Overdue, Credentials → Expired / Expiring within N days), pending edits included.
 */
export async function attentionFigures(
  db: FieldbookDb,
  soonDays: number,
  today: string = todayIso(),
  of: FiguresOf = 'with pending',
  siteid: SiteScope = null,
): Promise<AttentionFigures> {
  const options = await credentialScope(db, siteid, today);
  if (of === 'platform') return platformAttentionFigures(db, soonDays, options, siteid);
  const [overdue, expired, expiringWeek, expiringSoon] = await Promise.all([
    countOverdueWithPending(db, today, undefined, siteid),
    countInWindowWithPending(db, 'expired', options),
    countInWindowWithPending(db, 7, options),
    countInWindowWithPending(db, soonDays, options),
  ]);
  return { overdue, expired, expiringWeek, expiringSoon };
}

/** The headline figures as the platform holds them: the cache's own counts, nothing pending added. */
async function platformAttentionFigures(
  db: FieldbookDb,
  soonDays: number,
  options: WindowOptions,
  siteid: SiteScope,
): Promise<AttentionFigures> {
  const [overdue, expired, expiringWeek, expiringSoon] = await Promise.all([
    countOverdueTraining(db, options.today, siteid),
    countExpiredCredentials(db, options),
    countCredentialsExpiringWithin(db, 7, options),
    countCredentialsExpiringWithin(db, soonDays, options),
  ]);
  return { overdue, expired, expiringWeek, expiringSoon };
}
