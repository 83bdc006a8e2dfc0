/** Queries of the training views: by course, by user, overdue, due within N days. */
import Dexie from 'dexie';
import type { CourseRecord, TrainingAssignmentRecord } from '../../../shared/records.ts';
import { addDaysIso, todayIso } from '../../../shared/dates.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { isTrainingDone } from '../../app/compliance.ts';

const EARLIEST = '0000-00-00';

export async function listCourses(db: FieldbookDb): Promise<CourseRecord[]> {
  const all = await db.courses.toArray();
  return all.sort((a, b) => a.coursename.localeCompare(b.coursename));
}

/** Every assignment of a course, soonest due first (no due date last). */
export async function trainingForCourse(db: FieldbookDb, courseid: number): Promise<TrainingAssignmentRecord[]> {
  const all = await db.trainingAssignments.where('[courseid+dueIso]').between([courseid, Dexie.minKey], [courseid, Dexie.maxKey]).toArray();
  return [...all.filter((t) => t.dueIso), ...all.filter((t) => !t.dueIso)];
}

/** Not-done assignments of a course whose due date is before today, oldest first. */
export async function overdueTrainingForCourse(db: FieldbookDb, courseid: number, today: string = todayIso()): Promise<TrainingAssignmentRecord[]> {
  const found = await db.trainingAssignments.where('[courseid+dueIso]').between([courseid, EARLIEST], [courseid, today], true, false).toArray();
  return found.filter((t) => !isTrainingDone(t));
}

/** Not-done assignments due from today through today + `days`, of one course or of all, soonest first. */
export async function trainingDueWithin(db: FieldbookDb, days: number, options: { today?: string; courseid?: number } = {}): Promise<TrainingAssignmentRecord[]> {
  const today = options.today ?? todayIso();
  const last = addDaysIso(today, days);
  const found =
    options.courseid !== undefined
      ? await db.trainingAssignments.where('[courseid+dueIso]').between([options.courseid, today], [options.courseid, last], true, true).toArray()
      : await db.trainingAssignments.where('dueIso').between(today, last, true, true).toArray();
  return found.filter((t) => !isTrainingDone(t));
}

/** A user's training, soonest due first. */
export async function trainingForUser(db: FieldbookDb, userid: number): Promise<TrainingAssignmentRecord[]> {
  const all = await db.trainingAssignments.where('userid').equals(userid).toArray();
  return all.sort((a, b) => (a.dueIso || '9999').localeCompare(b.dueIso || '9999'));
}

/** Assignment counts per course from the compound index keys alone. */
export async function assignmentCountsByCourse(db: FieldbookDb): Promise<Map<number, number>> {
  const keys = (await db.trainingAssignments.orderBy('[courseid+dueIso]').keys()) as unknown as [number, string][];
  const out = new Map<number, number>();
  for (const [courseid] of keys) out.set(courseid, (out.get(courseid) ?? 0) + 1);
  return out;
}
