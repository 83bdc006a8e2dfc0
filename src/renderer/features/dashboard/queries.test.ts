import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import { enqueueOps } from '../../../shared/replay-queue/queue.ts';
import {
  attentionFigures,
  credentialsExpiringByWeek,
  overdueTrainingByCourse,
  pendingInFigures,
  userStatusBreakdown,
} from './queries.ts';
import { credentialAssignment, freshDb, trainingAssignment, user } from '../../testing/fixtures.ts';
import { applyOverlays } from '../../app/overlays.ts';
import { registerOutboxOverlays } from '../../outbox/overlays.ts';
import {
  credentialsExpiringIn,
  expiredCredentials,
  inExpiryRange,
  siteCredentialIds,
  weekRange,
} from '../credentials/queries.ts';
import { overdueTraining } from '../training/queries.ts';
import type { CredentialRecord } from '../../../shared/records.ts';

beforeAll(() => registerOutboxOverlays());

const today = '2026-03-01';

describe('dashboard series', () => {
  it('counts credentials expiring in each of the next weeks', async () => {
    const db = freshDb();
    await db.credentialAssignments.bulkPut([
      credentialAssignment(1, 1, '03/01/2026'),
      credentialAssignment(1, 2, '03/07/2026'),
      credentialAssignment(1, 3, '03/08/2026'),
      credentialAssignment(1, 4, '02/01/2026'),
    ]);
    const weeks = await credentialsExpiringByWeek(db, 4, today);
    expect(weeks.map((w) => w.count)).toEqual([2, 1, 0, 0]);
    expect(weeks[1]?.weekStart).toBe('2026-03-08');
  });

  it('ranks courses by overdue training, ignoring completed', async () => {
    const db = freshDb();
    await db.courses.bulkPut(
      [50, 51].map((courseid) => ({
        courseid,
        siteid: 1,
        coursename: `Course ${courseid}`,
        coursetype: 1,
        status: 'active',
      })),
    );
    await db.trainingAssignments.bulkPut([
      trainingAssignment(1, 1, 50, '2026-01-01'),
      trainingAssignment(2, 2, 51, '2026-01-01'),
      trainingAssignment(3, 3, 51, '2026-02-01'),
      trainingAssignment(4, 4, 50, '2026-01-01', { course_status: 'completed' }),
    ]);
    expect((await overdueTrainingByCourse(db, 10, today)).map((c) => [c.courseid, c.count])).toEqual([
      [51, 2],
      [50, 1],
    ]);
  });

  it('breaks users down by status, unknown values included', async () => {
    const db = freshDb();
    await db.users.bulkPut([user(1), user(2), user(3, { status: 'Frozen' })]);
    expect(await userStatusBreakdown(db)).toEqual([
      { status: 'Active', count: 2 },
      { status: 'Frozen', count: 1 },
    ]);
  });
});

describe('the figures that open lists', () => {
  it('count overdue training over every course, however many the chart shows', async () => {
    const db = freshDb();
    const courseids = Array.from({ length: 12 }, (_, i) => 50 + i);
    await db.courses.bulkPut(
      courseids.map((courseid) => ({
        courseid,
        siteid: 1,
        coursename: `Course ${courseid}`,
        coursetype: 1,
        status: 'active',
      })),
    );
    await db.trainingAssignments.bulkPut(
      courseids.map((courseid, i) => trainingAssignment(i + 1, i + 1, courseid, '2026-01-01')),
    );
    expect((await attentionFigures(db, 30, today)).overdue).toBe(12);
    expect(await overdueTrainingByCourse(db, Infinity, today)).toHaveLength(12);
  });

  it('count credentials expiring within 7 days as this week, and within the soon window apart from it', async () => {
    const db = freshDb();
    await db.credentialAssignments.bulkPut([
      credentialAssignment(1, 1, '03/01/2026'),
      credentialAssignment(1, 2, '03/08/2026'),
      credentialAssignment(1, 3, '03/20/2026'),
      credentialAssignment(1, 4, '05/20/2026'),
      credentialAssignment(1, 5, '02/01/2026'),
    ]);
    expect(await attentionFigures(db, 30, today)).toEqual({
      overdue: 0,
      expired: 1,
      expiringWeek: 2,
      expiringSoon: 3,
    });
  });
});

