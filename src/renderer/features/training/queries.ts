/** Queries of the training views: by course, by user, overdue, due within N days. */
import Dexie from 'dexie';
import type { CourseRecord, TrainingAssignmentRecord } from '../../../shared/records.ts';
import { addDaysIso, todayIso } from '../../../shared/dates.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { openDueIso, type CachedTrainingAssignment } from '../../db/derived.ts';
import { bucketDelta, countWithPending, touchedOf } from '../../app/overlays.ts';

/** Long lists are read a page at a time (see credentials/queries.ts); `limit: Infinity` reads all. */
export const PAGE_SIZE = 200;

/** Any real ISO date is >= this; '' (done, or no due date) is below it. */
const EARLIEST = '0000-00-00';

export async function listCourses(db: FieldbookDb): Promise<CourseRecord[]> {
  const all = await db.courses.toArray();
  return all.sort((a, b) => a.coursename.localeCompare(b.coursename));
}

function byDue(a: CachedTrainingAssignment, b: CachedTrainingAssignment): number {
  return (a.dueIso || '9999').localeCompare(b.dueIso || '9999') || a.transcriptid - b.transcriptid;
}

/** Every assignment of a course, soonest due first (no due date last). */
export async function trainingForCourse(
  db: FieldbookDb,
  courseid: number,
): Promise<CachedTrainingAssignment[]> {
  const all = await db.trainingAssignments
    .where('[courseid+openDueIso]')
    .between([courseid, Dexie.minKey], [courseid, Dexie.maxKey])
    .toArray();
  return all.sort(byDue);
}

/**
 * Not-done assignments of a course whose due date is before today, oldest first, a page at a time (`limit: Infinity`
 * for all).
 */
export async function overdueTrainingForCourse(
  db: FieldbookDb,
  courseid: number,
  today: string = todayIso(),
  limit: number = PAGE_SIZE,
): Promise<CachedTrainingAssignment[]> {
  return db.trainingAssignments
    .where('[courseid+openDueIso]')
    .between([courseid, EARLIEST], [courseid, today], true, false)
    .limit(limit)
    .toArray();
}

/** How many not-done assignments of a course are overdue (index only: no record is read). */
export async function countOverdueForCourse(
  db: FieldbookDb,
  courseid: number,
  today: string = todayIso(),
): Promise<number> {
  return db.trainingAssignments
    .where('[courseid+openDueIso]')
    .between([courseid, EARLIEST], [courseid, today], true, false)
    .count();
}

/** The overdue assignments of every course, of one site's people when a site is given (null: every site). */
function overdueRange(db: FieldbookDb, today: string, siteid: number | null) {
  const range = db.trainingAssignments.where('openDueIso').between(EARLIEST, today, true, false);
  return siteid === null ? range : range.filter((t) => t.siteid === siteid);
}

/**
 * Not-done assignments of every course whose due date is before today, oldest first, a page at a time (`limit:
 * Infinity` for all).
 */
export async function overdueTraining(
  db: FieldbookDb,
  today: string = todayIso(),
  limit: number = PAGE_SIZE,
  siteid: number | null = null,
): Promise<CachedTrainingAssignment[]> {
  return overdueRange(db, today, siteid).limit(limit).toArray();
}

/** How many not-done assignments are overdue over all courses (index only, without a site). */
export async function countOverdueTraining(
  db: FieldbookDb,
  today: string = todayIso(),
  siteid: number | null = null,
): Promise<number> {
  return overdueRange(db, today, siteid).count();
}

/**
 * How many not-done assignments are overdue (of one course or of all), pending edits counted as
 * they will be: the overdue list's own count, and the dashboard's figure that opens it.
 */
export async function countOverdueWithPending(
  db: FieldbookDb,
  today: string = todayIso(),
  courseid?: number,
  siteid: number | null = null,
): Promise<number> {
  const cached =
    courseid === undefined
      ? await countOverdueTraining(db, today, siteid)
      : await countOverdueForCourse(db, courseid, today);
  return countWithPending('trainingAssignments', db, cached, (t) => isOverdueOf(t, today, courseid, siteid));
}

