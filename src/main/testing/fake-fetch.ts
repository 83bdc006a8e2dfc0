/**
 * A scripted fetch for unit tests: each call is answered by the next responder,
 * and every request is recorded.
 */
import { ApiError } from '../api/errors.ts';

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}

export type Responder = (req: RecordedRequest) => Response | Promise<Response>;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function statusBody(
  httpcode: number,
  statuscode: number,
  developermessage = 'message',
): Record<string, unknown> {
  return {
    httpcode,
    statuscode,
    status: 'status',
    developermessage,
    moreinfo: `https://developer.example/v1/responsecodes/${statuscode}`,
  };
}

export function connectionRefused(): never {
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  });
}

export function connectionReset(): never {
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
  });
}

export interface FakeFetch {
  fetch: typeof globalThis.fetch;
  requests: RecordedRequest[];
  /** the options each call was given, as given */
  inits: (RequestInit | undefined)[];
}

/** Answers with `route(req)` for every request. */
export function fakeFetch(route: Responder): FakeFetch {
  const requests: RecordedRequest[] = [];
  const inits: (RequestInit | undefined)[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    inits.push(init);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((init?.headers ?? {}) as Record<string, string>))
      headers[k.toLowerCase()] = v;
    const req: RecordedRequest = {
      method: init?.method ?? 'GET',
      url: new URL(String(input)),
      headers,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(req);
    const signal = init?.signal;
    if (signal?.aborted) throw signal.reason;
    return await route(req);
  };
  return { fetch: fetch as typeof globalThis.fetch, requests, inits };
}

/** Answers calls in order from `script`; the last entry repeats. */
export function scriptedFetch(script: Responder[]): FakeFetch {
  let i = 0;
  return fakeFetch((req) => {
    const responder = script[Math.min(i++, script.length - 1)]!;
    return responder(req);
  });
}

/** The ApiError a request fails with (fails the test if it succeeds or throws anything else). */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected the request to fail');
}
