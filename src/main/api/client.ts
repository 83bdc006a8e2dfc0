/**
 * The Data API v1 client: the AccessToken header, a timeout per request,
 * retries with backoff and jitter for transient failures, status-body decoding
 * and zod validation of every list page. The fetch implementation is injected
 * (Electron's net.fetch in the app, Node's fetch in tests).
 */
import { createHash } from 'node:crypto';
import { ResponseCode, statusBodySchema, type StatusBody } from '../../shared/api/codes.ts';
import { paginationSchema, type Parsed, type SchemaName } from '../../shared/api/wire.ts';
import type { AppError } from '../../shared/ipc.ts';
import {
  ApiError,
  DEFAULT_RETRY_POLICY,
  DEFAULT_TIMEOUT_MS,
  appErrorFromResponse,
  defaultMessage,
  isFailureStatusCode,
  parseRetryAfter,
  retryDelay,
} from './errors.ts';
import { scanList, type ScannedList } from './list-scan.ts';
import { readCappedBody } from './read-body.ts';
import { parseRecords } from './field-length.ts';
import { UnreadableRecord, recordIssue, unreadableAnswer } from './record-issue.ts';

export { ApiError } from './errors.ts';

export interface ApiClientOptions {
  baseUrl: string;
  token: string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  maxRetries?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** An attempt failed and another is coming: `attempt` is the number of the coming one, out of `of`. */
export interface RetryNotice {
  attempt: number;
  of: number;
  error: AppError;
}

export interface RequestOptions {
  query?: Record<string, string | number>;
  body?: unknown;
  retry?: 'auto' | 'none';
  signal?: AbortSignal;
  /** told before each retry (the sync shows "retrying (2 of 4)") */
  onRetry?: (notice: RetryNotice) => void;
  /**
   * Asked with a 200 body of the JSON type before it is decoded (its bytes as
   * received): true when the caller takes the body as it is (it already holds
   * this very body, a page fingerprint; or it reads the bytes itself), which is
   * then neither decoded nor parsed here (the answer's `body` is undefined).
   */
  known?: (bytes: Uint8Array) => boolean;
  /** called and awaited once the body is read, before it is looked at (`known` may need what is still on its way) */
  ready?: () => Promise<unknown>;
}

export interface ApiResponse {
  httpcode: number;
  body: unknown;
  statusBody: StatusBody | null;
  /** the body's bytes as received (list pages hash them: see getPage's `fingerprint`) */
  bytes?: Uint8Array;
}

export interface ListPage<K extends SchemaName> {
  items: Parsed<K>[];
  next: string | null;
  empty: boolean;
  /** SHA-256 of the response body, when asked for (`fingerprint: true`) */
  hash?: string;
  /**
   * The caller's `unchanged(hash)` said the page is one it already holds: the
   * body was neither parsed nor validated; `items` is empty.
   */
  unchanged?: boolean;
  /** with `validate: false`: the page's list as parsed JSON, NOT validated (`items` is empty) */
  raw?: unknown[];
  /**
   * with `scan`: the page's bytes and where each item of its list is, instead
   * of `raw` (nothing of the items parsed or validated; the text around them
   * parsed and checked as for `raw`). Absent when the body is not plainly a
   * list page: `raw` then has the list as `JSON.parse` reads it.
   */
  scanned?: ScannedPage;
}

/** A list page's bytes and its items' places in them (`scanList`). */
export interface ScannedPage extends ScannedList {
  bytes: Uint8Array;
}

/** A Retry-After longer than this is not waited for: the request fails as rate-limited. */
const MAX_RETRY_AFTER_MS = 60_000;

// Connection failures that prove the request never left this machine.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

// The same, as Chromium's network stack (Electron's net.fetch) names them in its messages.
const NOT_SENT_NET_ERROR_NAMES = [
  'CONNECTION_REFUSED',
  'NAME_NOT_RESOLVED',
  'INTERNET_DISCONNECTED',
  'ADDRESS_UNREACHABLE',
  'NETWORK_CHANGED',
  'PROXY_CONNECTION_FAILED',
];
const NOT_SENT_NET_ERRORS = new RegExp(`net::ERR_(${NOT_SENT_NET_ERROR_NAMES.join('|')})\\b`);

// Electron's net.fetch rejects a redirect in 'manual' mode instead of returning it (electron/electron#43715)
const CANCELLED_REDIRECT = /Redirect was cancelled|net::ERR_(UNSAFE|TOO_MANY)_REDIRECT/;

function isCancelledRedirect(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (CANCELLED_REDIRECT.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

function errorCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (NOT_SENT_NET_ERRORS.test(current.message)) return 'ECONNREFUSED';
    current = current.cause;
  }
  return undefined;
}

/** `sent`: the request had already been handed to the network when it was cancelled. */
function abortError(sent = false): ApiError {
  return new ApiError(
    { code: 'cancelled', message: defaultMessage('cancelled') },
    { retryable: false, maybeSent: sent },
  );
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function sleepUnlessAborted(
  sleep: (ms: number) => Promise<void>,
  ms: number,
  signal?: AbortSignal,
): Promise<void> {
  if (!signal) return sleep(ms);
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    sleep(ms).then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
    );
  });
}

