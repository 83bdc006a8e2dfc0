/**
 * Effective state in the views: every kind of queued operation shows in the
 * lists, filters and counts that read the cache, marked, and goes when the op
 * leaves the outbox. The views' own queries run over a real (fake-indexeddb)
 * cache with the outbox's overlays registered, as in the app.
 */
import 'fake-indexeddb/auto';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OpSpec } from '../../shared/ipc.ts';
import type { OutboxOp } from '../../shared/outbox.ts';
import { enqueueOps, type OpDraft } from '../../shared/replay-queue/queue.ts';
import type { FieldbookDb } from '../db/index.ts';
import { credentialAssignment, freshDb, trainingAssignment, user } from '../testing/fixtures.ts';
import { applyOverlays, bucketDelta, countDelta, countWithPending, mergeTouched } from '../app/overlays.ts';
import { registerOutboxOverlays } from './overlays.ts';
import { loadUserDetail } from '../features/user-detail/queries.ts';
import { compareUsers, DEFAULT_SORT, searchUsers, userMatcher } from '../features/users/queries.ts';
import { credentialSummaries } from '../features/credentials/queries.ts';
import { courseTrainingCounts } from '../features/training/queries.ts';
import { userStatusBreakdown } from '../features/dashboard/queries.ts';
import { groupsWithSupervisors } from '../features/access/queries.ts';
import { loadReport } from '../features/report/queries.ts';
import { buildReport } from '../features/report/build.ts';
import { FINDING_TYPES } from '../features/report/model.ts';

const TODAY = '2026-03-01';
let db: FieldbookDb;

beforeAll(() => registerOutboxOverlays());

beforeEach(async () => {
  db = freshDb();
  await db.users.bulkPut([
    user(1, { firstname: 'Barbara', lastname: 'Adams' }),
    user(2, { firstname: 'Carl', lastname: 'Bell' }),
    user(3, { status: 'Inactive' }),
  ]);
  await db.emails.put({
    emailid: 100,
    userid: 1,
    email: 'barbara@example.test',
    status: 'Active',
    isprimary: true,
  });
  await db.groups.bulkPut([
    { groupid: 10, siteid: 1, categoryid: 1, groupname: 'Operations', usercount: 2, accessusercount: 0 },
  ]);
  await db.modules.put({ id: '1-3', accessID: 3, siteid: 1, moduleName: 'Reports', functionName: 'View' });
  await db.credentials.put({
    credentialid: 7,
    credentialname: 'Rigging',
    categoryid: 1,
    categoryname: 'Safety',
    requiredstartdate: false,
    requiredexpirationdate: true,
  } as never);
  await db.courses.put({ courseid: 50, siteid: 1, coursename: 'Fall protection', status: 'Active' } as never);
  await db.credentialAssignments.put(credentialAssignment(7, 2, '03/10/2026'));
  await db.trainingAssignments.bulkPut([trainingAssignment(900, 2, 50, '2026-02-01')]);
});

async function queue(...ops: (OpSpec | OpDraft)[]): Promise<OutboxOp[]> {
  return enqueueOps(
    db,
    ops.map((op) => ('op' in op ? op : { op, summary: op.kind })),
  );
}

