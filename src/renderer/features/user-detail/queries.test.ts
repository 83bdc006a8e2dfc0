import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { cacheUserEmails, loadUserDetail } from './queries.ts';
import { credentialAssignment, freshDb, trainingAssignment, user } from '../../testing/fixtures.ts';
import type { FieldbookDb } from '../../db/index.ts';

let db: FieldbookDb;
beforeEach(async () => {
  db = freshDb();
  await db.users.bulkPut([user(1), user(2)]);
  await db.emails.bulkPut([
    { emailid: 100, userid: 1, email: 'ada@example.test', status: 'Active', isprimary: true },
  ]);
  await db.groups.bulkPut([
    { groupid: 10, siteid: 1, categoryid: 1, groupname: 'Crew A', usercount: 2, accessusercount: 1 },
    { groupid: 11, siteid: 1, categoryid: 1, groupname: 'Crew B', usercount: 0, accessusercount: 1 },
  ]);
  await db.groupMembers.put({ id: '10-1', groupid: 10, userid: 1 });
  await db.groupAccess.put({ id: '11-1', groupid: 11, userid: 1, siteid: 1 });
  await db.modules.put({ id: '1-3', accessID: 3, siteid: 1, moduleName: 'Reports', functionName: 'View' });
  await db.moduleAccess.put({ id: '1-3-1', accessID: 3, siteid: 1, userid: 1 });
  await db.credentialAssignments.bulkPut([
    credentialAssignment(7, 1, '05/01/2026'),
    credentialAssignment(8, 1, '01/01/2026'),
    credentialAssignment(7, 2, '01/01/2026'),
  ]);
  await db.trainingAssignments.bulkPut([
    trainingAssignment(1, 1, 50, '2026-04-01'),
    trainingAssignment(2, 1, 51, '2026-01-01'),
    trainingAssignment(3, 2, 50, '2026-01-01'),
  ]);
});

describe('user detail', () => {
  it('gathers profile, e-mails, groups, access, credentials and training of one user', async () => {
    const detail = await loadUserDetail(db, 1);
    expect(detail?.user.userid).toBe(1);
    expect(detail?.emails.map((e) => e.email)).toEqual(['ada@example.test']);
    expect(detail?.groups.map((g) => g.groupname)).toEqual(['Crew A']);
    expect(detail?.accessGroups.map((g) => g.groupname)).toEqual(['Crew B']);
    expect(detail?.features.map((f) => f.moduleName)).toEqual(['Reports']);
    expect(detail?.credentials.map((c) => c.assignment.id)).toEqual(['8-1', '7-1']);
    expect(detail?.training.map((t) => t.transcriptid)).toEqual([2, 1]);
  });

  it('is null for a user not in the cache', async () => {
    expect(await loadUserDetail(db, 999)).toBeNull();
  });

  it('replaces the cached e-mails with those fetched online', async () => {
    await cacheUserEmails(db, {
      userid: 1,
      fetchedAt: '2026-03-01T00:00:00Z',
      emails: [{ emailid: 101, userid: 1, email: 'new@example.test', status: 'Active', isprimary: null }],
    });
    expect((await db.emails.where('userid').equals(1).toArray()).map((e) => e.emailid)).toEqual([101]);
  });
});
