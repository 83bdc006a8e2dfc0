import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { credentialsExpiringByWeek, overdueTrainingByCourse, userStatusBreakdown } from './queries.ts';
import { credentialAssignment, freshDb, trainingAssignment, user } from '../../testing/fixtures.ts';

const today = '2026-03-01';

describe('dashboard series', () => {
  it('counts credentials expiring in each of the next weeks', async () => {
    const db = freshDb();
    await db.credentialAssignments.bulkPut([
      credentialAssignment(1, 1, '03/01/2026'), credentialAssignment(1, 2, '03/07/2026'),
      credentialAssignment(1, 3, '03/08/2026'), credentialAssignment(1, 4, '02/01/2026'),
    ]);
    const weeks = await credentialsExpiringByWeek(db, 4, today);
    expect(weeks.map((w) => w.count)).toEqual([2, 1, 0, 0]);
    expect(weeks[1]?.weekStart).toBe('2026-03-08');
  });

  it('ranks courses by overdue training, ignoring completed', async () => {
    const db = freshDb();
    await db.courses.bulkPut([50, 51].map((courseid) => ({ courseid, siteid: 1, coursename: `Course ${courseid}`, coursetype: 1, status: 'active' })));
    await db.trainingAssignments.bulkPut([
      trainingAssignment(1, 1, 50, '2026-01-01'), trainingAssignment(2, 2, 51, '2026-01-01'),
      trainingAssignment(3, 3, 51, '2026-02-01'), trainingAssignment(4, 4, 50, '2026-01-01', { course_status: 'completed' }),
    ]);
    expect((await overdueTrainingByCourse(db, 10, today)).map((c) => [c.courseid, c.count])).toEqual([[51, 2], [50, 1]]);
  });

  it('breaks users down by status, unknown values included', async () => {
    const db = freshDb();
    await db.users.bulkPut([user(1), user(2), user(3, { status: 'Frozen' })]);
    expect(await userStatusBreakdown(db)).toEqual([{ status: 'Active', count: 2 }, { status: 'Frozen', count: 1 }]);
  });
});
