/**
 * Reads through list routes, against the real reference server (requests
 * counted by the fetch the client uses) and, for hostile answers, a scripted API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReplayOutcome, ReplayRequest } from '../../shared/ipc.ts';
import { startServer, tokenFor, type RunningServer } from '../../server/index.ts';
import { ApiClient } from '../api/client.ts';
import { executeBatch, NETWORK_SLOTS } from './batch.ts';
import { Semaphore } from '../../shared/semaphore.ts';
import { executeReplay, type ReplayClient } from './index.ts';
import { FRESH_MS, ListReads } from './list-reads.ts';

let server: RunningServer;
let requests: string[];
let client: ApiClient;
let clock: number;
let reads: ListReads;

beforeAll(async () => {
  server = await startServer({ dataset: 'demo', admin: true });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  server.reset();
  requests = [];
  const counting: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    requests.push(`${init?.method ?? 'GET'} ${url.pathname.replace(/^\/v1/, '')}`);
    return fetch(input, init);
  };
  client = new ApiClient({
    baseUrl: server.baseUrl,
    token: tokenFor(server, 'full'),
    fetch: counting,
    maxRetries: 0,
  });
  clock = 1_000_000;
  reads = new ListReads({ now: () => clock });
});

type User = { userid: number; status: string };
const usersOnSite = (count: number) =>
  server.query<User>(
    "SELECT userid, status FROM users WHERE siteid = 101 AND status = 'Active' ORDER BY userid LIMIT ?",
    count,
  );
const toggled = (status: string) => (status === 'Active' ? 'Inactive' : 'Active');
const statusChange = (u: User, extra: Partial<ReplayRequest> = {}): ReplayRequest => ({
  opId: `op-${u.userid}`,
  op: { kind: 'user.update', userid: u.userid, changes: { status: toggled(u.status) } },
  base: { status: u.status },
  verifyFirst: false,
  ...extra,
});
const statusOf = (userid: number) =>
  server.query<{ status: string }>('SELECT status FROM users WHERE userid = ?', userid)[0]!.status;

async function batch(reqs: ReplayRequest[], on: ReplayClient = client): Promise<Map<string, ReplayOutcome>> {
  const outcomes = new Map<string, ReplayOutcome>();
  await executeBatch(on, reqs, {
    reads,
    slots: new Semaphore(NETWORK_SLOTS),
    onOutcome: (opId, outcome) => void outcomes.set(opId, outcome),
  });
  return outcomes;
}

describe('a batch of user updates', () => {
  it('reads its users through the users list, one request for the list instead of one per op', async () => {
    const users = usersOnSite(100);
    const outcomes = await batch(users.map((u) => statusChange(u)));
    expect([...outcomes.values()].map((o) => o.status)).toEqual(users.map(() => 'done'));
    for (const u of users) expect(statusOf(u.userid)).toBe(toggled(u.status));
    expect(requests.filter((r) => r === 'GET /users')).toHaveLength(1); // 300 users: one page of 1,000
    expect(requests.filter((r) => r.startsWith('GET /users/'))).toEqual([]);
    expect(requests.filter((r) => r.startsWith('PUT '))).toHaveLength(100);
    expect(requests).toHaveLength(101); // the plain loop: 200
  });

  it('reads each record on its own when that costs fewer requests (one op: one GET, not a list)', async () => {
    const [u] = usersOnSite(1);
    await batch([statusChange(u!)]);
    expect(requests).toEqual([`GET /users/${u!.userid}`, `PUT /users/${u!.userid}`]);
  });

  it('reads on its own an op that may have been sent before (verify-before-resend)', async () => {
    const users = usersOnSite(10);
    await batch(users.map((u, i) => statusChange(u, { verifyFirst: i === 0 })));
    expect(requests.filter((r) => r.startsWith('GET /users/'))).toEqual([`GET /users/${users[0]!.userid}`]);
  });

  it('uses a list copy for one op only: a record written since is read again', async () => {
    const users = usersOnSite(10);
    await reads.prefetch(
      client,
      users.map((u) => statusChange(u)),
    );
    const [first] = users;
    await executeReplay(client, statusChange(first!), undefined, reads);
    // the same person again, as the queue sends a second edit after the first is done
    const again = {
      ...statusChange({ userid: first!.userid, status: toggled(first!.status) }),
      opId: 'second',
    };
    requests = [];
    const outcome = await executeReplay(client, again, undefined, reads);
    expect(outcome.status).toBe('done');
    expect(requests).toEqual([`GET /users/${first!.userid}`, `PUT /users/${first!.userid}`]);
  });
});

describe('the freshness bound', () => {
  it(`reads again on its own a record read through the list more than ${FRESH_MS} ms before its write`, async () => {
    const users = usersOnSite(10);
    await reads.prefetch(
      client,
      users.map((u) => statusChange(u)),
    );
    clock += FRESH_MS + 1;
    requests = [];
    await executeReplay(client, statusChange(users[0]!), undefined, reads);
    expect(requests).toEqual([`GET /users/${users[0]!.userid}`, `PUT /users/${users[0]!.userid}`]);
  });

  it('uses the copy up to the bound', async () => {
    const users = usersOnSite(10);
    await reads.prefetch(
      client,
      users.map((u) => statusChange(u)),
    );
    clock += FRESH_MS;
    requests = [];
    await executeReplay(client, statusChange(users[0]!), undefined, reads);
    expect(requests).toEqual([`PUT /users/${users[0]!.userid}`]);
  });

  it('still finds a conflict when the record changed on the server after the list read and the copy is past the bound', async () => {
    const users = usersOnSite(10);
    await reads.prefetch(
      client,
      users.map((u) => statusChange(u)),
    );
    server.mutate({ resource: 'user', id: users[0]!.userid, changes: { status: 'Offline' } });
    clock += FRESH_MS + 1;
    const outcome = await executeReplay(client, statusChange(users[0]!), undefined, reads);
    expect(outcome).toMatchObject({ status: 'conflict', fields: ['status'], theirs: { status: 'Offline' } });
    expect(statusOf(users[0]!.userid)).toBe('Offline');
  });

  it('finds a conflict made before the list read, as a GET of its own would', async () => {
    const users = usersOnSite(10);
    server.mutate({ resource: 'user', id: users[0]!.userid, changes: { status: 'Offline' } });
    const outcomes = await batch(users.map((u) => statusChange(u)));
    expect(outcomes.get(`op-${users[0]!.userid}`)).toMatchObject({ status: 'conflict', fields: ['status'] });
    expect(statusOf(users[0]!.userid)).toBe('Offline');
  });

  it('is the window it leaves open: a change made on the server after the list read, within the bound, is not seen (as one made between a GET and its PUT is not)', async () => {
    const users = usersOnSite(10);
    await reads.prefetch(
      client,
      users.map((u) => statusChange(u)),
    );
    server.mutate({ resource: 'user', id: users[0]!.userid, changes: { status: 'Offline' } });
    clock += FRESH_MS - 1;
    const outcome = await executeReplay(client, statusChange(users[0]!), undefined, reads);
    expect(outcome.status).toBe('done');
  });
});

describe('credential assignment updates', () => {
  it('read the holders of their credential through /credentials/{id}/assignments', async () => {
    // holders on our sites whose record the server accepts as it is (the generated data leaves some required fields
    // empty)
    const ours = `FROM credential_assignments a JOIN users u ON u.userid = a.userid
      JOIN credentials k ON k.credentialid = a.credentialid
      WHERE u.siteid IN (101, 102)
      AND (k.requiredstartdate = 0 OR COALESCE(a.startdate, '') != '')
      AND (k.requiredexpirationdate = 0 OR COALESCE(a.expirationdate, '') != '')
      AND (k.requiredcredentialnum = 0 OR COALESCE(a.credentialnumber, '') != '')
      AND (COALESCE(a.startdate, '') = '' OR COALESCE(a.expirationdate, '') = '' OR a.expirationdate >= a.startdate)`;
    const [credential] = server.query<{ credentialid: number }>(
      `SELECT a.credentialid ${ours} GROUP BY a.credentialid HAVING COUNT(*) >= 5 ORDER BY a.credentialid LIMIT 1`,
    );
    const holders = server.query<{ userid: number; notes: string }>(
      `SELECT a.userid, a.notes ${ours} AND a.credentialid = ? ORDER BY a.userid LIMIT 5`,
      credential!.credentialid,
    );
    const reqs: ReplayRequest[] = holders.map((h) => ({
      opId: `ca-${h.userid}`,
      op: {
        kind: 'credentialAssignment.update',
        credentialid: credential!.credentialid,
        userid: h.userid,
        changes: { notes: `renewed ${h.userid}` },
      },
      base: { notes: h.notes },
      verifyFirst: false,
    }));
    const outcomes = await batch(reqs);
    expect([...outcomes.values()]).toEqual(holders.map(() => expect.objectContaining({ status: 'done' })));
    expect(
      requests.filter((r) => r === `GET /credentials/${credential!.credentialid}/assignments`),
    ).toHaveLength(1);
    // no conflict read of their own (the read after each write stays: it brings what the platform filled in)
    expect(requests.filter((r) => r.startsWith('PUT '))).toHaveLength(5);
    expect(requests.filter((r) => r.startsWith('GET /users/'))).toHaveLength(5);
  });
});

/** A scripted API for hostile answers: the users list answers `listBody`, each user's own GET answers the user. */
function scripted(listBody: (startrow: number) => unknown) {
  const calls: string[] = [];
  const user = (userid: number, status = 'Active') => ({
    userid,
    siteid: 101,
    username: `u${userid}`,
    firstname: 'A',
    lastname: 'B',
    employeeid: '',
    status,
    usertype: 'User',
  });
  const api: ReplayClient = {
    async request(method, path, opts) {
      calls.push(`${method} ${path}`);
      if (method === 'GET' && path === '/users') {
        const body = listBody(Number(opts?.query?.['startrow'] ?? 1));
        if (body instanceof Error) throw body;
        return { httpcode: 200, body, statusBody: null };
      }
      if (method === 'GET')
        return { httpcode: 200, body: { users: [user(Number(path.split('/')[2]))] }, statusBody: null };
      return {
        httpcode: 202,
        body: { httpcode: 202, statuscode: 702, status: 's', developermessage: 'd', moreinfo: 'm' },
        statusBody: null,
      };
    },
  };
  return { api, calls, user };
}
const change = (userid: number): ReplayRequest => ({
  opId: `op-${userid}`,
  op: { kind: 'user.update', userid, changes: { status: 'Inactive' } },
  base: { status: 'Active' },
  verifyFirst: false,
});
const ids = [1, 2, 3, 4, 5];

