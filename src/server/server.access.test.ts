/** Tokens and access levels, unknown routes, and the shape of every error. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOREIGN_SITE_ID } from './datasets.ts';
import type { RunningServer } from './index.ts';
import { clientFor, list, one, startTestServer, type Client } from './testing/testkit.ts';

let server: RunningServer;
let full: Client;
let readonly: Client;
let feature: Client;
let other: Client;
let ourUser: number;
let foreignUser: number;

beforeAll(async () => {
  server = await startTestServer();
  full = clientFor(server, 'full');
  readonly = clientFor(server, 'readonly');
  feature = clientFor(server, 'feature');
  other = clientFor(server, 'other-customer');
  ourUser = one<{ userid: number }>(
    server,
    'SELECT userid FROM users WHERE siteid = 101 ORDER BY userid',
  ).userid;
  foreignUser = one<{ userid: number }>(
    server,
    'SELECT userid FROM users WHERE siteid = ? ORDER BY userid',
    FOREIGN_SITE_ID,
  ).userid;
});
afterAll(() => server.close());

const STATUS_FIELDS = ['developermessage', 'httpcode', 'moreinfo', 'status', 'statuscode'];

describe('tokens', () => {
  it('look like real tokens and stay the same for the same dataset and seed', async () => {
    for (const t of server.tokens) expect(t.token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    const again = await startTestServer();
    expect(again.tokens).toEqual(server.tokens);
    await again.close();
    const otherSeed = await startTestServer({ seed: 2 });
    expect(otherSeed.tokens[0]!.token).not.toBe(server.tokens[0]!.token);
    await otherSeed.close();
  });

  it('names the feature the feature-limited token is limited to', () => {
    expect(server.tokens.find((t) => t.access === 'feature')?.accessmoduleid).toBe(3);
  });
});

describe('authentication', () => {
  it('answers 401/801 without an AccessToken header', async () => {
    const answer = await clientFor(server, null).get('/users');
    expect(answer.status).toBe(401);
    expect(Object.keys(answer.body).sort()).toEqual(STATUS_FIELDS);
    expect(answer.body).toMatchObject({ httpcode: 401, statuscode: 801 });
    expect(answer.body.moreinfo).toMatch(/\/v1\/responsecodes\/801$/);
  });

  it('answers 401/802 to a token it does not know', async () => {
    const answer = await full.raw('GET', '/users', { token: 'revoked-or-mistyped-token-0000000000' });
    expect([answer.status, answer.body.statuscode]).toEqual([401, 802]);
  });
});

describe('ownership', () => {
  it("answers 401/800 to another customer's token reading our user", async () => {
    const answer = await other.get(`/users/${ourUser}`);
    expect([answer.status, answer.body.statuscode]).toEqual([401, 800]);
  });

  it("gives another customer's token its own records only", async () => {
    const users = list<{ siteid: number }>(await other.get('/users?limit=1000'), 'users');
    expect(new Set(users.map((u) => u.siteid))).toEqual(new Set([FOREIGN_SITE_ID]));
    const ours = list<{ siteid: number }>(await full.get('/users?limit=1000'), 'users');
    expect(ours.some((u) => u.siteid === FOREIGN_SITE_ID)).toBe(false);
    expect((await full.get(`/users/${foreignUser}`)).body.statuscode).toBe(800);
  });

  it("refuses a write to another customer's record with 401/800 and changes nothing", async () => {
    const before = server.snapshot();
    const answer = await other.put(`/users/${ourUser}`, { firstname: 'Hijacked' });
    expect([answer.status, answer.body.statuscode]).toEqual([401, 800]);
    expect(server.snapshot()).toEqual(before);
  });

  it('answers 200/901 to a read of an unknown id, and 401/800 to a write to one', async () => {
    expect((await full.get('/users/99999999')).body).toMatchObject({ httpcode: 200, statuscode: 901 });
    expect((await full.put('/users/99999999', { firstname: 'X' })).body).toMatchObject({
      httpcode: 401,
      statuscode: 800,
    });
  });
});

describe('access levels', () => {
  it('lets a read-only token read', async () => {
    expect((await readonly.get('/users?limit=1')).status).toBe(200);
  });

  it('refuses every write of a read-only token with 401/800', async () => {
    const before = server.snapshot();
    const answers = await Promise.all([
      readonly.put(`/users/${ourUser}`, { status: 'Inactive' }),
      readonly.post('/sites/101/users', { username: 'ro.user', firstname: 'R', lastname: 'O' }),
      readonly.post('/sites/101/access/modules/3/users', { userid: ourUser }),
      readonly.del(`/users/${ourUser}/emails/1`),
    ]);
    for (const a of answers) expect([a.status, a.body.statuscode]).toEqual([401, 800]);
    expect(server.snapshot()).toEqual(before);
  });

  it('lets the feature-limited token grant and revoke its own feature', async () => {
    const granted = await feature.post('/sites/101/access/modules/3/users', { userid: ourUser });
    expect([granted.status, granted.body.statuscode]).toEqual([201, 701]);
    const revoked = await feature.del(`/users/${ourUser}/access/modules/3`);
    expect([revoked.status, revoked.body.statuscode]).toEqual([202, 703]);
  });

  it('refuses the feature-limited token anything outside its feature with 401/800', async () => {
    expect(
      (await feature.post('/sites/101/access/modules/2/users', { userid: ourUser })).body.statuscode,
    ).toBe(800);
    expect((await feature.put(`/users/${ourUser}`, { firstname: 'X' })).body.statuscode).toBe(800);
    expect((await feature.get('/sites/101/access/modules/2/users')).body.statuscode).toBe(800);
    expect((await feature.get('/sites/101/access/modules/3/users')).status).toBe(200);
  });
});

describe('hostile data', () => {
  it('travels as plain JSON text, byte for byte, never as markup', async () => {
    const hostile = await startTestServer({ hostile: true });
    const api = clientFor(hostile);
    const answer = await api.get('/users?limit=5');
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    const names = list<{ firstname: string; lastname: string }>(answer, 'users').flatMap((u) => [
      u.firstname,
      u.lastname,
    ]);
    expect(names).toContain('<script>alert("fieldbook-xss")</script>');
    expect(names).toContain('Ctrl\u0000\u0007\u001b[31mChars\u0008');
    expect(list<{ loginpage: string }>(await api.get('/sites/101'), 'sites')[0]!.loginpage).toBe(
      'javascript:alert(document.domain)',
    );
    await hostile.close();
  });
});

describe('unknown routes and methods', () => {
  it('answers 404/900 to a route the API does not have', async () => {
    const answer = await full.get('/widgets');
    expect([answer.status, answer.body.statuscode]).toEqual([404, 900]);
    expect(answer.headers.get('content-type')).toContain('application/json');
  });

  it('answers 405/900 with Allow to a method the route does not have', async () => {
    const answer = await full.del('/users');
    expect([answer.status, answer.body.statuscode]).toEqual([405, 900]);
    expect(answer.headers.get('allow')).toBe('GET');
  });

  it('answers JSON, never HTML, outside /v1', async () => {
    const answer = await full.get(server.baseUrl.replace(/\/v1$/, '/index.html'));
    expect(answer.status).toBe(404);
    expect(answer.body.statuscode).toBe(900);
  });

  it('explains a response code at its moreinfo address', async () => {
    const moreinfo = (await full.get('/widgets')).body.moreinfo as string;
    const answer = await full.get(moreinfo);
    expect(answer.body).toMatchObject({ statuscode: 900, status: 'not implemented' });
  });
});

describe('malformed HTTP', () => {
  it('answers a request Node cannot parse with a JSON status body', async () => {
    const socket = connect(server.port, '127.0.0.1');
    const reply = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.write('GARBAGE / HTTP/9.9\r\n\r\n');
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toMatchObject({
      httpcode: 400,
      statuscode: 1001,
    });
  });
});