describe('one person, in their detail', () => {
  it('shows a pending group grant, feature grant, credential, training and e-mail, each marked as a pending create', async () => {
    await queue(
      { kind: 'groupAccess.grant', siteid: 1, groupid: 10, userid: 1 },
      { kind: 'moduleAccess.grant', siteid: 1, accessID: 3, userid: 1 },
      {
        kind: 'credentialAssignment.create',
        credentialid: 7,
        userid: 1,
        fields: { startdate: '11/02/2026', expirationdate: '11/02/2027' },
      },
      { kind: 'trainingAssignment.create', userid: 1, courseid: 50, fields: { duedate: '2026-04-01' } },
      { kind: 'email.add', userid: 1, email: 'b.adams@example.test' },
    );
    const detail = await loadUserDetail(db, 1);
    expect(detail?.accessGroups).toEqual([
      expect.objectContaining({ groupname: 'Operations', pendingChange: 'create' }),
    ]);
    expect(detail?.features).toEqual([
      expect.objectContaining({ moduleName: 'Reports', pendingChange: 'create' }),
    ]);
    expect(
      detail?.credentials.map((c) => [
        c.credential?.credentialname,
        c.assignment.expirationIso,
        c.assignment.pendingChange,
      ]),
    ).toEqual([['Rigging', '2027-11-02', 'create']]);
    expect(detail?.training.map((t) => [t.course_name, t.dueIso, t.pendingChange])).toEqual([
      ['Fall protection', '2026-04-01', 'create'],
    ]);
    expect(detail?.emails.map((e) => [e.email, e.pendingChange])).toEqual([
      ['barbara@example.test', undefined],
      ['b.adams@example.test', 'create'],
    ]);
  });

  it('shows removals as pending removals, not as gone', async () => {
    await db.groupAccess.put({ id: '10-2', groupid: 10, userid: 2, siteid: 1 });
    await db.moduleAccess.put({ id: '1-3-2', accessID: 3, siteid: 1, userid: 2 });
    await queue(
      { kind: 'groupAccess.revoke', siteid: 1, groupid: 10, userid: 2 },
      { kind: 'moduleAccess.revoke', siteid: 1, accessID: 3, userid: 2 },
      { kind: 'credentialAssignment.delete', credentialid: 7, userid: 2 },
      { kind: 'trainingAssignment.delete', transcriptid: 900 },
    );
    const detail = await loadUserDetail(db, 2);
    expect(detail?.accessGroups.map((g) => g.pendingChange)).toEqual(['delete']);
    expect(detail?.features.map((f) => f.pendingChange)).toEqual(['delete']);
    expect(detail?.credentials.map((c) => c.assignment.pendingChange)).toEqual(['delete']);
    expect(detail?.training.map((t) => t.pendingChange)).toEqual(['delete']);
  });

  it('shows changed dates and number of a held credential and a new due date', async () => {
    await queue(
      {
        kind: 'credentialAssignment.update',
        credentialid: 7,
        userid: 2,
        changes: { expirationdate: '2027-03-10', credentialnumber: 'R-2' },
      },
      { kind: 'trainingAssignment.update', transcriptid: 900, changes: { duedate: '2026-06-01' } },
      { kind: 'email.remove', userid: 1, emailid: 100 },
    );
    const carl = await loadUserDetail(db, 2);
    expect(carl?.credentials[0]?.assignment).toMatchObject({
      expirationIso: '2027-03-10',
      credentialnumber: 'R-2',
      pendingChange: 'update',
    });
    expect(carl?.training[0]).toMatchObject({ dueIso: '2026-06-01', pendingChange: 'update' });
    expect((await loadUserDetail(db, 1))?.emails[0]?.pendingChange).toBe('delete');
  });

  it('shows a person created offline (an import) with the grant and e-mail bound to them', async () => {
    await queue(
      {
        id: 'create-dora',
        op: {
          kind: 'user.create',
          siteid: 1,
          fields: { username: 'dora', firstname: 'Dora', lastname: 'Diaz' },
        },
        summary: 'create',
      },
      {
        op: { kind: 'groupAccess.grant', siteid: 1, groupid: 10, userid: 0 },
        dependsOn: ['create-dora'],
        bindings: [{ fromOp: 'create-dora', field: 'userid' }],
        summary: 'grant',
      },
      {
        op: { kind: 'email.add', userid: 0, email: 'dora@example.test' },
        dependsOn: ['create-dora'],
        bindings: [{ fromOp: 'create-dora', field: 'userid' }],
        summary: 'email',
      },
    );
    const found = await searchUsers(db, 'dora');
    const listed = await applyOverlays('users', db, found, await userMatcher(db, 'dora'));
    expect(listed.map((u) => [u.firstname, u.pendingChange])).toEqual([['Dora', 'create']]);
    const detail = await loadUserDetail(db, listed[0]!.userid);
    expect(detail?.user.userid).toBeLessThan(0);
    expect(detail?.accessGroups.map((g) => g.groupname)).toEqual(['Operations']);
    expect(detail?.emails.map((e) => e.email)).toEqual(['dora@example.test']);
  });

  it("reads none of the records other people's pending edits touch (a site visit's edits do not slow every detail)", async () => {
    await db.groupAccess.put({ id: '10-2', groupid: 10, userid: 2, siteid: 1 });
    await queue(
      { kind: 'groupAccess.revoke', siteid: 1, groupid: 10, userid: 2 },
      {
        kind: 'credentialAssignment.update',
        credentialid: 7,
        userid: 2,
        changes: { credentialnumber: 'R-2' },
      },
    );
    const touchedReads = [vi.spyOn(db.groupAccess, 'bulkGet'), vi.spyOn(db.credentialAssignments, 'bulkGet')];
    const barbara = await loadUserDetail(db, 1);
    expect(barbara?.accessGroups).toEqual([]);
    expect(barbara?.credentials).toEqual([]);
    expect(touchedReads.map((read) => read.mock.calls.length)).toEqual([0, 0]);
  });

  it('shows the cache alone once the ops are done', async () => {
    const [op] = await queue({ kind: 'groupAccess.grant', siteid: 1, groupid: 10, userid: 1 });
    await db.outbox.update(op!.id, { status: 'done' });
    expect((await loadUserDetail(db, 1))?.accessGroups).toEqual([]);
  });
});