describe('a hostile or failing list', () => {
  it('is never proof that a record is absent: a record the page does not hold is read on its own', async () => {
    const { api, calls, user } = scripted(() => ({ users: [1, 2, 3, 4].map((id) => user(id)) }));
    const outcomes = await batch(ids.map(change), api);
    expect(outcomes.get('op-5')?.status).toBe('done');
    expect(calls.filter((c) => c.startsWith('GET /users/'))).toEqual(['GET /users/5']);
  });

  it('falls back to per-op reads when a page fails validation', async () => {
    // four good users and one whose name is not text: the page is not trusted, not even for the four
    const { api, calls, user } = scripted(() => ({
      users: [...[1, 2, 3, 4].map((id) => user(id, 'Offline')), { ...user(5), firstname: { evil: true } }],
    }));
    const outcomes = await batch(ids.map(change), api);
    expect([...outcomes.values()].every((o) => o.status === 'done')).toBe(true);
    expect(calls.filter((c) => c.startsWith('GET /users/'))).toHaveLength(5);
  });

  it('falls back to per-op reads when reading the list fails', async () => {
    const { api, calls } = scripted(() =>
      Object.assign(new Error('dropped'), { appError: { code: 'network', message: 'dropped' } }),
    );
    const outcomes = await batch(ids.map(change), api);
    expect([...outcomes.values()].every((o) => o.status === 'done')).toBe(true);
    expect(calls.filter((c) => c.startsWith('GET /users/'))).toHaveLength(5);
  });

  it('trusts no copy of a record listed twice with different values', async () => {
    const { api, calls, user } = scripted(() => ({
      users: [...ids.map((id) => user(id)), user(3, 'Offline')],
    }));
    await batch(ids.map(change), api);
    expect(calls.filter((c) => c.startsWith('GET /users/'))).toEqual(['GET /users/3']);
  });

  it('never uses a copy while a write of ours to that record is still in flight, even one read after the write began', async () => {
    const { api, user } = scripted(() => ({ users: ids.map((id) => user(id)) }));
    // a grant to user 1 has left and not yet come back
    const settled = reads.writing({ kind: 'groupAccess.grant', siteid: 101, groupid: 9, userid: 1 });
    await reads.prefetch(api, ids.map(change));
    expect(reads.take(change(1).op)).toBeNull();
    // another record of the same read is used as usual
    expect(reads.take(change(2).op)).not.toBeNull();
    settled();
  });

  it('never uses a copy whose read may predate a write of ours to that record', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { api, calls, user } = scripted(() => ({ users: ids.map((id) => user(id)) }));
    const slow: ReplayClient = {
      async request(method, path, opts) {
        if (method === 'GET' && path === '/users') {
          const answer = api.request(method, path, opts);
          await held; // the list is answered after the grant below was written
          return answer;
        }
        if (method === 'POST') return { httpcode: 201, body: {}, statusBody: null };
        if (path.endsWith('/access/groups'))
          return {
            httpcode: 200,
            body: { groups: [{ groupid: 9, siteid: 101, groupname: 'G' }] },
            statusBody: null,
          };
        return api.request(method, path, opts);
      },
    };
    const prefetched = reads.prefetch(slow, ids.map(change));
    await executeReplay(
      slow,
      {
        opId: 'grant',
        op: { kind: 'groupAccess.grant', siteid: 101, groupid: 9, userid: 1 },
        verifyFirst: false,
      },
      undefined,
      reads,
    );
    release();
    await prefetched;
    calls.length = 0;
    await executeReplay(slow, change(1), undefined, reads);
    await executeReplay(slow, change(2), undefined, reads);
    expect(calls.filter((c) => c.startsWith('GET /users/'))).toEqual(['GET /users/1']);
  });

  it("trusts no holder of another credential found in a credential's list, not even for that other credential", async () => {
    const calls: string[] = [];
    const holder = (credentialid: number, userid: number, notes = '') => ({
      credentialid,
      userid,
      notes,
      status: 'Active',
    });
    const api: ReplayClient = {
      async request(method, path) {
        calls.push(`${method} ${path}`);
        // credential 7's list slips in a holder of credential 8 whose notes say what we want them to say
        if (path === '/credentials/7/assignments')
          return {
            httpcode: 200,
            body: { Credentials: [holder(7, 1), holder(7, 2), holder(8, 3, 'x')] },
            statusBody: null,
          };
        if (method === 'GET')
          return {
            httpcode: 200,
            body: { Credentials: [holder(7, Number(path.split('/')[2])), holder(8, 3)] },
            statusBody: null,
          };
        return { httpcode: 202, body: {}, statusBody: null };
      },
    };
    const renew = (credentialid: number, userid: number): ReplayRequest => ({
      opId: `ca-${credentialid}-${userid}`,
      op: { kind: 'credentialAssignment.update', credentialid, userid, changes: { notes: 'x' } },
      base: { notes: '' },
      verifyFirst: false,
    });
    await batch([renew(7, 1), renew(7, 2)], api);
    expect(calls).toContain('GET /credentials/7/assignments');
    const outcome = await executeReplay(api, renew(8, 3), undefined, reads);
    // read on its own, found unchanged, and sent (a copy from credential 7's list would have said it was already done)
    expect(outcome).toMatchObject({ status: 'done' });
    expect(outcome).not.toHaveProperty('alreadyApplied');
    expect(calls).toContain('PUT /credentials/8/assignments/8-3');
  });
});
