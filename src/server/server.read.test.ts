/** Every read route: wrapper key and its case, field names and types, links, single records. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas, type SchemaName } from '../shared/api/wire.ts';
import type { RunningServer } from './index.ts';
import { clientFor, list, one, startTestServer, type Client } from './testing/testkit.ts';

let server: RunningServer;
let api: Client;
let ids: {
  site: number;
  user: number;
  email: number;
  pcat: number;
  group: number;
  ccat: number;
  cred: number;
  holder: number;
  course: number;
  transcript: number;
  supervisor: number;
  accessGroup: number;
};

beforeAll(async () => {
  server = await startTestServer();
  api = clientFor(server);
  const holder = one<{ credentialid: number; userid: number }>(
    server,
    'SELECT credentialid, userid FROM credential_assignments ORDER BY credentialid, userid',
  );
  const sup = one<{ userid: number; groupid: number }>(
    server,
    'SELECT userid, groupid FROM group_access ORDER BY groupid',
  );
  const member = one<{ groupid: number; categoryid: number; userid: number }>(
    server,
    'SELECT g.groupid, g.categoryid, m.userid FROM group_members m JOIN profile_groups g ON g.groupid = m.groupid ORDER BY g.groupid',
  );
  ids = {
    site: 101,
    user: member.userid,
    email: one<{ emailid: number }>(server, 'SELECT emailid FROM emails WHERE userid = ?', member.userid)
      .emailid,
    pcat: member.categoryid,
    group: member.groupid,
    ccat: one<{ categoryid: number }>(
      server,
      'SELECT categoryid FROM credentials WHERE credentialid = ?',
      holder.credentialid,
    ).categoryid,
    cred: holder.credentialid,
    holder: holder.userid,
    course: one<{ courseid: number }>(
      server,
      'SELECT courseid FROM training_assignments WHERE userid = ? ORDER BY transcriptid',
      member.userid,
    ).courseid,
    transcript: one<{ transcriptid: number }>(
      server,
      'SELECT transcriptid FROM training_assignments WHERE userid = ? ORDER BY transcriptid',
      member.userid,
    ).transcriptid,
    supervisor: sup.userid,
    accessGroup: sup.groupid,
  };
});
afterAll(() => server.close());

const F = {
  site: ['links', 'loginpage', 'siteid', 'sitename'],
  user: [
    'email',
    'employeeid',
    'firstname',
    'lastname',
    'links',
    'siteid',
    'status',
    'userid',
    'username',
    'usertype',
  ],
  email: ['email', 'emailid', 'isprimary', 'link', 'status'],
  profileCategory: ['categoryid', 'categoryname', 'groupcount', 'links', 'siteid'],
  group: ['accessusercount', 'categoryid', 'groupid', 'groupname', 'links', 'siteid', 'usercount'],
  userGroup: ['categoryid', 'groupid', 'groupname', 'links', 'siteid', 'usercount'],
  member: ['employeeid', 'firstname', 'lastname', 'links', 'userid', 'username'],
  module: ['accessID', 'functionName', 'links', 'moduleName'],
  accessUser: ['firstname', 'lastname', 'links', 'userid', 'username'],
  credentialCategory: ['categoryid', 'categoryname', 'credentialcount', 'links', 'siteid'],
  credential: [
    'activeusercount',
    'categoryid',
    'categoryname',
    'credentialid',
    'credentialname',
    'description',
    'inactiveusercount',
    'link',
    'requiredcredentialnum',
    'requiredexpirationdate',
    'requiredstartdate',
    'requirements',
  ],
  assignment: [
    'attachmentcount',
    'credentialid',
    'credentialnumber',
    'expirationdate',
    'link',
    'notes',
    'startdate',
    'status',
  ],
  course: ['courseid', 'coursename', 'coursetype', 'links', 'siteid', 'status'],
  training: [
    'assignment_created_date',
    'assignment_method',
    'course_name',
    'course_status',
    'course_type',
    'courseid',
    'due_date',
    'due_time',
    'employeeid',
    'firstname',
    'lastname',
    'start_date',
    'start_time',
    'transcriptid',
    'userid',
  ],
};
const withUser = [...F.assignment, 'firstname', 'lastname', 'userid'].sort();

type Case = [path: () => string, key: string, fields: string[], paged: boolean];
const cases: Case[] = [
  [() => '/sites', 'sites', F.site, true],
  [() => `/sites/${ids.site}`, 'sites', F.site, false],
  [() => '/users', 'users', F.user, true],
  [() => '/sites/users', 'users', F.user, true],
  [() => `/sites/${ids.site}/users`, 'users', F.user, true],
  [() => `/users/${ids.user}`, 'users', F.user, false],
  [() => `/users/${ids.user}/emails`, 'emails', F.email, true],
  [() => `/users/${ids.user}/emails/${ids.email}`, 'emails', F.email, false],
  [() => '/sites/categories/profile', 'profilecategories', F.profileCategory, true],
  [() => `/sites/${ids.site}/categories/profile`, 'profilecategories', F.profileCategory, true],
  [() => `/sites/categories/profile/${ids.pcat}`, 'profilecategories', F.profileCategory, false],
  [() => `/sites/${ids.site}/categories/profile/${ids.pcat}`, 'profilecategories', F.profileCategory, false],
  [() => `/sites/${ids.site}/categories/profile/${ids.pcat}/groups`, 'groups', F.group, true],
  [() => `/sites/categories/profile/${ids.pcat}/groups/${ids.group}/users`, 'Users', F.member, true],
  [() => `/sites/${ids.site}/access/groups`, 'groups', F.group, true],
  [() => `/sites/${ids.site}/access/groups/${ids.group}`, 'groups', F.group, false],
  [() => `/sites/${ids.site}/access/groups/${ids.accessGroup}/users`, 'users', F.accessUser, true],
  [() => `/users/${ids.user}/groups`, 'groups', F.userGroup, true],
  [() => `/users/${ids.supervisor}/access/groups`, 'groups', F.group, true],
  [() => `/sites/${ids.site}/access/modules`, 'modules', F.module, false],
  [() => `/sites/${ids.site}/access/modules/3`, 'modules', F.module, false],
  [() => `/sites/${ids.site}/access/modules/3/users`, 'users', F.accessUser, false],
  [() => '/sites/categories/credential', 'categories', F.credentialCategory, true],
  [() => `/sites/${ids.site}/categories/credential`, 'categories', F.credentialCategory, true],
  [() => `/sites/categories/credential/${ids.ccat}`, 'categories', F.credentialCategory, false],
  [() => `/sites/${ids.site}/categories/credential/${ids.ccat}`, 'categories', F.credentialCategory, false],
  [() => `/sites/categories/credential/${ids.ccat}/credentials`, 'credentials', F.credential, true],
  [
    () => `/sites/${ids.site}/categories/credential/${ids.ccat}/credentials`,
    'credentials',
    F.credential,
    true,
  ],
  [() => '/credentials', 'credentials', F.credential, true],
  [() => `/users/${ids.holder}/credentials`, 'Credentials', F.assignment, true],
  [() => `/credentials/${ids.cred}/assignments`, 'Credentials', withUser, true],
  [() => `/credentials/${ids.cred}/assignments/${ids.cred}-${ids.holder}`, 'Credentials', withUser, false],
  [() => '/courses', 'courses', F.course, true],
  [() => `/sites/${ids.site}/courses`, 'courses', F.course, true],
  [() => `/courses/${ids.course}`, 'courses', F.course, false],
  [() => `/sites/${ids.site}/course/${ids.course}`, 'courses', F.course, false],
  [() => `/sites/${ids.site}/trainingassignments`, 'trainingassignments', F.training, true],
  [
    () => `/sites/${ids.site}/course/${ids.course}/trainingassignments`,
    'trainingassignments',
    F.training,
    true,
  ],
  [() => `/users/${ids.user}/trainingassignments`, 'trainingassignments', F.training, true],
  [() => `/trainingassignments/${ids.transcript}`, 'trainingassignments', F.training, false],
];

describe('every read route answers with its wrapper key and the fields of its resource', () => {
  it.each(cases.map((c) => [c[0].toString().replace(/^\(\) => /, ''), c] as const))(
    '%s',
    async (_label, [path, key, fields, paged]) => {
      const answer = await api.get(path());
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body).sort()).toEqual(paged ? [key, 'pagination'].sort() : [key]);
      const items = list(answer, key);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(Object.keys(item).sort()).toEqual([...fields].sort());
    },
  );
});

/** The client's schema for the items of each wrapper (the access-user lists share `users` with users). */
const SCHEMA_OF: Record<string, SchemaName> = {
  sites: 'site',
  users: 'user',
  emails: 'email',
  profilecategories: 'profileCategory',
  groups: 'group',
  Users: 'groupMember',
  modules: 'module',
  categories: 'credentialCategory',
  credentials: 'credential',
  Credentials: 'credentialAssignment',
  courses: 'course',
  trainingassignments: 'trainingAssignment',
};

