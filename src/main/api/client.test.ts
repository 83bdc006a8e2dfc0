import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient, validateItems, type ApiError } from './client.ts';
import {
  connectionRefused,
  connectionReset,
  failure,
  fakeFetch,
  json,
  scriptedFetch,
  statusBody,
} from '../testing/fake-fetch.ts';

const BASE = 'http://127.0.0.1:9/v1';

function client(fetch: typeof globalThis.fetch, extra: { timeoutMs?: number; maxRetries?: number } = {}) {
  const waits: number[] = [];
  const api = new ApiClient({
    baseUrl: BASE,
    token: 'secret-token-1234',
    fetch,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    ...extra,
  });
  return { api, waits };
}

const user = {
  userid: 1,
  siteid: 1,
  username: 'ann',
  firstname: 'Ann',
  lastname: 'Lee',
  employeeid: '',
  status: 'Active',
  usertype: 'User',
  email: [],
  links: {},
};

describe('ApiClient.request', () => {
  it('sends the token in the AccessToken header and asks for fresh data', async () => {
    const f = fakeFetch(() => json(200, { sites: [] }));
    await client(f.fetch).api.request('GET', '/sites');
    expect(f.requests[0]!.headers.accesstoken).toBe('secret-token-1234');
    expect(f.requests[0]!.headers['cache-control']).toBe('no-cache');
    expect(f.requests[0]!.url.pathname).toBe('/v1/sites');
  });

  it('retries a 503 and then succeeds', async () => {
    const f = scriptedFetch([() => json(503, statusBody(503, 1006)), () => json(200, { sites: [] })]);
    const { api, waits } = client(f.fetch);
    const res = await api.request('GET', '/sites');
    expect(res.httpcode).toBe(200);
    expect(f.requests).toHaveLength(2);
    expect(waits).toHaveLength(1);
  });

  it('waits at least as long as Retry-After asks on a 429', async () => {
    const f = scriptedFetch([
      () => json(429, statusBody(429, 1429), { 'Retry-After': '3' }),
      () => json(200, { sites: [] }),
    ]);
    const { api, waits } = client(f.fetch);
    await api.request('GET', '/sites');
    expect(waits[0]).toBeGreaterThanOrEqual(3000);
  });

  it('backs off exponentially between retries of a network error', async () => {
    const f = scriptedFetch([
      connectionRefused,
      connectionRefused,
      connectionRefused,
      () => json(200, { sites: [] }),
    ]);
    const { api, waits } = client(f.fetch);
    await api.request('GET', '/sites');
    expect(waits).toHaveLength(3);
    expect(waits[1]!).toBeGreaterThan(waits[0]!);
    expect(waits[2]!).toBeGreaterThan(waits[1]!);
  });

  it('gives up after maxRetries and reports the network error', async () => {
    const f = fakeFetch(connectionRefused);
    const err = await failure(client(f.fetch, { maxRetries: 2 }).api.request('GET', '/sites'));
    expect(err.appError.code).toBe('network');
    expect(err.maybeSent).toBe(false);
    expect(f.requests).toHaveLength(3);
  });

  it('gives up at once when the server asks to wait more than a minute', async () => {
    const f = fakeFetch(() => json(429, statusBody(429, 1429), { 'Retry-After': '600' }));
    const err = await failure(client(f.fetch).api.request('GET', '/sites'));
    expect(err.appError).toMatchObject({ code: 'rate-limited', retryAfterMs: 600_000 });
    expect(f.requests).toHaveLength(1);
  });

  it('knows a refused connection in Electron’s words was never sent', async () => {
    const f = fakeFetch(() => {
      throw new Error('net::ERR_CONNECTION_REFUSED');
    });
    const err = await failure(
      client(f.fetch, { maxRetries: 0 }).api.request('POST', '/sites/1/users', { body: {} }),
    );
    expect(err).toMatchObject({ maybeSent: false, appError: { code: 'network' } });
  });

  it('does not retry other 4xx answers', async () => {
    const f = fakeFetch(() => json(400, statusBody(400, 1001, 'username is too long')));
    const err = await failure(client(f.fetch).api.request('GET', '/users'));
    expect(f.requests).toHaveLength(1);
    expect(err.appError.code).toBe('rejected');
    expect(err.appError.message).toContain('username is too long');
  });

  it('makes a single attempt when retry is none (writes by default)', async () => {
    const f = fakeFetch(() => json(500, statusBody(500, 1006)));
    await failure(client(f.fetch).api.request('PUT', '/users/1', { body: { status: 'Inactive' } }));
    expect(f.requests).toHaveLength(1);
    expect(f.requests[0]!.body).toEqual({ status: 'Inactive' });
  });

  it('tells 800, 801 and 802 apart', async () => {
    const codes = [];
    for (const statuscode of [800, 801, 802]) {
      const f = fakeFetch(() => json(401, statusBody(401, statuscode)));
      codes.push((await failure(client(f.fetch).api.request('GET', '/users'))).appError.code);
    }
    expect(codes).toEqual(['access-denied', 'token-missing', 'token-rejected']);
  });

  it('resolves a 200/901 answer as a success carrying the status body', async () => {
    const f = fakeFetch(() => json(200, statusBody(200, 901)));
    const res = await client(f.fetch).api.request('GET', '/users');
    expect(res.statusBody?.statuscode).toBe(901);
  });

  it('times out a request that never answers, marking it as possibly sent', async () => {
    // answers only by failing when its signal aborts, like a server that went silent
    const silent: typeof globalThis.fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    const err = await failure(client(silent, { timeoutMs: 20, maxRetries: 0 }).api.request('GET', '/sites'));
    expect(err.appError.code).toBe('timeout');
    expect(err.maybeSent).toBe(true);
  });

  it('marks a connection dropped after sending as possibly sent', async () => {
    const err = await failure(
      client(fakeFetch(connectionReset).fetch).api.request('POST', '/sites/1/users', { body: {} }),
    );
    expect(err.appError.code).toBe('network');
    expect(err.maybeSent).toBe(true);
  });

  it('stops retrying at once when the caller cancels', async () => {
    const controller = new AbortController();
    const f = fakeFetch(() => {
      controller.abort();
      return json(503, statusBody(503, 1006));
    });
    const err = await failure(client(f.fetch).api.request('GET', '/sites', { signal: controller.signal }));
    expect(err.appError.code).toBe('cancelled');
    expect(f.requests).toHaveLength(1);
  });

  it('marks a write cancelled in flight as possibly sent', async () => {
    const controller = new AbortController();
    const inFlight: typeof globalThis.fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        controller.abort();
      });
    const err = await failure(
      client(inFlight).api.request('POST', '/sites/1/users', { body: {}, signal: controller.signal }),
    );
    expect(err).toMatchObject({ maybeSent: true, appError: { code: 'cancelled' } });
  });

  it('treats a failure status body on HTTP 200 as an error', async () => {
    const f = fakeFetch(() => json(200, statusBody(401, 802)));
    const err = await failure(client(f.fetch).api.request('GET', '/users'));
    expect(err.appError.code).toBe('token-rejected');
  });

  it('never puts the token in an error message', async () => {
    const f = fakeFetch(() => json(400, statusBody(400, 1001, 'bad')));
    const err = await failure(client(f.fetch).api.request('GET', '/users'));
    expect(JSON.stringify(err.appError)).not.toContain('secret-token-1234');
  });
});

