/** Pagination and search over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from './index.ts';
import { clientFor, list, one, startTestServer, type Client } from './testing/testkit.ts';

let server: RunningServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = clientFor(server);
});
afterAll(() => server.close());

const userids = (answer: Awaited<ReturnType<Client['get']>>): number[] =>
  list<{ userid: number }>(answer, 'users').map((u) => u.userid);

describe('pagination', () => {
  it('counts startrow from 1: startrow 2 starts at the second record', async () => {
    const all = userids(await api.get('/users?limit=5'));
    expect(userids(await api.get('/users?startrow=2&limit=2'))).toEqual(all.slice(1, 3));
  });

  it('returns 100 records when no limit is given', async () => {
    expect(list(await api.get('/sites/101/trainingassignments'), 'trainingassignments')).toHaveLength(100);
  });

  it('clamps a limit above 1000 to 1000', async () => {
    const answer = await api.get('/sites/101/trainingassignments?limit=5000');
    expect((answer.body.pagination as { next: string }).next).toContain('limit=1000');
  });

  it('walks the whole list through pagination.next, in ascending id order, each record once', async () => {
    const seen: number[] = [];
    let url = '/users?limit=7';
    for (;;) {
      const answer = await api.get(url);
      if (answer.body.statuscode === 901) break;
      const page = userids(answer);
      seen.push(...page);
      // next is present on every page, the last one too
      url = (answer.body.pagination as { next: string }).next;
      expect(url).toMatch(/startrow=\d+&limit=7$/);
      if (page.length < 7) break;
    }
    const expected = server
      .query<{ userid: number }>('SELECT userid FROM users WHERE siteid = 101 ORDER BY userid')
      .map((u) => u.userid);
    expect(seen).toEqual(expected);
  });

  it('answers 901 in a 200 past the end of a list', async () => {
    const answer = await api.get('/users?startrow=100000');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ httpcode: 200, statuscode: 901, status: 'ok' });
  });

  it('refuses a startrow that is not a positive integer with 1001', async () => {
    const answer = await api.get('/users?startrow=zero');
    expect(answer.status).toBe(400);
    expect(answer.body.statuscode).toBe(1001);
  });

  it('keeps the search in pagination.next', async () => {
    const answer = await api.get('/users?status=active&limit=2');
    expect((answer.body.pagination as { next: string }).next).toBe(
      `${server.baseUrl}/users?status=active&startrow=3&limit=2`,
    );
  });
});

describe('search', () => {
  it('matches names case-insensitively, from q or from a parameter', async () => {
    const u = one<{ firstname: string }>(
      server,
      'SELECT firstname FROM users WHERE siteid = 101 ORDER BY userid',
    );
    const byParam = userids(
      await api.get(`/users?firstname=${encodeURIComponent(u.firstname.toUpperCase())}`),
    );
    const byQ = userids(
      await api.get(
        `/users?q=${encodeURIComponent(JSON.stringify({ firstname: u.firstname.toLowerCase() }))}`,
      ),
    );
    const expected = server
      .query<{ userid: number }>(
        'SELECT userid FROM users WHERE firstname = ? AND siteid = 101 ORDER BY userid',
        u.firstname,
      )
      .map((r) => r.userid);
    expect(byParam).toEqual(expected);
    expect(byQ).toEqual(expected);
  });

  it('combines criteria', async () => {
    const answer = await api.get(
      `/users?q=${encodeURIComponent(JSON.stringify({ status: 'Active', usertype: 'supervisor' }))}&limit=1000`,
    );
    const expected = server.query(
      'SELECT userid FROM users WHERE status = ? AND usertype = ? AND siteid = 101',
      'Active',
      'Supervisor',
    ).length;
    if (expected === 0) expect(answer.body.statuscode).toBe(901);
    else expect(list(answer, 'users')).toHaveLength(expected);
  });

  it('bounds training due dates with duedatestart and duedateend', async () => {
    const answer = await api.get(
      '/sites/101/trainingassignments?duedatestart=06/01/2026&duedateend=2026-06-30&limit=1000',
    );
    const expected = server.query(
      "SELECT transcriptid FROM training_assignments WHERE siteid = 101 AND due_date BETWEEN '2026-06-01' AND '2026-06-30'",
    ).length;
    const found = list<{ due_date: string }>(answer, 'trainingassignments');
    expect(found).toHaveLength(expected);
    for (const t of found) expect(t.due_date).toMatch(/^June /);
  });

  it('matches a training field given as a number, such as userid', async () => {
    const t = one<{ userid: number }>(
      server,
      'SELECT userid FROM training_assignments ORDER BY transcriptid',
    );
    const found = list<{ userid: number }>(
      await api.get(`/sites/101/trainingassignments?userid=${t.userid}`),
      'trainingassignments',
    );
    expect(new Set(found.map((x) => x.userid))).toEqual(new Set([t.userid]));
  });

  it('finds primary e-mails with isprimary', async () => {
    const e = one<{ userid: number }>(
      server,
      'SELECT userid FROM emails WHERE isprimary = 1 ORDER BY emailid',
    );
    const found = list<{ isprimary: boolean }>(
      await api.get(`/users/${e.userid}/emails?isprimary=true`),
      'emails',
    );
    expect(found.every((x) => x.isprimary)).toBe(true);
  });

  it('finds profile categories created after or before a date', async () => {
    const c = one<{ created: string }>(
      server,
      'SELECT created FROM profile_categories WHERE siteid = 101 ORDER BY created',
    );
    const after = list<{ categoryid: number }>(
      await api.get(`/sites/101/categories/profile?after=${c.created}`),
      'profilecategories',
    );
    const expected = server.query(
      'SELECT categoryid FROM profile_categories WHERE siteid = 101 AND created > ?',
      c.created,
    ).length;
    expect(after).toHaveLength(expected);
    expect((await api.get(`/sites/101/categories/profile?before=${c.created}`)).body.statuscode).toBe(901);
  });

  it('finds credential categories and credentials by name', async () => {
    const k = one<{ credentialname: string }>(
      server,
      'SELECT credentialname FROM credentials ORDER BY credentialid',
    );
    const found = list<{ credentialname: string }>(
      await api.get(`/credentials?credentialname=${encodeURIComponent(k.credentialname.toLowerCase())}`),
      'credentials',
    );
    expect(found.map((x) => x.credentialname)).toEqual([k.credentialname]);
    expect(
      list(await api.get('/sites/categories/credential?categoryname=LICENSES'), 'categories'),
    ).toHaveLength(1);
  });

  it('answers 902 when q is not JSON', async () => {
    const answer = await api.get('/users?q=%7Bfirstname');
    expect([answer.status, answer.body.statuscode]).toEqual([400, 902]);
  });

  it('answers 903 for a field the route does not search', async () => {
    const answer = await api.get('/credentials?firstname=x');
    expect([answer.status, answer.body.statuscode]).toEqual([400, 903]);
  });

  it('answers 904 for a search on a route without search', async () => {
    const answer = await api.get(`/sites?q=${encodeURIComponent('{"sitename":"x"}')}`);
    expect([answer.status, answer.body.statuscode]).toEqual([400, 904]);
  });
});
