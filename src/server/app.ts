/**
 * The HTTP layer: reads the request, applies faults, authenticates the
 * AccessToken header, routes, runs writes in one transaction, and answers
 * JSON — a status body for every write and every error, never a stack trace.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ResponseCode, type StatusBody } from '../shared/api/codes.ts';
import { applyMutation, mutationSchema, takeSnapshot } from './admin.ts';
import type { ApiContext, ApiResult } from './context.ts';
import type { FaultInjector, FaultSpec } from './faults.ts';
import { compileRoutes, matchRoute, apiRoutes } from './router.ts';
import { ApiError, HTTP_OF, statusBody } from './status.ts';
import type { Store } from './store.ts';
import type { Caller } from './tokens.ts';

export interface AppState {
  store: Store;
  base: string;
  developerUrl: string;
  today: string;
  tokens: Map<string, Caller>;
  faults: FaultInjector;
  /** present only with `admin: true` */
  admin: { reset(): void } | null;
  /** the Host headers answered (null: any); others get 421, so DNS rebinding reaches nothing */
  allowedHosts: Set<string> | null;
  /**
   * Writes that reached a route handler with a valid token, per target ("PUT /users/42"),
   * whatever their outcome: a resend answered 1002 counts as a second attempt at its target.
   * Faults injected before the handler (drop, 500/503, 429) do not count; a lost answer does.
   */
  writes: Map<string, number>;
}

const MAX_BODY_BYTES = 1_000_000;
let compiled: ReturnType<typeof compileRoutes> | null = null;
/** Compiled on first use: importing the server does nothing by itself. */
const routeTable = (): ReturnType<typeof compileRoutes> => (compiled ??= compileRoutes(apiRoutes()));
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  // encode once: the length and the bytes sent come from the same buffer
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(bytes.length),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(bytes);
}

function sendStatus(
  res: ServerResponse,
  state: AppState,
  code: ResponseCode,
  message: string,
  httpcode = HTTP_OF[code],
  headers: Record<string, string> = {},
): void {
  send(res, httpcode, statusBody(code, message, state.developerUrl, httpcode), headers);
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(ResponseCode.InvalidJsonBody, 'The request body is not valid JSON.');
  }
}

/** Handles one /v1 request with no faults involved; returns the answer or throws an ApiError. */
export function answerApi(
  state: AppState,
  method: string,
  url: URL,
  token: string | undefined,
  bodyText: string,
): ApiResult & { headers?: Record<string, string> } {
  if (!token) throw new ApiError(ResponseCode.NoToken, 'The AccessToken header is missing.');
  const caller = state.tokens.get(token);
  if (!caller) throw new ApiError(ResponseCode.InvalidToken, 'The AccessToken is not valid.');
  const path = url.pathname.slice('/v1'.length) || '/';
  const match = matchRoute(routeTable(), method, path);
  if (match.kind === 'none')
    throw new ApiError(ResponseCode.NotImplemented, `No route ${method} ${url.pathname}.`);
  if (match.kind === 'wrong-method') {
    throw new ApiError(ResponseCode.NotImplemented, `${method} is not implemented on ${url.pathname}.`, {
      httpcode: 405,
      headers: { Allow: match.allowed.join(', ') },
    });
  }
  if (method !== 'GET') {
    const target = `${method} ${url.pathname.slice('/v1'.length)}`;
    state.writes.set(target, (state.writes.get(target) ?? 0) + 1);
  }
  const ctx: ApiContext = {
    store: state.store,
    base: state.base,
    developerUrl: state.developerUrl,
    today: state.today,
    caller,
    method,
    path,
    query: url.searchParams,
    params: match.params,
    body: method === 'POST' || method === 'PUT' ? parseJsonBody(bodyText) : undefined,
  };
  return method === 'GET' ? match.route.handler(ctx) : state.store.tx(() => match.route.handler(ctx));
}

