import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  countOverdueForCourse,
  countOverdueTraining,
  overdueTraining,
  countTrainingDueWithin,
  countTrainingForCourse,
  overdueTrainingForCourse,
  trainingDueWithin,
  trainingForCourse,
  trainingForUser,
} from './queries.ts';
import { freshDb, trainingAssignment } from '../../testing/fixtures.ts';
import type { FieldbookDb } from '../../db/index.ts';

const today = '2026-03-01';
let db: FieldbookDb;
beforeEach(async () => {
  db = freshDb();
  await db.trainingAssignments.bulkPut([
    trainingAssignment(1, 1, 50, '2026-02-01'), // overdue
    trainingAssignment(2, 2, 50, '2026-02-15', { course_status: 'completed' }), // done late: not overdue
    trainingAssignment(3, 3, 50, '2026-03-01'), // due today
    trainingAssignment(4, 4, 50, ''), // no due date
    trainingAssignment(5, 1, 60, '2026-03-10'),
    trainingAssignment(6, 1, 60, '2026-05-01'),
  ]);
});

const ids = (list: { transcriptid: number }[]) => list.map((t) => t.transcriptid);

describe('training queries', () => {
  it("lists a course's overdue training, leaving out completed and undated", async () => {
    expect(ids(await overdueTrainingForCourse(db, 50, today))).toEqual([1]);
  });

  it('lists overdue training over every course, oldest first, with its count', async () => {
    await db.trainingAssignments.put(trainingAssignment(7, 5, 60, '2026-01-10'));
    expect(ids(await overdueTraining(db, today))).toEqual([7, 1]);
    expect(await countOverdueTraining(db, today)).toBe(2);
    expect(ids(await overdueTraining(db, today, 1))).toEqual([7]);
  });

  it('lists training due from today through N days, of all courses or one', async () => {
    expect(ids(await trainingDueWithin(db, 14, { today }))).toEqual([3, 5]);
    expect(ids(await trainingDueWithin(db, 14, { today, courseid: 60 }))).toEqual([5]);
  });

  it('reads the due-soon list a page at a time and counts it whole', async () => {
    expect(ids(await trainingDueWithin(db, 90, { today, limit: 1 }))).toEqual([3]);
    expect(await countTrainingDueWithin(db, 90, { today })).toBe(3);
  });

  it("lists a course's assignments soonest first, undated last", async () => {
    expect(ids(await trainingForCourse(db, 50))).toEqual([1, 2, 3, 4]);
  });

  it("lists a user's training soonest first", async () => {
    expect(ids(await trainingForUser(db, 1))).toEqual([1, 5, 6]);
  });

  it("counts a course's assignments and its overdue ones without reading them", async () => {
    expect(await countTrainingForCourse(db, 50)).toBe(4);
    expect(await countOverdueForCourse(db, 50, today)).toBe(1);
  });

  it("reads a course's overdue training a page at a time", async () => {
    await db.trainingAssignments.put(trainingAssignment(7, 7, 50, '2026-01-15'));
    expect(ids(await overdueTrainingForCourse(db, 50, today, 1))).toEqual([7]);
    expect(await countOverdueForCourse(db, 50, today)).toBe(2);
  });

  it('stops counting training as overdue once it is completed', async () => {
    await db.trainingAssignments.update(1, { course_status: 'completed' });
    expect(ids(await overdueTrainingForCourse(db, 50, today))).toEqual([]);
  });
});
