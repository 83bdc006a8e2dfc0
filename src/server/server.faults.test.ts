/** Fault injection, the admin API, and persistence across a restart. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from './index.ts';
import { NO_FAULTS } from './faults.ts';
import { clientFor, list, one, startTestServer, type Client } from './testing/testkit.ts';

describe('faults', () => {
  let server: RunningServer;
  let api: Client;
  let userid: number;
  beforeAll(async () => {
    server = await startTestServer();
    api = clientFor(server);
    userid = one<{ userid: number }>(
      server,
      'SELECT userid FROM users WHERE siteid = 101 ORDER BY userid',
    ).userid;
  });
  afterAll(() => server.close());
  const clear = (): void => server.setFaults({ ...NO_FAULTS });

  it('answers 500 or 503 with a status body at errorRate 1, and changes nothing', async () => {
    server.setFaults({ errorRate: 1, seed: 7 });
    const before = server.snapshot();
    const answers = await Promise.all([
      api.get('/users'),
      api.put(`/users/${userid}`, { firstname: 'Never' }),
      api.get('/sites'),
      api.get('/credentials'),
    ]);
    clear();
    for (const a of answers) {
      expect([500, 503]).toContain(a.status);
      expect(a.body).toMatchObject({ httpcode: a.status, statuscode: 1006 });
    }
    expect(server.snapshot()).toEqual(before);
  });

  it('drops the connection before answering at dropRate 1, and changes nothing', async () => {
    server.setFaults({ dropRate: 1 });
    const before = server.snapshot();
    await expect(api.put(`/users/${userid}`, { firstname: 'Dropped' })).rejects.toThrow();
    clear();
    expect(server.snapshot()).toEqual(before);
  });

  it('commits a write and then loses its answer at lostResponseRate 1', async () => {
    server.setFaults({ lostResponseRate: 1 });
    await expect(api.put(`/users/${userid}`, { firstname: 'Committed' })).rejects.toThrow();
    // reads are not affected
    const [u] = list<{ firstname: string }>(await api.get(`/users/${userid}`), 'users');
    clear();
    expect(u!.firstname).toBe('Committed');
  });

  it('answers 429 with Retry-After beyond the requests in flight a token may have, other tokens unaffected', async () => {
    // latency keeps the first request in flight while the second arrives
    server.setFaults({ maxInFlightPerToken: 1, latencyMs: 300, retryAfterSeconds: 2 });
    const [first, second] = await Promise.all([api.get('/sites'), api.get('/sites')]);
    const other = await clientFor(server, 'readonly').get('/sites');
    clear();
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 429]);
    const limited = first.status === 429 ? first : second;
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.body).toMatchObject({ httpcode: 429, statuscode: 1429 });
    expect(other.status).toBe(200);
  });

  it('answers normally again once faults are cleared', async () => {
    clear();
    expect((await api.get('/sites')).status).toBe(200);
  });
});

describe('the admin API', () => {
  it('does not exist without the admin flag', async () => {
    const server = await startTestServer();
    const api = clientFor(server);
    const origin = server.baseUrl.replace(/\/v1$/, '');
    for (const [method, path] of [
      ['POST', '/__admin/reset'],
      ['GET', '/__admin/snapshot'],
      ['POST', '/__admin/faults'],
      ['POST', '/__admin/mutate'],
    ] as const) {
      const answer = await api.raw(method, `${origin}${path}`, {
        body: method === 'POST' ? '{}' : undefined,
      });
      expect([answer.status, answer.body.statuscode]).toEqual([404, 900]);
    }
    await server.close();
  });

  describe('with the admin flag', () => {
    let server: RunningServer;
    let api: Client;
    let origin: string;
    beforeAll(async () => {
      server = await startTestServer({ admin: true });
      api = clientFor(server);
      origin = server.baseUrl.replace(/\/v1$/, '');
    });
    afterAll(() => server.close());

    it('gives a snapshot of users, access, assignments and e-mails', async () => {
      const answer = await api.raw('GET', `${origin}/__admin/snapshot`, { token: '' });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body).sort()).toEqual([
        'credentialAssignments',
        'emails',
        'groupAccess',
        'moduleAccess',
        'trainingAssignments',
        'users',
      ]);
      expect(answer.body).toEqual(JSON.parse(JSON.stringify(server.snapshot())));
    });

    it('changes a user behind the client’s back', async () => {
      const userid = one<{ userid: number }>(server, 'SELECT userid FROM users ORDER BY userid').userid;
      const answer = await api.raw('POST', `${origin}/__admin/mutate`, {
        body: JSON.stringify({
          resource: 'user',
          id: userid,
          changes: { firstname: 'Changed', status: 'Inactive' },
        }),
      });
      expect(answer.status).toBe(200);
      expect(list<Record<string, string>>(await api.get(`/users/${userid}`), 'users')[0]).toMatchObject({
        firstname: 'Changed',
        status: 'Inactive',
      });
    });

    it('changes a credential assignment named <credentialid>-<userid>, and a training assignment', async () => {
      const a = one<{ credentialid: number; userid: number }>(
        server,
        'SELECT credentialid, userid FROM credential_assignments ORDER BY credentialid',
      );
      const t = one<{ transcriptid: number }>(
        server,
        'SELECT transcriptid FROM training_assignments ORDER BY transcriptid',
      );
      const mutate = (body: unknown): ReturnType<Client['raw']> =>
        api.raw('POST', `${origin}/__admin/mutate`, { body: JSON.stringify(body) });
      expect(
        (
          await mutate({
            resource: 'credentialAssignment',
            id: `${a.credentialid}-${a.userid}`,
            changes: { expirationdate: '02/03/2031' },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await mutate({
            resource: 'trainingAssignment',
            id: t.transcriptid,
            changes: { coursestatus: 'completed' },
          })
        ).status,
      ).toBe(200);
      const path = `/credentials/${a.credentialid}/assignments/${a.credentialid}-${a.userid}`;
      expect(list<{ expirationdate: string }>(await api.get(path), 'Credentials')[0]!.expirationdate).toBe(
        '02/03/2031',
      );
      expect(
        list<{ course_status: string }>(
          await api.get(`/trainingassignments/${t.transcriptid}`),
          'trainingassignments',
        )[0]!.course_status,
      ).toBe('completed');
      expect((await mutate({ resource: 'user', id: 1, changes: { firstname: 'Nobody' } })).status).toBe(404);
      expect((await mutate({ resource: 'user', id: a.userid, changes: { password: 'x' } })).status).toBe(400);
    });

    it('sets faults', async () => {
      const answer = await api.raw('POST', `${origin}/__admin/faults`, {
        body: JSON.stringify({ errorRate: 1 }),
      });
      expect(answer.body).toMatchObject({ ok: true, faults: { errorRate: 1 } });
      expect([500, 503]).toContain((await api.get('/sites')).status);
      await api.raw('POST', `${origin}/__admin/faults`, { body: JSON.stringify({ errorRate: 0 }) });
      expect((await api.get('/sites')).status).toBe(200);
    });

    it('resets the data to the generated dataset', async () => {
      const fresh = await startTestServer();
      const generated = fresh.snapshot();
      await fresh.close();
      await api.put(`/users/${generated.users[0]!.userid}`, { lastname: 'Edited' });
      expect(server.snapshot()).not.toEqual(generated);
      expect((await api.raw('POST', `${origin}/__admin/reset`)).status).toBe(200);
      expect(server.snapshot()).toEqual(generated);
    });
  });
});

describe('persistence', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fieldbook-server-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every change across a restart with a file database, with the same tokens', async () => {
    const dbPath = join(dir, 'api.db');
    const first = await startTestServer({ dbPath });
    const userid = one<{ userid: number }>(first, 'SELECT userid FROM users ORDER BY userid').userid;
    expect(
      (await clientFor(first).put(`/users/${userid}`, { status: 'Inactive', lastname: 'Persisted' })).status,
    ).toBe(202);
    const created = await clientFor(first).post('/sites/101/users', {
      username: 'survives.restart',
      firstname: 'S',
      lastname: 'R',
    });
    const tokens = first.tokens;
    await first.close();

    const second = await startTestServer({ dbPath });
    expect(second.tokens).toEqual(tokens);
    const api = clientFor(second);
    expect(list<Record<string, string>>(await api.get(`/users/${userid}`), 'users')[0]).toMatchObject({
      status: 'Inactive',
      lastname: 'Persisted',
    });
    expect(
      list<{ username: string }>(await api.get(`/users/${created.body.userid as number}`), 'users')[0]!
        .username,
    ).toBe('survives.restart');
    await second.close();
  });
});