describe("the expiry chart's weeks", () => {
  it('count each week as the list its bar opens lists it, a change waiting in the Outbox included', async () => {
    const db = freshDb();
    await db.credentialAssignments.bulkPut([
      credentialAssignment(1, 1, '03/01/2026'),
      credentialAssignment(1, 2, '03/07/2026'),
      credentialAssignment(2, 2, '03/08/2026'),
      credentialAssignment(1, 3, '03/21/2026'),
      credentialAssignment(2, 4, '02/28/2026'),
    ]);
    // one moved from the first week to the third, one new in the second
    await enqueueOps(db, [
      {
        op: {
          kind: 'credentialAssignment.update',
          credentialid: 1,
          userid: 1,
          changes: { expirationdate: '03/16/2026' },
        },
        summary: 'renew',
      },
      {
        op: {
          kind: 'credentialAssignment.create',
          credentialid: 2,
          userid: 5,
          fields: { expirationdate: '03/10/2026' },
        },
        summary: 'assign',
      },
    ]);
    const weeks = await credentialsExpiringByWeek(db, 4, today);
    expect(weeks.map((w) => [w.weekStart, w.count])).toEqual([
      ['2026-03-01', 1],
      ['2026-03-08', 2],
      ['2026-03-15', 2],
      ['2026-03-22', 0],
    ]);
    for (const week of weeks) {
      const range = weekRange(week.weekStart);
      const listed = await applyOverlays(
        'credentialAssignments',
        db,
        await credentialsExpiringIn(db, range, { limit: Infinity }),
        (a) => inExpiryRange(a, range),
      );
      expect(
        listed.filter((a) => a.pendingChange !== 'delete'),
        week.weekStart,
      ).toHaveLength(week.count);
    }
  });

  it("hold a week's first day and leave out its eighth", () => {
    const range = weekRange('2026-03-08');
    expect(
      ['2026-03-07', '2026-03-08', '2026-03-14', '2026-03-15'].map((d) =>
        inExpiryRange(credentialAssignment(1, 1, `${d.slice(5, 7)}/${d.slice(8)}/${d.slice(0, 4)}`), range),
      ),
    ).toEqual([false, true, true, false]);
  });
});

describe('the figures with the changes not sent yet, and without', () => {
  async function renewedOffline() {
    const db = freshDb();
    await db.users.bulkPut([user(1), user(2)]);
    await db.credentialAssignments.bulkPut([
      credentialAssignment(1, 1, '03/03/2026'),
      credentialAssignment(1, 2, '03/04/2026'),
    ]);
    // two renewals and a status change wait in the Outbox; an e-mail is not in any figure
    await enqueueOps(db, [
      {
        op: {
          kind: 'credentialAssignment.update',
          credentialid: 1,
          userid: 1,
          changes: { expirationdate: '03/01/2028' },
        },
        summary: 'renew',
      },
      {
        op: {
          kind: 'credentialAssignment.update',
          credentialid: 1,
          userid: 2,
          changes: { expirationdate: '03/01/2028' },
        },
        summary: 'renew',
      },
      { op: { kind: 'user.update', userid: 2, changes: { status: 'Inactive' } }, summary: 'status' },
      { op: { kind: 'email.add', userid: 1, email: 'a@example.test' }, summary: 'e-mail' },
    ]);
    return db;
  }

  it('count the changes not sent yet that they include', async () => {
    expect(await pendingInFigures(await renewedOffline())).toBe(3);
  });

  it('are as the platform holds them when asked: the renewed still expire this week, nobody is inactive yet', async () => {
    const db = await renewedOffline();
    expect((await attentionFigures(db, 30, today)).expiringWeek).toBe(0);
    expect((await attentionFigures(db, 30, today, 'platform')).expiringWeek).toBe(2);
    expect((await credentialsExpiringByWeek(db, 1, today, 'platform')).map((w) => w.count)).toEqual([2]);
    expect(await userStatusBreakdown(db, 'platform')).toEqual([{ status: 'Active', count: 2 }]);
    expect(await userStatusBreakdown(db)).toEqual([
      { status: 'Active', count: 1 },
      { status: 'Inactive', count: 1 },
    ]);
  });
});

