import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { featuresWithHolders, groupsWithSupervisors, holderCounts } from './queries.ts';
import {
  registerPendingSource,
  type OverlayKind,
  type OverlayRecords,
  type Touched,
} from '../../app/overlays.ts';
import type { GroupAccessRecord } from '../../../shared/records.ts';
import { freshDb, user } from '../../testing/fixtures.ts';

describe('access view', () => {
  it('lists each group with the supervisors who hold access over it, by name', async () => {
    const db = freshDb();
    await db.users.bulkPut([user(1, { lastname: 'Zed' }), user(2, { lastname: 'Adams' })]);
    await db.groups.bulkPut([
      { groupid: 10, siteid: 1, categoryid: 1, groupname: 'Crew B', usercount: 3, accessusercount: 2 },
      { groupid: 11, siteid: 1, categoryid: 1, groupname: 'Crew A', usercount: 1, accessusercount: 0 },
    ]);
    await db.groupAccess.bulkPut([
      { id: '10-1', groupid: 10, userid: 1, siteid: 1 },
      { id: '10-2', groupid: 10, userid: 2, siteid: 1 },
    ]);
    const groups = await groupsWithSupervisors(db);
    expect(groups.map((g) => [g.group.groupname, g.supervisors.map((u) => u.lastname)])).toEqual([
      ['Crew A', []],
      ['Crew B', ['Adams', 'Zed']],
    ]);
  });

  it('tells same-named groups apart by site and category, sorted by site', async () => {
    const db = freshDb();
    await db.sites.bulkPut([
      { siteid: 1, sitename: 'North', loginpage: '' },
      { siteid: 2, sitename: 'East', loginpage: '' },
    ]);
    await db.profileCategories.bulkPut([
      { categoryid: 1, siteid: 1, categoryname: 'Crews', groupcount: 1 },
      { categoryid: 2, siteid: 2, categoryname: 'Teams', groupcount: 1 },
    ]);
    await db.groups.bulkPut([
      { groupid: 10, siteid: 1, categoryid: 1, groupname: 'Operations', usercount: 3, accessusercount: 0 },
      { groupid: 20, siteid: 2, categoryid: 2, groupname: 'Operations', usercount: 1, accessusercount: 0 },
    ]);
    const groups = await groupsWithSupervisors(db);
    expect(groups.map((g) => [g.group.groupid, g.context])).toEqual([
      [20, 'East · Teams'],
      [10, 'North · Crews'],
    ]);
  });

  it('lists each feature with its holders, skipping users not in the cache', async () => {
    const db = freshDb();
    await db.users.put(user(1));
    await db.modules.put({ id: '1-3', accessID: 3, siteid: 1, moduleName: 'Reports', functionName: 'View' });
    await db.moduleAccess.bulkPut([
      { id: '1-3-1', accessID: 3, siteid: 1, userid: 1 },
      { id: '1-3-9', accessID: 3, siteid: 1, userid: 9 },
    ]);
    const features = await featuresWithHolders(db);
    expect(features[0]?.holders.map((u) => u.userid)).toEqual([1]);
  });
});

describe('access counts with pending grants and revokes', () => {
  const grant = (groupid: number, userid: number): GroupAccessRecord => ({
    id: `${groupid}-${userid}`,
    groupid,
    userid,
    siteid: 1,
  });
  const cached = [grant(10, 1), grant(10, 2), grant(11, 1)];
  const touched = {
    before: [grant(10, 2)],
    after: [
      { ...grant(10, 2), pendingOps: ['revoke'], pendingChange: 'delete' as const },
      { ...grant(11, 3), pendingOps: ['g1'], pendingChange: 'create' as const },
      { ...grant(12, 3), pendingOps: ['g2'], pendingChange: 'create' as const },
    ],
  };
  let unregister: () => void = () => undefined;
  afterEach(() => unregister());

  it('counts a pending grant and no longer counts a pending revoke, marking the counts pending', () => {
    const counts = holderCounts(cached, touched, (a) => String(a.groupid));
    expect(counts.get('10')).toEqual({ count: 1, delta: -1, pending: true });
    expect(counts.get('11')).toEqual({ count: 2, delta: 1, pending: true });
    expect(counts.get('12')).toEqual({ count: 1, delta: 1, pending: true });
  });

  it('leaves a count no pending op touches as cached and not pending', () => {
    expect(holderCounts(cached, { before: [], after: [] }, (a) => String(a.groupid)).get('10')).toEqual({
      count: 2,
      delta: 0,
      pending: false,
    });
  });

  it('shows each group with its supervisor count as it will be once the outbox is sent', async () => {
    const db = freshDb();
    await db.users.bulkPut([user(1), user(2), user(3)]);
    await db.groups.bulkPut(
      [10, 11, 12].map((groupid) => ({
        groupid,
        siteid: 1,
        categoryid: 1,
        groupname: `G${groupid}`,
        usercount: 0,
        accessusercount: 0,
      })),
    );
    await db.groupAccess.bulkPut(cached);
    const pending: Touched<OverlayRecords['groupAccess']> = touched;
    unregister = registerPendingSource(
      async () =>
        <K extends OverlayKind>(kind: K) =>
          Promise.resolve(
            (kind === 'groupAccess' ? pending : { before: [], after: [] }) as Touched<OverlayRecords[K]>,
          ),
    );
    const groups = await groupsWithSupervisors(db);
    expect(
      groups.map((g) => [g.group.groupname, g.supervisorCount.count, g.supervisorCount.pending]),
    ).toEqual([
      ['G10', 1, true],
      ['G11', 2, true],
      ['G12', 1, true],
    ]);
  });
});
