import { describe, expect, it } from 'vitest';
import {
  nextWaveSize,
  pagesNeeded,
  plannedRequests,
  requestsForList,
  waveStartrows,
  type PagingOptions,
} from './plan.ts';
import { announcedTotals, childTasks, collectionsUnder, makeTask, rootTasks } from './tasks.ts';
import { schemas } from '../../shared/api/wire.ts';

const o: PagingOptions = { limit: 1000, overlap: 0, maxWave: 4 };

describe('sync plan', () => {
  it('starts from sites, users and credentials, read once for the whole customer', () => {
    expect(rootTasks().map((t) => t.path)).toEqual(['/sites', '/users', '/credentials']);
  });

  it('reads everything per site, never per user', () => {
    const paths = childTasks(makeTask('sites'), [schemas.site.parse({ siteid: 2, sitename: 'S' })]).map(
      (t) => t.path,
    );
    expect(paths).toEqual([
      '/sites/2/categories/profile',
      '/sites/2/access/groups',
      '/sites/2/access/modules',
      '/sites/2/categories/credential',
      '/sites/2/courses',
      '/sites/2/trainingassignments',
    ]);
    expect(paths.some((p) => p.startsWith('/users/'))).toBe(false);
  });

  it('reads members and supervisors per group, sized by the group’s counts', () => {
    const group = schemas.group.parse({
      groupid: 40,
      siteid: 1,
      categoryid: 4,
      groupname: 'Crew',
      usercount: 12,
      accessusercount: 2,
    });
    const tasks = childTasks(makeTask('groups', { siteid: 1 }), [group]);
    expect(tasks.map((t) => [t.path, t.hint])).toEqual([
      ['/sites/categories/profile/4/groups/40/users', 12],
      ['/sites/1/access/groups/40/users', 2],
    ]);
  });

  it('reads assignments per credential, sized by its holders', () => {
    const credential = schemas.credential.parse({
      credentialid: 7,
      credentialname: 'C',
      activeusercount: 30,
      inactiveusercount: 2,
    });
    const [task] = childTasks(makeTask('credentials'), [credential]);
    expect(task).toMatchObject({
      path: '/credentials/7/assignments',
      collection: 'credentialAssignments',
      hint: 32,
    });
  });

  it('learns totals from counts the lists announce', () => {
    const categories = [
      schemas.profileCategory.parse({ categoryid: 1, siteid: 1, categoryname: 'A', groupcount: 3 }),
    ];
    expect(announcedTotals(makeTask('profileCategories', { siteid: 1 }), categories)).toEqual({ groups: 3 });
  });

  it('knows which collections a failed list leaves unsynced', () => {
    expect(collectionsUnder('groups').sort()).toEqual(['groupAccess', 'groupMembers', 'groups']);
    expect(collectionsUnder('users').sort()).toEqual(['emails', 'users']);
  });
});

describe('paging arithmetic', () => {
  it('needs one page for a short list and an extra one to confirm the end of an exact multiple', () => {
    expect(pagesNeeded(0, o)).toBe(1);
    expect(pagesNeeded(999, o)).toBe(1);
    expect(pagesNeeded(1000, o)).toBe(2);
    expect(pagesNeeded(2500, o)).toBe(3);
  });

  it('counts overlapping pages', () => {
    const overlap: PagingOptions = { limit: 10, overlap: 2, maxWave: 4 };
    // startrows 1, 9, 17: the third page (rows 17-20) is short
    expect(pagesNeeded(20, overlap)).toBe(3);
    expect(waveStartrows(1, 3, overlap)).toEqual([1, 9, 17]);
  });

  it('asks for every page an announced size needs in the first wave', () => {
    expect(nextWaveSize(0, 2500, o)).toBe(3);
    expect(requestsForList(2500, 2500, o)).toBe(3);
  });

  it('grows waves 1, 1, 2, 4 when the size is unknown', () => {
    const sizes = [];
    let done = 0;
    for (let i = 0; i < 5; i++) {
      const size = nextWaveSize(done, null, o);
      sizes.push(size);
      done += size;
    }
    expect(sizes).toEqual([1, 1, 2, 4, 4]);
  });

  it('includes speculative pages past the end in the plan’s count', () => {
    // 2,500 rows need 3 pages; waves of 1, 1, 2 ask for 4
    expect(requestsForList(2500, null, o)).toBe(4);
  });

  it('sums the plan over lists, counting unfinished ones as they went', () => {
    expect(
      plannedRequests(
        [
          { rows: 2500, hint: null, requests: 4 },
          { rows: null, hint: null, requests: 2 },
        ],
        o,
      ),
    ).toBe(6);
  });
});
