/**
 * The reference Data API v1 server: `startServer` runs it in-process on
 * loopback (the app's "Try the demo", the tests and the benchmarks all use
 * it). No module-level side effects: nothing happens until it is called.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { todayIso } from '../shared/dates.ts';
import { takeSnapshot, type Snapshot, applyMutation, type Mutation } from './admin.ts';
import { answerClientError, handleRequest, type AppState } from './app.ts';
import type { DatasetName } from './datasets.ts';
import { FaultInjector, type FaultSpec } from './faults.ts';
import { generateDataset, type GenerateOptions } from './generate.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { Store, type SqlValue } from './store.ts';
import { callerOf, deriveTokens, randomTokens, type TokenInfo } from './tokens.ts';

export type { DatasetName } from './datasets.ts';
export type { FaultSpec } from './faults.ts';
export type { TokenInfo } from './tokens.ts';
export type { Snapshot, Mutation } from './admin.ts';

export interface ServerOptions {
  host?: string;
  port?: number;
  dataset?: DatasetName;
  seed?: number;
  dbPath?: string;
  faults?: Partial<FaultSpec>;
  admin?: boolean;
  hostile?: boolean;
  /** YYYY-MM-DD, default real today */
  today?: string;
  /**
   * 'derived' (default: stable across restarts, for tests and scripts) or 'random' (new at every start: the app's demo)
   */
  tokens?: 'derived' | 'random';
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

export interface RunningServer {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  port: number;
  tokens: TokenInfo[];
  dataset: DatasetName;
  /** the `today` the data was generated around */
  today: string;
  setFaults(f: Partial<FaultSpec>): void;
  faults(): FaultSpec;
  /** the state replay tests compare against (same as GET /__admin/snapshot) */
  snapshot(): Snapshot;
  /** change a record behind the client's back (same as POST /__admin/mutate); false if not found */
  mutate(m: Mutation): boolean;
  /** regenerate the dataset (same as POST /__admin/reset) */
  reset(): void;
  /** writes that reached a route handler, per "METHOD /path" (after /v1), whatever they answered */
  writeCounts(): Map<string, number>;
  /** read-only SQL for tests: SELECT or WITH statements only */
  query<T = Record<string, unknown>>(sql: string, ...params: SqlValue[]): T[];
  close(): Promise<void>;
}

/** Generates the dataset unless the file already holds this very dataset (then its data, with all edits, is kept). */
function ensureData(store: Store, gen: GenerateOptions): string {
  const same =
    store.getMeta('schema') === SCHEMA_VERSION &&
    store.getMeta('dataset') === gen.dataset &&
    store.getMeta('seed') === String(gen.seed) &&
    store.getMeta('hostile') === String(gen.hostile);
  if (!same) generateDataset(store, gen);
  return store.getMeta('today') ?? gen.today;
}

export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const gen: GenerateOptions = {
    dataset: opts.dataset ?? 'demo',
    seed: opts.seed ?? 1,
    hostile: opts.hostile ?? false,
    today: opts.today ?? todayIso(),
  };
  const store = new Store(opts.dbPath ?? ':memory:');
  const today = ensureData(store, gen);
  const tokens = opts.tokens === 'random' ? randomTokens() : deriveTokens(gen.dataset, gen.seed);
  const faults = new FaultInjector(opts.faults);
  const reset = (): void => generateDataset(store, { ...gen, today });
  const state: AppState = {
    store,
    base: '',
    developerUrl: '',
    today,
    faults,
    tokens: new Map(tokens.map((t) => [t.token, callerOf(t)])),
    admin: opts.admin ? { reset } : null,
    allowedHosts: null,
    writes: new Map(),
  };
  const server: Server = createServer((req, res) => {
    handleRequest(state, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(
        '{"httpcode":500,"statuscode":1006,"status":"external system unavailable","developermessage":"Internal server error.","moreinfo":""}',
      );
    });
  });
  server.on('clientError', (_err, socket) => answerClientError(state.developerUrl, socket));
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const origin = `http://${urlHost}:${port}`;
  state.base = `${origin}/v1`;
  // bound to loopback: answer only under this machine's own names (a rebound DNS name gets 421)
  if (LOOPBACK_HOSTS.has(host))
    state.allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  state.developerUrl = `${origin}/developer`;
  let closed: Promise<void> | null = null;
  return {
    baseUrl: state.base,
    port,
    tokens,
    dataset: gen.dataset,
    today,
    setFaults: (f) => faults.set(f),
    faults: () => faults.spec,
    snapshot: () => takeSnapshot(store),
    mutate: (m) => applyMutation(store, m),
    reset,
    writeCounts: () => new Map(state.writes),
    query<T>(sql: string, ...params: SqlValue[]): T[] {
      if (!/^\s*(SELECT|WITH)\b/i.test(sql)) throw new Error('query() runs SELECT statements only');
      return store.all<T>(sql, ...params);
    },
    close(): Promise<void> {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => {
          store.close();
          resolve();
        });
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/** The token of an access level (throws if the server has none). */
export function tokenFor(server: RunningServer, access: TokenInfo['access']): string {
  const info = server.tokens.find((t) => t.access === access);
  if (!info) throw new Error(`No ${access} token`);
  return info.token;
}