describe('ApiClient.getPage', () => {
  const page = { startrow: 1, limit: 2 };

  it('returns validated items and the next link', async () => {
    const f = fakeFetch(() =>
      json(200, { users: [user], pagination: { next: `${BASE}/users?startrow=3&limit=2` } }),
    );
    const res = await client(f.fetch).api.getPage('/users', 'users', 'user', page);
    expect(res.items[0]!.username).toBe('ann');
    expect(res.next).toContain('startrow=3');
    expect(f.requests[0]!.url.searchParams.get('startrow')).toBe('1');
    expect(f.requests[0]!.url.searchParams.get('limit')).toBe('2');
  });

  it('reads 901 as an empty page', async () => {
    const f = fakeFetch(() => json(200, statusBody(200, 901)));
    expect(await client(f.fetch).api.getPage('/users', 'users', 'user', page)).toEqual({
      items: [],
      next: null,
      empty: true,
    });
  });

  it('reports a page with an invalid item as malformed and returns nothing of it', async () => {
    const f = fakeFetch(() => json(200, { users: [user, { ...user, userid: 'abc' }] }));
    const err = await failure(client(f.fetch).api.getPage('/users', 'users', 'user', page));
    expect(err.appError.code).toBe('malformed-response');
    expect(err.appError.message).toBe(
      'The platform’s answer could not be read: row 2, Ann Lee: the id is not a number. Nothing of it was used.',
    );
    expect(err.retryable).toBe(false);
  });

  it.each([
    ['a negative user id', { ...user, userid: -5 }, 'the id'],
    ['a user id of 0', { ...user, userid: 0 }, 'the id'],
    ['a negative user id sent as text', { ...user, userid: '-5' }, 'the id'],
    ['a site id of 0', { ...user, siteid: 0 }, 'the id of the site'],
  ])('refuses %s like any malformed id, naming the record and its row', async (_what, bad, field) => {
    const f = fakeFetch(() => json(200, { users: [user, bad] }));
    const err = await failure(client(f.fetch).api.getPage('/users', 'users', 'user', page));
    expect(err.appError.code).toBe('malformed-response');
    expect(err.appError.message).toContain(`row 2, Ann Lee: ${field} is not a positive number.`);
  });

  it('validates only the items asked for, and names a bad one by its row in the whole page', () => {
    const list = [user, { ...user, userid: 'not checked' }, { ...user, userid: 'abc' }];
    // item 1 is one the cache holds as received: not validated
    expect(validateItems('user', list, { startrow: 1 }, [0])).toHaveLength(1);
    const err = (() => {
      try {
        validateItems('user', list, { startrow: 11 }, [0, 2]);
      } catch (e) {
        return e as ApiError;
      }
      throw new Error('no error');
    })();
    expect(err.appError.code).toBe('malformed-response');
    expect(err.appError.message).toContain('row 13, Ann Lee: the id is not a number');
  });

  it('requires the wrapper key in its exact letter case', async () => {
    const f = fakeFetch(() => json(200, { users: [user] }));
    const err = await failure(client(f.fetch).api.getPage('/groups/1/users', 'Users', 'groupMember', page));
    expect(err.appError.code).toBe('malformed-response');
  });

  it.each([
    [
      'no list where the Data API puts one',
      () => json(200, { people: [user] }),
      'The platform’s answer held no list where it always sends one, so nothing of it was used.',
    ],
    [
      'a list where an object belongs',
      () => json(200, [user]),
      'The platform’s answer held no list where it always sends one, so nothing of it was used.',
    ],
    [
      'JSON cut off on the way',
      () =>
        new Response('{"users":[{"userid":1,"firstna', {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
      'The platform’s answer was not in its data format (it may have been cut off on the way), so nothing of it was used.',
    ],
  ])(
    'says of an answer with %s what is wrong in words, without the route or the API’s key',
    async (_what, answer, message) => {
      const f = fakeFetch(answer);
      const err = await failure(client(f.fetch).api.getPage('/sites/5/users', 'users', 'user', page));
      expect(err.appError).toMatchObject({ code: 'malformed-response', message });
      expect(err.appError.message).not.toMatch(/\/sites|users|JSON/);
      expect(err.retryable).toBe(false);
    },
  );

  it('reports a web page answered instead of a list as not the API', async () => {
    const f = fakeFetch(() => new Response('<html>oops</html>', { status: 200 }));
    const err = await failure(client(f.fetch).api.getPage('/users', 'users', 'user', page));
    expect(err.appError.code).toBe('not-the-api');
  });

  it('keeps unknown fields and unknown status values', async () => {
    const f = fakeFetch(() => json(200, { users: [{ ...user, status: 'Suspended', shoesize: 44 }] }));
    const res = await client(f.fetch).api.getPage('/users', 'users', 'user', page);
    expect(res.items[0]!.status).toBe('Suspended');
    expect((res.items[0] as Record<string, unknown>).shoesize).toBe(44);
  });

  it('accepts numbers sent as strings', async () => {
    const f = fakeFetch(() => json(200, { users: [{ ...user, userid: '17', siteid: '2' }] }));
    const res = await client(f.fetch).api.getPage('/users', 'users', 'user', page);
    expect(res.items[0]!.userid).toBe(17);
    expect(res.items[0]!.siteid).toBe(2);
  });

  it('works without a pagination object', async () => {
    const f = fakeFetch(() =>
      json(200, { modules: [{ accessID: 3, moduleName: 'Reports', functionName: 'view', links: {} }] }),
    );
    const res = await client(f.fetch).api.getPage('/sites/1/access/modules', 'modules', 'module', page);
    expect(res.next).toBeNull();
    expect(res.items).toHaveLength(1);
  });
});

describe('ApiClient.getPage with a fingerprint', () => {
  const page = { startrow: 1, limit: 2 };
  const body = JSON.stringify({ users: [user, { ...user, userid: 2, firstname: 'Åsa' }] });
  const sha256 = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('base64url');
  const answer =
    (text: string | Uint8Array, type = 'application/json') =>
    () =>
      new Response(text, { status: 200, headers: { 'content-type': type } });

  afterEach(() => vi.restoreAllMocks());

  it('names the page by the SHA-256 of its bytes as received', async () => {
    const f = fakeFetch(answer(body));
    const asked: string[] = [];
    const res = await client(f.fetch).api.getPage('/users', 'users', 'user', {
      ...page,
      fingerprint: true,
      validate: false,
      unchanged: (h) => (asked.push(h), false),
    });
    expect(asked).toEqual([sha256(body)]);
    expect(res.hash).toBe(sha256(body));
    expect(res.raw).toHaveLength(2);
  });

  it('neither decodes nor parses a body the caller already holds', async () => {
    const f = fakeFetch(answer(body));
    const decode = vi.spyOn(TextDecoder.prototype, 'decode');
    const parse = vi.spyOn(JSON, 'parse');
    const res = await client(f.fetch).api.getPage('/users', 'users', 'user', {
      ...page,
      fingerprint: true,
      validate: false,
      unchanged: (h) => h === sha256(body),
    });
    expect(res).toEqual({ items: [], next: null, empty: false, hash: sha256(body), unchanged: true });
    expect(decode).not.toHaveBeenCalled();
    expect(parse).not.toHaveBeenCalled();
  });

  it('reads a changed body as Response.text() would: UTF-8, its byte-order mark dropped', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(body)]);
    const f = fakeFetch(answer(bytes));
    const res = await client(f.fetch).api.getPage('/users', 'users', 'user', {
      ...page,
      fingerprint: true,
      validate: false,
      unchanged: () => false,
    });
    expect(res.raw).toEqual((JSON.parse(body) as { users: unknown[] }).users);
    expect((res.raw as { firstname: string }[])[1]!.firstname).toBe('Åsa');
    expect(res.hash).toBe(sha256(bytes));
  });

  it('with a scan, finds the items in the bytes and parses only the text around the list', async () => {
    const paged = JSON.stringify({
      users: [user, { ...user, userid: 2, firstname: 'Åsa' }],
      pagination: { next: 'https://api.example/v1/users?startrow=3' },
    });
    const f = fakeFetch(answer(paged));
    const parse = vi.spyOn(JSON, 'parse');
    const res = await client(f.fetch).api.getPage('/users', 'users', 'user', {
      ...page,
      fingerprint: true,
      validate: false,
      scan: ['userid'],
      unchanged: () => false,
    });
    expect(res.raw).toBeUndefined();
    expect(res.next).toBe('https://api.example/v1/users?startrow=3');
    expect(res.hash).toBe(sha256(paged));
    const scanned = res.scanned!;
    expect([...scanned.keys]).toEqual([1, 2]);
    expect(
      JSON.parse(new TextDecoder().decode(scanned.bytes.subarray(scanned.spans[2], scanned.spans[3]))),
    ).toMatchObject({ userid: 2, firstname: 'Åsa' });
    // one parse, of the text around the list (the test's own parse above is the second)
    expect(parse.mock.calls[0]![0]).toBe(
      '{"users":[],"pagination":{"next":"https://api.example/v1/users?startrow=3"}}',
    );
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('with a scan, reads as before what is not plainly a list page: no results (a status body), a list named twice', async () => {
    const options = { ...page, validate: false, scan: ['userid'] } as const;
    const none = await client(
      fakeFetch(() => json(200, statusBody(200, 901, 'no results'))).fetch,
    ).api.getPage('/users', 'users', 'user', options);
    expect(none).toMatchObject({ empty: true, items: [] });
    expect(none.scanned).toBeUndefined();
    const twice = await client(
      fakeFetch(answer('{"users":[{"userid":9}],"users":[{"userid":1}]}')).fetch,
    ).api.getPage('/users', 'users', 'user', options);
    expect(twice.scanned).toBeUndefined();
    expect(twice.raw).toEqual([{ userid: 1 }]);
  });

  it('with a scan, still refuses a page longer than the limit asked for', async () => {
    const three = JSON.stringify({ users: [user, user, user] });
    const err = await failure(
      client(fakeFetch(answer(three)).fetch).api.getPage('/users', 'users', 'user', {
        ...page,
        validate: false,
        scan: ['userid'],
      }),
    );
    expect(err.appError.code).toBe('not-the-api');
  });

  it('refuses the same bytes sent as another type, even when the caller holds their hash', async () => {
    const f = fakeFetch(answer(body, 'text/html'));
    const err = await failure(
      client(f.fetch).api.getPage('/users', 'users', 'user', {
        ...page,
        fingerprint: true,
        validate: false,
        unchanged: () => true,
      }),
    );
    expect(err.appError.code).toBe('not-the-api');
  });
});