/** Where a 3xx pointed, as "host" (the token was not sent there), or a note that it was not readable. */
function redirectTarget(response: Response, requestUrl: string): string {
  const location = response.headers.get('location');
  if (!location) return 'an address it did not show';
  try {
    const target = new URL(location, requestUrl);
    return target.protocol === 'http:' || target.protocol === 'https:'
      ? `${target.protocol}//${target.host}`
      : `a ${target.protocol} address`;
  } catch {
    return 'an unreadable address';
  }
}

function redirectMessage(target: string): string {
  return (
    `The API address answered with a redirect to ${target}. Fieldbook does not follow redirects, so the token was not sent there. ` +
    'A network sign-in page or a proxy may be in the way; otherwise correct the profile’s address.'
  );
}

/**
 * A proxy asking for its own sign-in (HTTP 407) before it lets anything
 * through, however the fetch reports it: a 407 answer handed over; Node's fetch
 * turns it into a bare network error (the Fetch standard: see isProxySignIn);
 * Chromium's network stack (Electron's net.fetch) into a net:: error.
 */
function proxySignIn(): ApiError {
  return notTheApi(
    'A proxy on this network asks for a sign-in before Fieldbook can reach the platform (HTTP 407). Nothing was changed; ' +
      'sign in to the proxy, or check this computer’s proxy settings (your IT desk knows them), then try again.',
    407,
  );
}

// Chromium's errors for a proxy's sign-in it cannot answer (no credentials, a scheme it does not support, a 407 from a
// server that is not the proxy)
const PROXY_AUTH_NET_ERROR_NAMES = [
  'PROXY_AUTH_UNSUPPORTED',
  'PROXY_AUTH_REQUESTED',
  'PROXY_AUTH_REQUESTED_WITH_NO_CONNECTION',
  'UNEXPECTED_PROXY_AUTH',
];
const PROXY_AUTH_NET_ERRORS = new RegExp(`net::ERR_(${PROXY_AUTH_NET_ERROR_NAMES.join('|')})\\b`);

/**
 * Whether a fetch's rejection is a proxy's 407. Node's fetch makes a 407 a
 * network error whose cause is an Error with no message and no code (undici's
 * makeNetworkError() with no reason). A fetch that does not follow redirects and
 * asks no byte range meets that bare error only for a 407; every other failure
 * names its reason (ECONNRESET, "other side closed", …).
 */
function isProxySignIn(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (PROXY_AUTH_NET_ERRORS.test(current.message)) return true;
    current = current.cause;
  }
  if (!(err instanceof TypeError) || err.message !== 'fetch failed') return false;
  const cause: unknown = err.cause;
  return (
    cause instanceof Error &&
    cause.message === '' &&
    (cause as Error & { code?: unknown }).code === undefined &&
    cause.cause === undefined
  );
}

