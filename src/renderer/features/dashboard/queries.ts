/** The compliance picture at a glance: the three series the dashboard charts. */
import { addDaysIso, todayIso } from '../../../shared/dates.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { countOverdueForCourse } from '../training/queries.ts';

export interface WeekBucket {
  /** first day of the week, ISO */
  weekStart: string;
  count: number;
}

/** Credential assignments expiring in each of the next `weeks` weeks (one index count per week). */
export async function credentialsExpiringByWeek(db: FieldbookDb, weeks = 12, today: string = todayIso()): Promise<WeekBucket[]> {
  const starts = Array.from({ length: weeks }, (_, i) => addDaysIso(today, i * 7));
  const counts = await Promise.all(starts.map((weekStart) => db.credentialAssignments.where('expirationIso').between(weekStart, addDaysIso(weekStart, 7), true, false).count()));
  return starts.map((weekStart, i) => ({ weekStart, count: counts[i]! }));
}

export interface CourseCount {
  courseid: number;
  coursename: string;
  count: number;
}

/** Courses with the most overdue (not done) assignments, largest first (index counts only). */
export async function overdueTrainingByCourse(db: FieldbookDb, top = 10, today: string = todayIso()): Promise<CourseCount[]> {
  const courses = await db.courses.toArray();
  const counts = await Promise.all(courses.map((c) => countOverdueForCourse(db, c.courseid, today)));
  return courses
    .map((c, i) => ({ courseid: c.courseid, coursename: c.coursename, count: counts[i]! }))
    .filter((c) => c.count > 0)
    .sort((a, b) => b.count - a.count || a.coursename.localeCompare(b.coursename))
    .slice(0, top);
}

export interface StatusCount {
  status: string;
  count: number;
}

/** Users per status, every value as it is (unknown ones included). */
export async function userStatusBreakdown(db: FieldbookDb): Promise<StatusCount[]> {
  const statuses = (await db.users.orderBy('status').uniqueKeys()).map(String);
  const counts = await Promise.all(statuses.map((status) => db.users.where('status').equals(status).count()));
  return statuses.map((status, i) => ({ status, count: counts[i]! })).sort((a, b) => b.count - a.count);
}
