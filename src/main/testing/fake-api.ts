/**
 * A small in-memory Data API for sync tests: a few routes of lists, paged like
 * the reference server (1-based startrow, 901 past the end), with switches for
 * the variations the client must survive. Test helper only.
 */
import { json, statusBody, fakeFetch, type FakeFetch, type RecordedRequest } from './fake-fetch.ts';

export interface FakeList {
  wrapper: string;
  items: Record<string, unknown>[];
}

export interface FakeApiOptions {
  /** 'always' (the reference server), 'never', or 'not-last' */
  next?: 'always' | 'never' | 'not-last';
  /** answer for a path instead of its list (e.g. a 401/800 status body) */
  override?: (req: RecordedRequest) => Response | null;
  /** each answer takes this long (a network's latency) */
  delayMs?: number;
}

export const BASE_URL = 'http://127.0.0.1:9/v1';

export function fakeApi(lists: Record<string, FakeList>, opts: FakeApiOptions = {}): FakeFetch {
  const api = fakeApiNow(lists, opts);
  const delayMs = opts.delayMs;
  if (delayMs === undefined) return api;
  return {
    ...api,
    fetch: async (input, init) => {
      await new Promise((r) => setTimeout(r, delayMs));
      return api.fetch(input, init);
    },
  };
}

function fakeApiNow(lists: Record<string, FakeList>, opts: FakeApiOptions): FakeFetch {
  return fakeFetch((req) => {
    const overridden = opts.override?.(req);
    if (overridden) return overridden;
    const path = req.url.pathname.replace(/^\/v1/, '');
    const list = lists[path];
    if (!list) return json(404, statusBody(404, 900, 'no such route'));
    const startrow = Number(req.url.searchParams.get('startrow') ?? 1);
    const limit = Number(req.url.searchParams.get('limit') ?? 100);
    const items = list.items.slice(startrow - 1, startrow - 1 + limit);
    if (items.length === 0) return json(200, statusBody(200, 901, 'no results'));
    const last = startrow - 1 + limit >= list.items.length;
    const body: Record<string, unknown> = { [list.wrapper]: items };
    if (opts.next === 'always' || (opts.next === 'not-last' && !last) || opts.next === undefined) {
      body.pagination = { next: `${BASE_URL}${path}?startrow=${startrow + limit}&limit=${limit}` };
    }
    return json(200, body);
  });
}

// ---- a tiny site ----

const links = {};
export function user(userid: number, siteid = 1, extra: Record<string, unknown> = {}) {
  return {
    userid,
    siteid,
    username: `u${userid}`,
    firstname: `First${userid}`,
    lastname: `Last${userid}`,
    employeeid: `E${userid}`,
    status: 'Active',
    usertype: 'User',
    email: [],
    links,
    ...extra,
  };
}

export function tinySite(
  opts: { users?: number; assignmentsPerCredential?: number } = {},
): Record<string, FakeList> {
  const users = Array.from({ length: opts.users ?? 5 }, (_, i) => user(i + 1));
  users[0] = user(1, 1, { email: [{ emailid: 11, email: 'u1@example.com', status: 'Active', link: '' }] });
  const perCredential = opts.assignmentsPerCredential ?? 3;
  const assignments = (credentialid: number) =>
    Array.from({ length: perCredential }, (_, i) => ({
      credentialid,
      userid: i + 1,
      startdate: '01/02/2025',
      expirationdate: '01/02/2027',
      credentialnumber: '',
      status: 'active',
      attachmentcount: 0,
      notes: '',
      link: `${BASE_URL}/credentials/${credentialid}/assignments/${credentialid}-${i + 1}`,
    }));
  const credential = (credentialid: number) => ({
    credentialid,
    credentialname: `Cred ${credentialid}`,
    description: '',
    categoryid: 1,
    categoryname: 'Safety',
    requiredstartdate: 1,
    requiredexpirationdate: 1,
    requiredcredentialnum: 0,
    requirements: '',
    activeusercount: perCredential,
    inactiveusercount: 0,
    link: [],
  });
  return {
    '/sites': { wrapper: 'sites', items: [{ siteid: 1, sitename: 'North', loginpage: '', links: [] }] },
    '/users': { wrapper: 'users', items: users },
    '/credentials': { wrapper: 'credentials', items: [credential(7), credential(8)] },
    '/credentials/7/assignments': { wrapper: 'Credentials', items: assignments(7) },
    '/credentials/8/assignments': { wrapper: 'Credentials', items: assignments(8) },
    '/sites/1/categories/profile': {
      wrapper: 'profilecategories',
      items: [{ categoryid: 4, siteid: 1, categoryname: 'Dept', groupcount: 1, links: [] }],
    },
    '/sites/1/access/groups': {
      wrapper: 'groups',
      items: [
        { groupid: 40, siteid: 1, categoryid: 4, groupname: 'Crew', usercount: 2, accessusercount: 1, links },
      ],
    },
    '/sites/categories/profile/4/groups/40/users': { wrapper: 'Users', items: [user(1), user(2)] },
    '/sites/1/access/groups/40/users': { wrapper: 'users', items: [user(3)] },
    '/sites/1/access/modules': {
      wrapper: 'modules',
      items: [
        { accessID: 3, moduleName: 'Reports', functionName: 'view', links },
        { accessID: 5, moduleName: 'Admin', functionName: 'edit', links },
      ],
    },
    '/sites/1/access/modules/3/users': { wrapper: 'users', items: [user(4)] },
    '/sites/1/access/modules/5/users': { wrapper: 'users', items: [user(5)] },
    '/sites/1/categories/credential': {
      wrapper: 'categories',
      items: [{ categoryid: 1, siteid: 1, categoryname: 'Safety', credentialcount: 2, links: [] }],
    },
    '/sites/1/courses': {
      wrapper: 'courses',
      items: [{ courseid: 9, siteid: 1, coursename: 'Ladders', coursetype: 1, status: 'active', links }],
    },
    '/sites/1/trainingassignments': {
      wrapper: 'trainingassignments',
      items: [1, 2, 3].map((userid) => ({
        transcriptid: 100 + userid,
        userid,
        courseid: 9,
        employeeid: userid,
        firstname: '',
        lastname: '',
        course_name: 'Ladders',
        course_type: 1,
        course_status: 'active',
        assignment_method: 'manual',
        start_date: 'January 05 2025 00:00:00',
        start_time: '12:00 AM',
        due_date: 'March 05 2026 00:00:00',
        due_time: '12:00 AM',
        assignment_created_date: 'January 01 2025 00:00:00',
      })),
    },
  };
}