/**
 * Is it overdue, and of that course and site when they are given? The test of the overdue lists, for pending records.
 */
export function isOverdueOf(
  t: TrainingAssignmentRecord,
  today: string,
  courseid?: number,
  siteid: number | null = null,
): boolean {
  return (
    (courseid === undefined || t.courseid === courseid) &&
    (siteid === null || t.siteid === siteid) &&
    isOverdue(t, today)
  );
}

function dueRange(db: FieldbookDb, days: number, options: { today?: string; courseid?: number }) {
  const today = options.today ?? todayIso();
  const last = addDaysIso(today, days);
  return options.courseid !== undefined
    ? db.trainingAssignments
        .where('[courseid+openDueIso]')
        .between([options.courseid, today], [options.courseid, last], true, true)
    : db.trainingAssignments.where('openDueIso').between(today, last, true, true);
}

/** Is an assignment overdue (not done, due before today)? The test of the overdue queries, for pending records. */
export function isOverdue(t: TrainingAssignmentRecord, today: string = todayIso()): boolean {
  const due = openDueIso(t);
  return due >= EARLIEST && due < today;
}

/** Is an assignment due within the window (the test of `trainingDueWithin`)? */
export function isDueWithin(
  t: TrainingAssignmentRecord,
  days: number,
  options: { today?: string; courseid?: number } = {},
): boolean {
  const today = options.today ?? todayIso();
  const due = openDueIso(t);
  return (
    (options.courseid === undefined || t.courseid === options.courseid) &&
    due >= today &&
    due <= addDaysIso(today, days)
  );
}

/** Not-done assignments due from today through today + `days`, of one course or of all, soonest first. */
export async function trainingDueWithin(
  db: FieldbookDb,
  days: number,
  options: { today?: string; courseid?: number; limit?: number } = {},
): Promise<CachedTrainingAssignment[]> {
  return dueRange(db, days, options)
    .limit(options.limit ?? PAGE_SIZE)
    .toArray();
}

/** How many not-done assignments are due within the window (index only). */
export async function countTrainingDueWithin(
  db: FieldbookDb,
  days: number,
  options: { today?: string; courseid?: number } = {},
): Promise<number> {
  return dueRange(db, days, options).count();
}

/** A user's training, soonest due first. */
export async function trainingForUser(db: FieldbookDb, userid: number): Promise<CachedTrainingAssignment[]> {
  const all = await db.trainingAssignments.where('userid').equals(userid).toArray();
  return all.sort(byDue);
}

/** How many assignments a course has (index only). */
export async function countTrainingForCourse(db: FieldbookDb, courseid: number): Promise<number> {
  return db.trainingAssignments
    .where('[courseid+openDueIso]')
    .between([courseid, Dexie.minKey], [courseid, Dexie.maxKey])
    .count();
}

export interface CourseCounts {
  assigned: number;
  overdue: number;
}

/**
 * Assigned and overdue counts of every cached course, from index ranges alone, pending assignments counted as they will
 * be.
 */
export async function courseTrainingCounts(
  db: FieldbookDb,
  today: string = todayIso(),
): Promise<Map<number, CourseCounts>> {
  const courseids = (await db.courses.toCollection().primaryKeys()) as number[];
  const [counts, touched] = await Promise.all([
    Promise.all(
      courseids.map(async (c) => ({
        assigned: await countTrainingForCourse(db, c),
        overdue: await countOverdueForCourse(db, c, today),
      })),
    ),
    touchedOf('trainingAssignments', db),
  ]);
  const out = new Map(courseids.map((c, i) => [c, counts[i]!]));
  const assigned = bucketDelta(touched, (t) => String(t.courseid));
  const overdue = bucketDelta(touched, (t) => (isOverdue(t, today) ? String(t.courseid) : null));
  for (const [c, n] of out)
    out.set(c, {
      assigned: n.assigned + (assigned.get(String(c)) ?? 0),
      overdue: n.overdue + (overdue.get(String(c)) ?? 0),
    });
  return out;
}