describe("every answer passes the client's validation", () => {
  it.each(cases.map((c) => [c[0].toString().replace(/^\(\) => /, ''), c] as const))(
    '%s',
    async (_label, [path, key, fields]) => {
      const schema = schemas[fields === F.accessUser ? 'accessUser' : SCHEMA_OF[key]!];
      for (const item of list(await api.get(path()), key))
        expect(schema.safeParse(item).error).toBeUndefined();
    },
  );
});

describe('records', () => {
  it('returns a single credential unwrapped', async () => {
    const answer = await api.get(`/credentials/${ids.cred}`);
    expect(answer.body.credentialid).toBe(ids.cred);
    expect(Object.keys(answer.body).sort()).toEqual([...F.credential].sort());
  });

  it('gives ids and counts as integers and the credential flags as 0 or 1', async () => {
    const [cred] = list(await api.get('/credentials?limit=1'), 'credentials');
    for (const f of ['credentialid', 'categoryid', 'activeusercount', 'inactiveusercount'])
      expect(Number.isInteger(cred![f])).toBe(true);
    for (const f of ['requiredstartdate', 'requiredexpirationdate', 'requiredcredentialnum'])
      expect([0, 1]).toContain(cred![f]);
    const [user] = list(await api.get('/users?limit=1'), 'users');
    expect(typeof user!.userid).toBe('number');
    expect(typeof user!.employeeid).toBe('string');
  });

  it('writes credential dates as MM/DD/YYYY, or "" when unset', async () => {
    const items = list<Record<string, string>>(
      await api.get('/users/' + ids.holder + '/credentials'),
      'Credentials',
    );
    for (const a of items) {
      expect(a.startdate).toMatch(/^(\d{2}\/\d{2}\/\d{4})?$/);
      expect(a.expirationdate).toMatch(/^(\d{2}\/\d{2}\/\d{4})?$/);
    }
  });

  it('writes training dates as "<Month> DD YYYY HH:MM:SS" and times as "HH:MM AM/PM"', async () => {
    const [t] = list<Record<string, string | number>>(
      await api.get(`/trainingassignments/${ids.transcript}`),
      'trainingassignments',
    );
    for (const f of ['start_date', 'due_date', 'assignment_created_date'])
      expect(t![f]).toMatch(/^[A-Z][a-z]+ \d{2} \d{4} \d{2}:\d{2}:\d{2}$/);
    for (const f of ['start_time', 'due_time']) expect(t![f]).toMatch(/^(0\d|1[0-2]):\d{2} (AM|PM)$/);
    expect(['number', 'string']).toContain(typeof t!.employeeid);
  });

  it('names an assignment <credentialid>-<userid> in its link', async () => {
    const [a] = list<{ link: string }>(
      await api.get(`/credentials/${ids.cred}/assignments/${ids.cred}-${ids.holder}`),
      'Credentials',
    );
    expect(a!.link).toBe(`${server.baseUrl}/credentials/${ids.cred}/assignments/${ids.cred}-${ids.holder}`);
  });

  it('lists the e-mails of a user in the user record', async () => {
    const [u] = list<{ email: { emailid: number }[] }>(await api.get(`/users/${ids.user}`), 'users');
    expect(u!.email.map((e) => e.emailid)).toContain(ids.email);
  });

  it('never returns a password', async () => {
    const created = await api.post(`/sites/${ids.site}/users`, {
      username: 'pw.check',
      password: 'correct horse',
      firstname: 'Pw',
      lastname: 'Check',
    });
    const answer = await api.get(`/users/${created.body.userid as number}`);
    expect(JSON.stringify(answer.body)).not.toContain('correct horse');
    expect(JSON.stringify(answer.body)).not.toContain('password');
  });
});