function notTheApi(message: string, httpcode?: number): ApiError {
  // a write answered by something else may have been seen by the API behind it: verify before resending
  return new ApiError(
    { code: 'not-the-api', message, ...(httpcode === undefined ? {} : { httpcode }) },
    { retryable: false, maybeSent: true },
  );
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

const is2xx = (httpcode: number) => httpcode >= 200 && httpcode < 300;

/** A body that is not JSON and opens like markup: a web page, whatever the headers say. */
const looksLikePage = (text: string) => /^[\s\uFEFF]*</.test(text);

/** A non-empty body whose Content-Type is given and is not JSON (an empty body says nothing either way). */
const hasForeignType = (type: string | null, text: string): type is string =>
  text.length > 0 && type !== null && !JSON_TYPE.test(type);

interface Answer {
  httpcode: number;
  type: string | null;
  text: string;
  /** the body parsed as JSON (an empty body counts as parsed) */
  parsed: boolean;
  /** it is the API's status body (statuscode and the spec's fields) */
  statusBody: boolean;
}

/**
 * What answered instead of the Data API, in words for the user, or null when
 * the answer may be the API's. Portals and proxies answer at any status, not
 * only 200: a sign-in page at 511, a proxy's "blocked" page at 403 (which, read
 * as the API's 800, would teach the app a wrong access level), a page with no
 * Content-Type at all (a proxy's login at 407 is said before: proxySignIn). Only the API's own status body at
 * an error status keeps its meaning under a careless Content-Type; a 5xx with an
 * empty or JSON body stays a server error worth retrying, and so does a gateway's
 * own error page (502, 503, 504: see gatewayPage).
 */
function foreignAnswer(answer: Answer): string | null {
  const { httpcode, type, text } = answer;
  if (gatewayPage(answer)) return null;
  // RFC 6585: 511 is the captive portals' own status, never the API's (a 407 is a proxy's: proxySignIn)
  if (httpcode === 511)
    return 'the network asks you to sign in (HTTP 511) before the API can be reached. Nothing was changed; sign in to the network (open any web page in a browser), then try again.';
  const page = !answer.parsed && looksLikePage(text);
  const otherType = hasForeignType(type, text) && (is2xx(httpcode) || !answer.statusBody);
  if (!page && !otherType) return null;
  const status = is2xx(httpcode) ? '' : ` (HTTP ${httpcode})`;
  const kind =
    page || (type !== null && /^\s*text\/html\b/i.test(type))
      ? 'a web page answered instead of the API: a network sign-in page or a proxy?'
      : 'an answer that is not the platform’s data came instead of the API’s: a proxy?';
  return `${kind}${status} Nothing was changed; sign in to the network or check the profile’s address, then try again.`;
}

/**
 * A 502, 503 or 504 whose body is not the API's: the error page of the gateway or
 * load balancer in front of the API (nginx's "502 Bad Gateway", a cloud
 * provider's "503 Service Unavailable") while the API behind it is down or
 * restarting. A server error worth retrying, not a sign-in page.
 */
function gatewayPage(answer: Answer): boolean {
  return (
    answer.httpcode >= 502 &&
    answer.httpcode <= 504 &&
    !answer.statusBody &&
    answer.text.trim().length > 0 &&
    !answer.parsed
  );
}

/** A body as `Response.text()` reads it: UTF-8, a byte-order mark dropped, invalid bytes replaced. */
function decodeText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** A page's fingerprint: SHA-256 of its bytes as received. */
function hashBody(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

/** The `next` link of a list page's `pagination`, when it has one. */
function nextLink(pagination: unknown): string | null {
  const parsed = paginationSchema.safeParse(pagination);
  return parsed.success && parsed.data.next ? parsed.data.next : null;
}

/**
 * A list page read by `scanList`, its text around the list parsed and checked
 * as a whole body would be (an object holding the list, no status code); or
 * undefined when it does not read that way (the body is then parsed whole, and
 * any error is the whole body's).
 */
function scanPage(
  bytes: Uint8Array,
  wrapperKey: string,
  keyFields: readonly string[],
): { page: ScannedPage; next: string | null } | undefined {
  const list = scanList(bytes, wrapperKey, keyFields);
  if (!list) return undefined;
  let around: unknown;
  try {
    around = JSON.parse(list.skeleton);
  } catch {
    return undefined;
  }
  if (typeof around !== 'object' || around === null || Array.isArray(around) || 'statuscode' in around)
    return undefined;
  const placeholder = (around as Record<string, unknown>)[wrapperKey];
  if (!Array.isArray(placeholder) || placeholder.length !== 0) return undefined;
  return { page: { ...list, bytes }, next: nextLink((around as Record<string, unknown>).pagination) };
}

/**
 * The list of a scanned page as `JSON.parse` reads the whole body: for an item
 * the scan found that does not parse on its own, whose error is then the
 * whole body's (not JSON), as for a page read whole.
 */
export function wholeList(page: ScannedPage, wrapperKey: string): unknown[] {
  const { body, parsed } = parseJson(decodeText(page.bytes));
  if (!parsed) throw unreadableAnswer('not-data', 200);
  const list =
    body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[wrapperKey] : undefined;
  if (!Array.isArray(list)) throw unreadableAnswer('no-list', 200);
  return list;
}

function parseJson(text: string): { body: unknown; parsed: boolean } {
  if (text.length === 0) return { body: null, parsed: true };
  try {
    return { body: JSON.parse(text) as unknown, parsed: true };
  } catch {
    return { body: null, parsed: false };
  }
}

/**
 * A page's items validated with schemas[schema], or UnreadableRecord
 * ('malformed-response') naming the first bad record in words by its row, the
 * record and what is wrong (record-issue.ts). `only` validates just those
 * indexes (the others are items the cache holds as received): the result has
 * their items in that order.
 */
export function validateItems<K extends SchemaName>(
  schema: K,
  list: unknown[],
  where: { startrow: number; httpcode?: number },
  only?: readonly number[],
): Parsed<K>[] {
  const subset = only ? only.map((i) => list[i]) : list;
  const items = parseRecords(schema, subset);
  if (items.success) return items.data;
  // the message names the record by its row in the whole page
  throw new UnreadableRecord(
    recordIssue(items.error, list, schema, where.startrow, only ? (i) => only[i] ?? i : undefined),
    where.httpcode,
  );
}

export class ApiClient {
  readonly baseUrl: string;
  readonly #token: string;
  readonly #fetch: typeof globalThis.fetch;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;

  constructor(opts: ApiClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.#token = opts.token;
    this.#fetch = opts.fetch ?? globalThis.fetch;
    this.#timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#maxRetries = opts.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries;
    this.#sleep = opts.sleep ?? defaultSleep;
    this.#random = opts.random ?? Math.random;
  }

  url(path: string, query?: Record<string, string | number>): string {
    const url = new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, String(value));
    return url.toString();
  }

  /**
   * One request. retry 'auto' (default for GET): backoff+jitter on network errors,
   * 5xx, 1006, 429 (Retry-After honoured); 'none': a single attempt. Resolves for
   * 2xx (including 200/901), throws ApiError otherwise.
   */
  async request(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
    const retry = opts.retry ?? (method === 'GET' ? 'auto' : 'none');
    const policy = { ...DEFAULT_RETRY_POLICY, maxRetries: retry === 'auto' ? this.#maxRetries : 0 };
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#attempt(method, path, opts);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const delay = retryDelay(err, attempt, policy, this.#random);
        if (delay === null || delay > MAX_RETRY_AFTER_MS)
          throw attempt > 0 ? this.#gaveUp(err, attempt + 1) : err;
        opts.onRetry?.({ attempt: attempt + 2, of: policy.maxRetries + 1, error: err.appError });
        await sleepUnlessAborted(this.#sleep, delay, opts.signal);
      }
    }
  }

  /** The last error of several attempts, saying how many were made. */
  #gaveUp(err: ApiError, attempts: number): ApiError {
    if (err.appError.code !== 'timeout') return err;
    const seconds = Math.round(this.#timeoutMs / 1000);
    const message = `The server did not answer (${attempts} attempts, ${seconds} s each). Check the network connection, or try again later.`;
    return new ApiError({ ...err.appError, message }, { retryable: false, maybeSent: err.maybeSent });
  }

  async #attempt(method: HttpMethod, path: string, opts: RequestOptions): Promise<ApiResponse> {
    const caller = opts.signal;
    if (caller?.aborted) throw abortError();
    // One controller per attempt, its timer cleared when the answer is read: cheaper
    // than AbortSignal.timeout + AbortSignal.any, whose timers outlive the request.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.#timeoutMs);
    const onCallerAbort = () => controller.abort();
    caller?.addEventListener('abort', onCallerAbort, { once: true });
    const headers: Record<string, string> = {
      AccessToken: this.#token,
      Accept: 'application/json',
      'Cache-Control': 'no-cache',
    };
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    let response: Response;
    let bytes: Uint8Array;
    const url = this.url(path, opts.query);
    try {
      // never follow a redirect: it would carry the AccessToken header to wherever it points
      response = await this.#fetch(url, {
        method,
        headers,
        body,
        signal: controller.signal,
        redirect: 'manual',
      });
      // streamed with a cap: a proxy's endless answer must not exhaust main's memory
      bytes = await readCappedBody(response, method);
    } catch (err) {
      throw this.#transportError(err, caller, timedOut);
    } finally {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    }
    if (opts.ready) await opts.ready();
    return { ...this.#decode(response, bytes, url, opts.known), bytes };
  }

  #transportError(err: unknown, caller: AbortSignal | undefined, timedOut: boolean): ApiError {
    if (caller?.aborted) return abortError(true);
    if (err instanceof ApiError) return err; // the answer was read and refused (too large)
    if (timedOut) {
      return new ApiError({ code: 'timeout', message: defaultMessage('timeout') }, { maybeSent: true });
    }
    if (isCancelledRedirect(err)) return notTheApi(redirectMessage('an address it did not show'));
    if (isProxySignIn(err)) return proxySignIn();
    const code = errorCode(err);
    const sent = code === undefined || !NOT_SENT_CODES.has(code);
    return new ApiError({ code: 'network', message: defaultMessage('network') }, { maybeSent: sent });
  }

  #decode(
    response: Response,
    bytes: Uint8Array,
    requestUrl: string,
    known?: (bytes: Uint8Array) => boolean,
  ): ApiResponse {
    const httpcode = response.status;
    if (response.type === 'opaqueredirect' || (httpcode >= 300 && httpcode < 400)) {
      const target =
        response.type === 'opaqueredirect'
          ? 'an address it did not show'
          : redirectTarget(response, requestUrl);
      throw notTheApi(redirectMessage(target), httpcode || undefined);
    }
    if (httpcode === 407) throw proxySignIn();
    const type = response.headers.get('content-type');
    const host = new URL(requestUrl).host;
    // a 2xx of another type is refused before parsing: a proxy's text that happens to be JSON is not the API's list
    // (the type is looked at first: a JSON body is decoded only if it is not known)
    if (is2xx(httpcode) && type !== null && !JSON_TYPE.test(type)) {
      const text = decodeText(bytes);
      const early = hasForeignType(type, text)
        ? foreignAnswer({ httpcode, type, text, parsed: false, statusBody: false })
        : null;
      if (early) throw notTheApi(`At ${host}, ${early}`, httpcode);
    }
    // the very body the caller already holds (and once parsed and validated): nothing to decode or parse
    if (httpcode === 200 && known?.(bytes)) return { httpcode, body: undefined, statusBody: null };
    const text = decodeText(bytes);
    const { body, parsed } = parseJson(text);
    // only a body that names a statuscode can be a status body (skips validating big list pages twice)
    const status =
      body !== null && typeof body === 'object' && 'statuscode' in body
        ? statusBodySchema.safeParse(body)
        : null;
    // the spec's five fields and nothing else: an extra field or key (an echo of the token, debug data) is dropped
    const statusBody: StatusBody | null = status?.success
      ? {
          httpcode: status.data.httpcode,
          statuscode: status.data.statuscode,
          status: status.data.status,
          developermessage: status.data.developermessage,
          moreinfo: status.data.moreinfo,
        }
      : null;
    const foreign = foreignAnswer({ httpcode, type, text, parsed, statusBody: statusBody !== null });
    if (foreign) throw notTheApi(`At ${host}, ${foreign}`, httpcode);
    const ok = is2xx(httpcode);
    if (ok && !parsed) throw unreadableAnswer('not-data', httpcode);
    if (ok && !(statusBody && isFailureStatusCode(statusBody.statuscode)))
      return { httpcode, body, statusBody };

    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    const appError = appErrorFromResponse(httpcode, statusBody, retryAfterMs);
    if (gatewayPage({ httpcode, type, text, parsed, statusBody: statusBody !== null })) {
      appError.message = `${host} answered HTTP ${httpcode} with a web page of its own: the gateway in front of the API could not reach it (the API is down or restarting); try again in a few minutes.`;
    }
    // 429 and 1006 are refusals; another 5xx may have been applied before failing
    const maybeSent =
      httpcode >= 500 &&
      appError.code === 'server' &&
      statusBody?.statuscode !== ResponseCode.ExternalUnavailable;
    throw new ApiError(appError, { maybeSent });
  }

  /**
   * One validated list page: items parsed with schemas[schema]; empty=true on 901;
   * next from pagination when present. A page that fails validation throws
   * ApiError 'malformed-response' (nothing of it is returned).
   */
  async getPage<K extends SchemaName>(
    path: string,
    wrapperKey: string,
    schema: K,
    page: {
      startrow: number;
      limit: number;
      query?: Record<string, string | number>;
      onRetry?: (notice: RetryNotice) => void;
      /** hash the body (SHA-256) */
      fingerprint?: boolean;
      /**
       * with `fingerprint`: true when the caller already holds a page of this hash (parsing and validation are then
       * skipped)
       */
      unchanged?: (hash: string) => boolean;
      /** false: return the list as parsed JSON in `raw`, for the caller to validate what it needs (`validateItems`) */
      validate?: boolean;
      /**
       * with `validate: false`: find the list's items in the bytes instead of
       * parsing the body (`scanned`), with the integer values of these key fields
       */
      scan?: readonly string[];
      /**
       * the answer is looked at (and `unchanged` asked) only once what this returns resolves: the request goes at once
       */
      ready?: () => Promise<unknown>;
    },
    signal?: AbortSignal,
  ): Promise<ListPage<K>> {
    const query = { ...page.query, startrow: page.startrow, limit: page.limit };
    let hash: string | undefined;
    let scanned: { page: ScannedPage; next: string | null } | undefined;
    const known = (bytes: Uint8Array): boolean => {
      if (page.fingerprint) {
        hash = hashBody(bytes);
        if (page.unchanged?.(hash) === true) return true;
      }
      if (page.scan && page.validate === false) scanned = scanPage(bytes, wrapperKey, page.scan);
      return scanned !== undefined;
    };
    const { body, statusBody, httpcode, bytes } = await this.request('GET', path, {
      query,
      signal,
      ...(page.onRetry ? { onRetry: page.onRetry } : {}),
      ...(page.fingerprint || page.scan ? { known } : {}),
      ...(page.ready ? { ready: page.ready } : {}),
    });
    const limitError = (rows: number) => {
      const held = rows.toLocaleString('en-US');
      const asked = page.limit.toLocaleString('en-US');
      return notTheApi(
        `The platform’s answer held ${held} rows where at most ${asked} were asked: not how the platform answers, so a proxy or a cache may be in the way. Nothing of it was used.`,
        httpcode,
      );
    };
    if (scanned) {
      // a proxy or cache that ignores `limit` is not the Data API: its pages cannot be trusted for pruning
      if (scanned.page.spans.length / 2 > page.limit) throw limitError(scanned.page.spans.length / 2);
      return {
        items: [],
        next: scanned.next,
        empty: false,
        scanned: scanned.page,
        ...(hash !== undefined ? { hash } : {}),
      };
    }
    if (body === undefined && hash !== undefined)
      return { items: [], next: null, empty: false, hash, unchanged: true };
    if (statusBody?.statuscode === ResponseCode.NoResults) return { items: [], next: null, empty: true };
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw unreadableAnswer('no-list', httpcode);
    const list = (body as Record<string, unknown>)[wrapperKey];
    if (!Array.isArray(list)) throw unreadableAnswer('no-list', httpcode);
    if (list.length > page.limit) throw limitError(list.length);
    const next = nextLink((body as Record<string, unknown>).pagination);
    if (page.fingerprint && hash === undefined && bytes !== undefined) hash = hashBody(bytes);
    if (page.validate === false)
      return { items: [], raw: list, next, empty: false, ...(hash !== undefined ? { hash } : {}) };
    const listPage: ListPage<K> = {
      items: validateItems(schema, list, { startrow: page.startrow, httpcode }),
      next,
      empty: false,
    };
    if (hash !== undefined) listPage.hash = hash;
    return listPage;
  }
}