function answerAdmin(
  state: AppState,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  bodyText: string,
): void {
  if (!state.admin) return sendStatus(res, state, ResponseCode.NotImplemented, 'Not found.');
  if (!LOOPBACK.has(req.socket.remoteAddress ?? ''))
    return sendStatus(res, state, ResponseCode.AccessDenied, 'The admin API answers loopback only.');
  const route = `${req.method} ${path}`;
  try {
    if (route === 'GET /__admin/snapshot') return send(res, 200, takeSnapshot(state.store));
    if (route === 'POST /__admin/reset') {
      state.admin.reset();
      return send(res, 200, { ok: true });
    }
    const body = bodyText.trim() ? (JSON.parse(bodyText) as unknown) : {};
    if (route === 'POST /__admin/faults') {
      state.faults.set(body as Partial<FaultSpec>);
      return send(res, 200, { ok: true, faults: state.faults.spec });
    }
    if (route === 'POST /__admin/mutate') {
      const found = applyMutation(state.store, mutationSchema.parse(body));
      return found
        ? send(res, 200, { ok: true })
        : sendStatus(res, state, ResponseCode.NoResults, 'No such record.', 404);
    }
  } catch (err) {
    return sendStatus(
      res,
      state,
      ResponseCode.ValidationFailed,
      err instanceof Error ? err.message.slice(0, 500) : 'Invalid request.',
    );
  }
  sendStatus(res, state, ResponseCode.NotImplemented, `No admin route ${route}.`);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function handleRequest(
  state: AppState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = req.method ?? 'GET';
  const bodyText = await readBody(req);
  if (bodyText === null) {
    res.setHeader('Connection', 'close');
    return sendStatus(res, state, ResponseCode.ValidationFailed, 'The request body is too large.', 413);
  }
  const path = url.pathname;
  if (state.allowedHosts && !state.allowedHosts.has((req.headers.host ?? '').toLowerCase())) {
    return sendStatus(
      res,
      state,
      ResponseCode.AccessDenied,
      'This server answers only under its own loopback address.',
      421,
    );
  }
  if (path === '/__admin' || path.startsWith('/__admin/'))
    return answerAdmin(state, req, res, path, bodyText);
  const code = /^\/developer\/v1\/responsecodes\/(\d+)$/.exec(path);
  if (code && method === 'GET') return answerResponseCode(state, res, Number(code[1]));
  if (path !== '/v1' && !path.startsWith('/v1/'))
    return sendStatus(res, state, ResponseCode.NotImplemented, `No route ${method} ${path}.`);

  const rawToken = req.headers.accesstoken;
  const token = Array.isArray(rawToken) ? rawToken[0] : rawToken;
  const tokenKey = token ?? '';
  const faults = state.faults;
  if (!faults.enter(tokenKey)) {
    const retry = String(faults.spec.retryAfterSeconds);
    return sendStatus(
      res,
      state,
      ResponseCode.TooManyRequests,
      'Too many simultaneous requests for this token.',
      429,
      { 'Retry-After': retry },
    );
  }
  try {
    const latency = faults.spec.latencyMs;
    if (latency > 0) await sleep(latency);
    // the client gave up, or the server is closing, while the request waited
    if (req.socket.destroyed) return;
    const pre = faults.before();
    if (pre === 'drop') return void req.socket.destroy();
    if (pre !== null) {
      return sendStatus(
        res,
        state,
        ResponseCode.ExternalUnavailable,
        pre === 500 ? 'Internal server error (injected fault).' : 'Service unavailable (injected fault).',
        pre,
      );
    }
    let result: ApiResult & { headers?: Record<string, string> };
    try {
      result = answerApi(state, method, url, token, bodyText);
    } catch (err) {
      if (err instanceof ApiError)
        return sendStatus(res, state, err.code, err.message, err.httpcode, err.headers);
      // never a stack trace on the wire; the message goes to the operator's console
      console.error('[reference-server] internal error:', err instanceof Error ? err.message : String(err));
      return sendStatus(res, state, ResponseCode.ExternalUnavailable, 'Internal server error.', 500);
    }
    if (method !== 'GET' && result.status < 300 && faults.loseAnswer()) return void req.socket.destroy();
    send(res, result.status, result.body, result.headers);
  } finally {
    faults.leave(tokenKey);
  }
}

/** A request Node cannot even parse still gets a JSON status body, never HTML. */
export function answerClientError(
  developerUrl: string,
  socket: { writable: boolean; end(data: string): void; destroy(): void },
): void {
  if (!socket.writable) return socket.destroy();
  const body = JSON.stringify(
    statusBody(ResponseCode.ValidationFailed, 'The HTTP request is malformed.', developerUrl, 400),
  );
  const head = [
    'HTTP/1.1 400 Bad Request',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** `moreinfo` points here: a short JSON description of a response code. */
function answerResponseCode(state: AppState, res: ServerResponse, code: number): void {
  const known = (Object.values(ResponseCode) as number[]).includes(code);
  if (!known) return sendStatus(res, state, ResponseCode.NoResults, 'Unknown response code.');
  const body: StatusBody = statusBody(
    code as ResponseCode,
    'Reference description of this response code.',
    state.developerUrl,
  );
  send(res, 200, body);
}