describe('links', () => {
  it('shapes links as each resource does: object, array of single-key objects, or a singular link', async () => {
    const [site] = list<{ links: unknown }>(await api.get('/sites'), 'sites');
    expect(Array.isArray(site!.links)).toBe(true);
    for (const l of site!.links as object[]) expect(Object.keys(l)).toHaveLength(1);
    const [user] = list<{ links: Record<string, string> }>(await api.get('/users?limit=1'), 'users');
    expect(Object.keys(user!.links).sort()).toEqual([
      'access/groups',
      'access/modules',
      'credentials',
      'groups',
      'resourcelink',
    ]);
    const cred = (await api.get(`/credentials/${ids.cred}`)).body as { link: object[] };
    expect(cred.link.map((l) => Object.keys(l)[0])).toEqual(['assignments', 'resourcelink']);
    const [group] = list<{ links: Record<string, string> }>(
      await api.get(`/users/${ids.user}/groups`),
      'groups',
    );
    expect(Object.keys(group!.links)).toEqual(['resourcelink']);
  });

  it('points every link of every resource at a route of this server that answers', async () => {
    const urls = new Set<string>();
    const collect = (value: unknown): void => {
      if (typeof value === 'string' && value.startsWith('http')) urls.add(value);
      else if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    for (const [path, key] of cases) {
      const items = list(await api.get(path()), key);
      for (const item of items.slice(0, 1)) collect([item.links, item.link, item.email]);
    }
    expect(urls.size).toBeGreaterThan(20);
    for (const url of urls) {
      expect(url.startsWith(server.baseUrl + '/')).toBe(true);
      const answer = await api.get(url);
      expect([url, answer.status]).toEqual([url, 200]);
    }
  });
});