describe('the users list, its filters and counts', () => {
  it('drops a person from "Status: Active" once their pending status is Inactive, and lists them under Inactive', async () => {
    await queue({ kind: 'user.update', userid: 1, changes: { status: 'Inactive' } });
    const active = async (status: string) => {
      const filters = { status };
      return (
        await applyOverlays(
          'users',
          db,
          await searchUsers(db, '', filters),
          await userMatcher(db, '', filters),
          compareUsers(DEFAULT_SORT),
        )
      ).map((u) => u.userid);
    };
    expect(await active('Active')).toEqual([2]);
    expect(await active('Inactive')).toEqual([1, 3]);
  });

  it('places a renamed person at their new place in name order', async () => {
    await queue({ kind: 'user.update', userid: 1, changes: { lastname: 'Zeta' } });
    const rows = await applyOverlays(
      'users',
      db,
      await searchUsers(db, ''),
      () => true,
      compareUsers(DEFAULT_SORT),
    );
    expect(rows.map((u) => u.lastname)).toEqual(['Bell', 'Last3', 'Zeta']);
  });

  it('counts a person created offline in the total', async () => {
    await queue({
      kind: 'user.create',
      siteid: 1,
      fields: { username: 'dora', firstname: 'Dora', lastname: 'Diaz' },
    });
    expect(await countWithPending('users', db, 3, () => true)).toBe(4);
  });
});

describe('counts and charts', () => {
  it('moves a person between status slices of the dashboard', async () => {
    await queue({ kind: 'user.update', userid: 1, changes: { status: 'Suspended' } });
    expect(await userStatusBreakdown(db)).toEqual([
      { status: 'Active', count: 1 },
      { status: 'Inactive', count: 1 },
      { status: 'Suspended', count: 1 },
    ]);
  });

  it('counts a pending credential among the holders and a pending removal out of them', async () => {
    await queue({
      kind: 'credentialAssignment.create',
      credentialid: 7,
      userid: 1,
      fields: { expirationdate: '03/20/2026' },
    });
    expect((await credentialSummaries(db, TODAY)).get(7)).toMatchObject({ holders: 2, within30: 2 });
    await queue({ kind: 'credentialAssignment.delete', credentialid: 7, userid: 2 });
    expect((await credentialSummaries(db, TODAY)).get(7)).toMatchObject({ holders: 1, within30: 1 });
  });

  it('takes an overdue assignment whose due date moves out of the overdue count', async () => {
    expect((await courseTrainingCounts(db, TODAY)).get(50)).toEqual({ assigned: 1, overdue: 1 });
    await queue({ kind: 'trainingAssignment.update', transcriptid: 900, changes: { duedate: '2026-06-01' } });
    expect((await courseTrainingCounts(db, TODAY)).get(50)).toEqual({ assigned: 1, overdue: 0 });
  });

  it('lists a pending supervisor on the Access view', async () => {
    await queue({ kind: 'groupAccess.grant', siteid: 1, groupid: 10, userid: 1 });
    const [ops] = await groupsWithSupervisors(db);
    expect(ops?.supervisors.map((u) => [u.firstname, u.pendingChange])).toEqual([['Barbara', 'create']]);
  });
});