/** Every site has its own "Forklift", in its own "Safety" category. */
function forklift(credentialid: number, categoryid: number): CredentialRecord {
  return {
    credentialid,
    credentialname: 'Forklift',
    description: '',
    categoryid,
    categoryname: 'Safety',
    requiredstartdate: false,
    requiredexpirationdate: true,
    requiredcredentialnum: false,
    requirements: '',
    activeusercount: 1,
    inactiveusercount: 0,
  };
}

describe('the figures of one site', () => {
  /**
   * Two sites, each with its own "Forklift" credential and its own course; one of each kind per site, plus one more
   * at site 2.
   */
  async function twoSites() {
    const db = freshDb();
    await db.credentialCategories.bulkPut(
      [10, 20].map((categoryid) => ({
        categoryid,
        siteid: categoryid / 10,
        categoryname: 'Safety',
        credentialcount: 1,
      })),
    );
    await db.credentials.bulkPut([1, 2].map((credentialid) => forklift(credentialid, credentialid * 10)));
    await db.courses.bulkPut([
      { courseid: 50, siteid: 1, coursename: 'Induction', coursetype: 1, status: 'active' },
      { courseid: 60, siteid: 2, coursename: 'Induction', coursetype: 1, status: 'active' },
    ]);
    await db.users.bulkPut([user(1), user(2, { siteid: 2 }), user(3, { siteid: 2, status: 'Inactive' })]);
    await db.credentialAssignments.bulkPut([
      credentialAssignment(1, 1, '02/01/2026'),
      credentialAssignment(1, 11, '03/03/2026'),
      credentialAssignment(2, 2, '02/01/2026'),
      credentialAssignment(2, 3, '03/03/2026'),
      credentialAssignment(2, 4, '03/20/2026'),
    ]);
    await db.trainingAssignments.bulkPut([
      trainingAssignment(1, 1, 50, '2026-01-01'),
      trainingAssignment(2, 2, 60, '2026-01-01', { siteid: 2 }),
      trainingAssignment(3, 3, 60, '2026-01-01', { siteid: 2 }),
    ]);
    return db;
  }

  it("count only that site's credentials and training in the headline figures", async () => {
    const db = await twoSites();
    expect(await attentionFigures(db, 30, today, 'with pending', 2)).toEqual({
      overdue: 2,
      expired: 1,
      expiringWeek: 1,
      expiringSoon: 2,
    });
    expect(await attentionFigures(db, 30, today, 'platform', 1)).toEqual({
      overdue: 1,
      expired: 1,
      expiringWeek: 1,
      expiringSoon: 1,
    });
  });

  it('count every site when none is chosen', async () => {
    expect(await attentionFigures(await twoSites(), 30, today)).toEqual({
      overdue: 3,
      expired: 2,
      expiringWeek: 2,
      expiringSoon: 3,
    });
  });

  it("chart only that site's weeks, courses and people", async () => {
    const db = await twoSites();
    expect((await credentialsExpiringByWeek(db, 3, today, 'with pending', 1)).map((w) => w.count)).toEqual([
      1, 0, 0,
    ]);
    expect(
      (await overdueTrainingByCourse(db, 10, today, 'with pending', 2)).map((c) => [c.courseid, c.count]),
    ).toEqual([[60, 2]]);
    expect(await userStatusBreakdown(db, 'with pending', 2)).toEqual([
      { status: 'Active', count: 1 },
      { status: 'Inactive', count: 1 },
    ]);
  });

  it('equal the lists they open: the expired list of a site holds as many as its figure', async () => {
    const db = await twoSites();
    const credentialids = await siteCredentialIds(db, 2);
    expect((await expiredCredentials(db, { today, credentialids })).map((a) => a.userid)).toEqual([2]);
    expect((await overdueTraining(db, today, Infinity, 2)).map((t) => t.userid).sort()).toEqual([2, 3]);
  });
});
