/** Helpers for the server's own tests: a started server and a small HTTP client with a token. */
import { startServer, tokenFor, type RunningServer, type ServerOptions, type TokenInfo } from '../index.ts';

export const TODAY = '2026-06-15';

export interface Answer {
  status: number;
  headers: Headers;
  /** parsed JSON body */
  body: Record<string, unknown>;
}

export interface Client {
  get(path: string): Promise<Answer>;
  post(path: string, body?: unknown): Promise<Answer>;
  put(path: string, body?: unknown): Promise<Answer>;
  del(path: string): Promise<Answer>;
  /** any method, raw body text, optional token override ('' = no header) */
  raw(method: string, path: string, opts?: { body?: string; token?: string }): Promise<Answer>;
}

export function startTestServer(opts: ServerOptions = {}): Promise<RunningServer> {
  return startServer({ dataset: 'tiny', today: TODAY, ...opts });
}

export function clientFor(server: RunningServer, access: TokenInfo['access'] | null = 'full'): Client {
  const defaultToken = access === null ? '' : tokenFor(server, access);
  const raw = async (
    method: string,
    path: string,
    opts: { body?: string; token?: string } = {},
  ): Promise<Answer> => {
    const token = opts.token ?? defaultToken;
    const headers: Record<string, string> = { 'Cache-Control': 'no-cache' };
    if (token) headers.AccessToken = token;
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    const url = path.startsWith('http') ? path : `${server.baseUrl}${path}`;
    const res = await fetch(url, { method, headers, body: opts.body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: JSON.parse(text) as Record<string, unknown> };
  };
  const json = (b: unknown): { body?: string } => (b === undefined ? {} : { body: JSON.stringify(b) });
  return {
    raw,
    get: (path) => raw('GET', path),
    post: (path, b) => raw('POST', path, json(b)),
    put: (path, b) => raw('PUT', path, json(b)),
    del: (path) => raw('DELETE', path),
  };
}

/** The list under `key`, asserting it is an array. */
export function list<T = Record<string, unknown>>(answer: Answer, key: string): T[] {
  const value = answer.body[key];
  if (!Array.isArray(value))
    throw new Error(`expected a list under "${key}", got ${JSON.stringify(answer.body).slice(0, 300)}`);
  return value as T[];
}

/** The first row of a read-only query. */
export function one<T>(server: RunningServer, sql: string, ...params: (string | number)[]): T {
  const rows = server.query<T>(sql, ...params);
  if (!rows.length) throw new Error(`no row for ${sql}`);
  return rows[0]!;
}
