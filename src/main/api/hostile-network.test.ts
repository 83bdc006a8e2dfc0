/**
 * What a hotel, hospital or conference network puts between the laptop and the
 * API: redirects to another host, sign-in pages answered with 200, proxies.
 * The token must never follow a redirect, and an answer that is not the Data
 * API must be an error that says what was seen.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from './client.ts';
import { failure, fakeFetch } from '../testing/fake-fetch.ts';

const TOKEN = 'hostile-net-token-0123456789';

interface Listener {
  url: string;
  host: string;
  /** the AccessToken header of every request it received (undefined when absent) */
  tokens: (string | undefined)[];
  close(): Promise<void>;
}

const open: Listener[] = [];
afterEach(async () => {
  for (const l of open.splice(0)) await l.close();
});

async function listen(
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<Listener> {
  const tokens: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    const header = req.headers['accesstoken'];
    tokens.push(Array.isArray(header) ? header.join(',') : header);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const listener: Listener = {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    tokens,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  open.push(listener);
  return listener;
}

/** The words a proxy's 407 gets, however the fetch reports it. */
const PROXY_SIGN_IN =
  /^A proxy on this network asks for a sign-in before Fieldbook can reach the platform\b.*Nothing was changed/;

function clientFor(baseUrl: string, fetch?: typeof globalThis.fetch): ApiClient {
  return new ApiClient({
    baseUrl,
    token: TOKEN,
    sleep: async () => undefined,
    maxRetries: 2,
    ...(fetch ? { fetch } : {}),
  });
}

describe('redirects', () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`does not follow a ${status} to another host: the token never reaches it and the error names that host`, async () => {
      const elsewhere = await listen((_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"sites":[]}'),
      );
      const api = await listen((_req, res) =>
        res.writeHead(status, { location: `${elsewhere.url}/v1/sites` }).end(),
      );
      const error = await failure(clientFor(`${api.url}/v1`).request('GET', '/sites'));
      expect(elsewhere.tokens).toEqual([]);
      expect(error.appError.code).toBe('not-the-api');
      expect(error.appError.message).toContain(elsewhere.host);
      expect(error.retryable).toBe(false);
      expect(api.tokens).toHaveLength(1); // one attempt: a redirect is not retried
    });
  }

  it('asks every fetch not to follow redirects (Electron’s net.fetch is injected the same way)', async () => {
    const f = fakeFetch(
      () => new Response('{"sites":[]}', { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    await clientFor('http://127.0.0.1:9/v1', f.fetch).request('GET', '/sites');
    await clientFor('http://127.0.0.1:9/v1', f.fetch).request('PUT', '/users/1', { body: {} });
    expect(f.inits.map((init) => init?.redirect)).toEqual(['manual', 'manual']);
  });

  it('names the host of an https → http downgrade and sends nothing there', async () => {
    const plain = await listen((_req, res) => res.writeHead(200).end('{}'));
    const f = fakeFetch(
      () => new Response(null, { status: 302, headers: { location: `${plain.url}/v1/sites` } }),
    );
    const error = await failure(clientFor('https://api.example.com/v1', f.fetch).request('GET', '/sites'));
    expect(error.appError.message).toContain(plain.host);
    expect(plain.tokens).toEqual([]);
  });
});

describe('answers that are not the Data API', () => {
  it('says a web page answered when a sign-in page comes back with 200 and HTML', async () => {
    const portal = await listen((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Hotel Wi-Fi</title><form>Sign in</form>'),
    );
    const error = await failure(clientFor(`${portal.url}/v1`).request('GET', '/sites'));
    expect(error.appError.code).toBe('not-the-api');
    expect(error.appError.message).toMatch(
      /a web page answered instead of the API: a network sign-in page or a proxy\?/,
    );
    expect(error.retryable).toBe(false);
  });

  it('refuses a 200 of another content type even when its text happens to be JSON', async () => {
    const proxy = await listen((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end('{"sites":[]}'),
    );
    const error = await failure(clientFor(`${proxy.url}/v1`).request('GET', '/sites'));
    expect(error.appError.code).toBe('not-the-api');
    expect(error.appError.message).toContain('an answer that is not the platform’s data came instead');
    expect(error.appError.message).not.toMatch(/text\/plain|JSON/);
  });
});

describe('captive portals and proxies that do not answer 200 with HTML', () => {
  it('takes a 511 sign-in page (the captive portals’ own status) as not the API, without retrying it', async () => {
    const portal = await listen((_req, res) =>
      res
        .writeHead(511, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Network login</title><form>Sign in</form>'),
    );
    const error = await failure(clientFor(`${portal.url}/v1`).request('GET', '/sites'));
    expect(error.appError.code).toBe('not-the-api');
    expect(error.appError.message).toMatch(/sign in/i);
    expect(error.retryable).toBe(false);
    expect(portal.tokens).toHaveLength(1);
  });

  // a fetch that hands the 407 over (Node's turns it into a network error by itself: see "a proxy's sign-in" below)
  it('takes a 407 from a proxy as not the API, whatever its body, in the proxy’s own words', async () => {
    const f = fakeFetch(
      () => new Response(null, { status: 407, headers: { 'proxy-authenticate': 'Basic realm="corp"' } }),
    );
    const error = await failure(clientFor('https://api.example.com/v1', f.fetch).request('GET', '/sites'));
    expect(error.appError.code).toBe('not-the-api');
    expect(error.appError.message).toMatch(PROXY_SIGN_IN);
    expect(f.requests).toHaveLength(1);
  });

  it('takes a proxy’s 403 web page as not the API, not as the token being refused', async () => {
    const proxy = await listen((_req, res) =>
      res
        .writeHead(403, { 'content-type': 'text/html; charset=utf-8' })
        .end('<html><h1>Access to this site is blocked by policy</h1></html>'),
    );
    const error = await failure(clientFor(`${proxy.url}/v1`).request('GET', '/users'));
    expect(error.appError.code).toBe('not-the-api');
    expect(error.appError.message).toContain('HTTP 403');
  });

  it('takes a 200 web page sent without any Content-Type as not the API', async () => {
    const portal = await listen((_req, res) =>
      res.writeHead(200).end('<html><body>Accept the terms to continue</body></html>'),
    );
    const error = await failure(clientFor(`${portal.url}/v1`).request('GET', '/sites'));
    expect(error.appError.code).toBe('not-the-api');
    expect(error.appError.message).toMatch(/a web page answered instead of the API/);
  });

  it('does not learn a token’s access level from a proxy’s 403 page', async () => {
    const { probeAccess } = await import('./probe.ts');
    const proxy = await listen((_req, res) =>
      res.writeHead(403, { 'content-type': 'text/html' }).end('<html>Blocked</html>'),
    );
    expect(await probeAccess(clientFor(`${proxy.url}/v1`))).toBe('unknown');
  });

  it('retries the error page of a gateway in front of the API (502, 503, 504), then names the gateway, not a sign-in page', async () => {
    for (const status of [502, 503, 504]) {
      const gateway = await listen((_req, res) =>
        res
          .writeHead(status, { 'content-type': 'text/html' })
          .end(
            `<html><head><title>${status} Bad Gateway</title></head><body><center><h1>${status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>`,
          ),
      );
      const error = await failure(clientFor(`${gateway.url}/v1`).request('GET', '/sites'));
      expect(error.appError.code).toBe('server');
      expect(error.appError.message).toContain(
        `answered HTTP ${status} with a web page of its own: the gateway in front of the API could not reach it`,
      );
      expect(error.appError.message).not.toMatch(/sign in/);
      // the first try and two retries
      expect(gateway.tokens).toHaveLength(3);
    }
  });

  it('goes on once the API behind a gateway is back', async () => {
    let calls = 0;
    const gateway = await listen((_req, res) => {
      calls += 1;
      if (calls === 1)
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html><h1>502 Bad Gateway</h1></html>');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"sites":[]}');
    });
    const answer = await clientFor(`${gateway.url}/v1`).request('GET', '/sites');
    expect(answer.body).toEqual({ sites: [] });
  });

  // what must not change: the API's own status bodies at 4xx/5xx, and a 5xx without a page is still worth retrying
  it('keeps the API’s JSON status bodies at 4xx and 5xx as they were, and retries a 5xx with an empty or JSON body', async () => {
    const answers: [number, string, string | undefined][] = [
      [
        401,
        JSON.stringify({
          httpcode: 401,
          statuscode: 800,
          status: 'Access denied',
          developermessage: 'no',
          moreinfo: 'x',
        }),
        'application/json',
      ],
      [
        503,
        JSON.stringify({
          httpcode: 503,
          statuscode: 1006,
          status: 'Unavailable',
          developermessage: 'later',
          moreinfo: 'x',
        }),
        'application/json',
      ],
      [502, '', undefined],
      // the API's own status body keeps its meaning at an error status even under a careless Content-Type
      [
        403,
        JSON.stringify({
          httpcode: 403,
          statuscode: 800,
          status: 'Access denied',
          developermessage: 'no',
          moreinfo: 'x',
        }),
        'text/html',
      ],
    ];
    const seen: [string, boolean][] = [];
    for (const [status, body, type] of answers) {
      const api = await listen((_req, res) =>
        res.writeHead(status, type ? { 'content-type': type } : {}).end(body),
      );
      const error = await failure(clientFor(`${api.url}/v1`).request('GET', '/sites'));
      seen.push([error.appError.code, error.retryable]);
    }
    expect(seen).toEqual([
      ['access-denied', false],
      ['server', true],
      ['server', true],
      ['access-denied', false],
    ]);
  });
});

describe('echoes of the token', () => {
  it('keeps only the five fields of the spec from a status body, so an echoed key or extra field is dropped', async () => {
    const body = {
      httpcode: 400,
      statuscode: 1000,
      status: 'Bad',
      developermessage: 'no',
      moreinfo: 'https://x',
      [TOKEN]: 'echo',
      debug: { token: TOKEN },
    };
    const f = fakeFetch(
      () =>
        new Response(JSON.stringify(body), { status: 400, headers: { 'content-type': 'application/json' } }),
    );
    const error = await failure(clientFor('http://127.0.0.1:9/v1', f.fetch).request('GET', '/sites'));
    expect(Object.keys(error.appError.response ?? {}).sort()).toEqual([
      'developermessage',
      'httpcode',
      'moreinfo',
      'status',
      'statuscode',
    ]);
  });
});

describe('the connection probe behind a sign-in page', () => {
  it('reports offline, with the sign-in page named, rather than online', async () => {
    const { probeReachability } = await import('./probe.ts');
    const portal = await listen((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Sign in</title>'),
    );
    const reach = await probeReachability(clientFor(`${portal.url}/v1`));
    expect(reach.online).toBe(false);
    expect(reach.error?.code).toBe('not-the-api');
    expect(reach.error?.message).toMatch(/sign-in page/);
  });
});

describe("Electron's net.fetch in manual redirect mode", () => {
  it('reads its "Redirect was cancelled" rejection as a redirect not followed, not as a network failure to retry', async () => {
    let calls = 0;
    const electronLike = (async () => {
      calls += 1;
      throw new Error('Redirect was cancelled');
    }) as typeof globalThis.fetch;
    const error = await failure(
      clientFor('https://api.example.com/v1', electronLike).request('GET', '/sites'),
    );
    expect(error.appError.code).toBe('not-the-api');
    expect(error.appError.message).toMatch(/redirect/);
    expect(calls).toBe(1);
  });
});

describe('a proxy’s sign-in (407)', () => {
  it('is said in its own words, not as a server that could not be reached, and not retried, when a server answers 407', async () => {
    // Node's fetch turns a 407 into a bare network error (the Fetch standard), whatever the body
    const proxy = await listen((_req, res) =>
      res
        .writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"', 'content-type': 'text/html' })
        .end('<html>Sign in</html>'),
    );
    const error = await failure(clientFor(`${proxy.url}/v1`).request('GET', '/sites'));
    expect(error.appError.code).toBe('not-the-api');
    expect(error.appError.message).toMatch(PROXY_SIGN_IN);
    expect(proxy.tokens).toHaveLength(1);
  });

  for (const netError of [
    'net::ERR_PROXY_AUTH_UNSUPPORTED',
    'net::ERR_UNEXPECTED_PROXY_AUTH',
    'net::ERR_PROXY_AUTH_REQUESTED',
  ]) {
    it(`is said in the same words when Electron's net.fetch rejects with ${netError}`, async () => {
      const f = fakeFetch(() => {
        throw new Error(netError);
      });
      const error = await failure(clientFor('https://api.example.com/v1', f.fetch).request('GET', '/sites'));
      expect(error.appError.message).toMatch(PROXY_SIGN_IN);
      expect(f.requests).toHaveLength(1);
    });
  }

  it('leaves a connection dropped by the server a network failure, retried', async () => {
    const dropping = await listen((req) => req.socket.destroy());
    const error = await failure(clientFor(`${dropping.url}/v1`).request('GET', '/sites'));
    expect(error.appError.code).toBe('network');
    expect(error.appError.message).toBe('The server could not be reached. Check the network connection.');
    expect(dropping.tokens).toHaveLength(3);
  });
});
