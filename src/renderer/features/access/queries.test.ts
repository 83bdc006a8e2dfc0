import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { featuresWithHolders, groupsWithSupervisors } from './queries.ts';
import { freshDb, user } from '../../testing/fixtures.ts';

describe('access view', () => {
  it('lists each group with the supervisors who hold access over it, by name', async () => {
    const db = freshDb();
    await db.users.bulkPut([user(1, { lastname: 'Zed' }), user(2, { lastname: 'Adams' })]);
    await db.groups.bulkPut([
      { groupid: 10, siteid: 1, categoryid: 1, groupname: 'Crew B', usercount: 3, accessusercount: 2 },
      { groupid: 11, siteid: 1, categoryid: 1, groupname: 'Crew A', usercount: 1, accessusercount: 0 },
    ]);
    await db.groupAccess.bulkPut([{ id: '10-1', groupid: 10, userid: 1, siteid: 1 }, { id: '10-2', groupid: 10, userid: 2, siteid: 1 }]);
    const groups = await groupsWithSupervisors(db);
    expect(groups.map((g) => [g.group.groupname, g.supervisors.map((u) => u.lastname)])).toEqual([['Crew A', []], ['Crew B', ['Adams', 'Zed']]]);
  });

  it('tells same-named groups apart by site and category, sorted by site', async () => {
    const db = freshDb();
    await db.sites.bulkPut([{ siteid: 1, sitename: 'North', loginpage: '' }, { siteid: 2, sitename: 'East', loginpage: '' }]);
    await db.profileCategories.bulkPut([{ categoryid: 1, siteid: 1, categoryname: 'Crews', groupcount: 1 }, { categoryid: 2, siteid: 2, categoryname: 'Teams', groupcount: 1 }]);
    await db.groups.bulkPut([
      { groupid: 10, siteid: 1, categoryid: 1, groupname: 'Operations', usercount: 3, accessusercount: 0 },
      { groupid: 20, siteid: 2, categoryid: 2, groupname: 'Operations', usercount: 1, accessusercount: 0 },
    ]);
    const groups = await groupsWithSupervisors(db);
    expect(groups.map((g) => [g.group.groupid, g.context])).toEqual([[20, 'East · Teams'], [10, 'North · Crews']]);
  });

  it('lists each feature with its holders, skipping users not in the cache', async () => {
    const db = freshDb();
    await db.users.put(user(1));
    await db.modules.put({ id: '1-3', accessID: 3, siteid: 1, moduleName: 'Reports', functionName: 'View' });
    await db.moduleAccess.bulkPut([{ id: '1-3-1', accessID: 3, siteid: 1, userid: 1 }, { id: '1-3-9', accessID: 3, siteid: 1, userid: 9 }]);
    const features = await featuresWithHolders(db);
    expect(features[0]?.holders.map((u) => u.userid)).toEqual([1]);
  });
});