describe('the compliance report', () => {
  it('counts a pending credential and a person created offline, no longer a credential pending removal, and says how many it includes', async () => {
    const options = {
      today: TODAY,
      soonDays: 30,
      categoryid: null,
      statuses: ['Active'],
      findingTypes: [...FINDING_TYPES],
    };
    const soon = (r: ReturnType<typeof buildReport>) =>
      r.sections
        .flatMap((s) => s.rows)
        .filter((row) => row.findings.some((f) => f.type === 'Expires soon'))
        .map((row) => row.userid);
    const before = buildReport((await loadReport(db, { kind: 'site', siteid: 1 })).input, options);
    expect([before.people, soon(before)]).toEqual([2, [2]]); // the Active people
    await queue(
      { kind: 'credentialAssignment.delete', credentialid: 7, userid: 2 },
      {
        kind: 'credentialAssignment.create',
        credentialid: 7,
        userid: 1,
        fields: { expirationdate: '03/20/2026' },
      },
      {
        kind: 'user.create',
        siteid: 1,
        fields: { username: 'dora', firstname: 'Dora', lastname: 'Diaz', status: 'Active' },
      },
    );
    const loaded = await loadReport(db, { kind: 'site', siteid: 1 });
    const report = buildReport(loaded.input, options);
    expect([report.people, soon(report)]).toEqual([3, [1]]);
    // counted as the Outbox counts: one per change, the removal included (the report no longer shows what it removes)
    expect([loaded.pendingIncluded, loaded.pendingInOutbox]).toEqual([3, 3]);
  });

  it('counts the changes it includes as the Outbox does, apart from those about what it does not show', async () => {
    await queue(
      {
        kind: 'credentialAssignment.update',
        credentialid: 7,
        userid: 2,
        changes: { expirationdate: '03/12/2026' },
      },
      {
        kind: 'credentialAssignment.update',
        credentialid: 7,
        userid: 2,
        changes: { expirationdate: '03/14/2026' },
      },
      { kind: 'groupAccess.grant', siteid: 1, groupid: 10, userid: 1 },
      { kind: 'user.update', userid: 3, changes: { status: 'Active' } },
    );
    // two changes of one credential are two changes; the access grant is not in a report; user 3 is on the site
    const loaded = await loadReport(db, { kind: 'site', siteid: 1 });
    expect([loaded.pendingIncluded, loaded.pendingInOutbox]).toEqual([3, 4]);
    const group = await loadReport(db, { kind: 'people', userids: [1] });
    expect([group.pendingIncluded, group.pendingInOutbox]).toEqual([0, 4]);
  });
});

describe('merging a query with its touched records (pure)', () => {
  const a = user(1, { lastname: 'A' });
  const b = user(2, { lastname: 'B' });
  const bInactive = { ...b, status: 'Inactive', pendingOps: ['x'], pendingChange: 'update' as const };

  it('leaves the query alone when nothing is pending', () => {
    const rows = [a, b];
    expect(mergeTouched('users', rows, { before: [], after: [] }, () => true)).toBe(rows);
  });

  it('drops a row changed out of the selection and keeps the others in order', () => {
    expect(
      mergeTouched('users', [a, b], { before: [b], after: [bInactive] }, (u) => u.status === 'Active'),
    ).toEqual([a]);
  });

  it('adds a row changed into the selection that the query did not return', () => {
    expect(
      mergeTouched('users', [], { before: [b], after: [bInactive] }, (u) => u.status === 'Inactive'),
    ).toEqual([bInactive]);
  });

  it('counts removals out and creates in, per bucket', () => {
    const removal = { ...b, pendingOps: ['y'], pendingChange: 'delete' as const };
    const created = { ...user(-4), pendingOps: ['z'], pendingChange: 'create' as const };
    expect(countDelta({ before: [b], after: [removal, created] }, () => true)).toBe(0);
    expect(bucketDelta({ before: [b], after: [bInactive] }, (u) => u.status)).toEqual(
      new Map([
        ['Active', -1],
        ['Inactive', 1],
      ]),
    );
  });
});
