/**
 * The scale benchmark's session: the reference server serving its dataset from
 * a SQLite file generated once into a cache folder and reused (`xl` takes about
 * a minute to generate and 748 MB), the server's data read straight from that
 * file (what the cache is compared with), the app's sync started from its own
 * button and timed, and the transfer floor of a sync's own requests.
 */
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { Page } from '@playwright/test';
import type { SyncFinishedEvent } from '../src/shared/ipc.ts';
import { OUR_CUSTOMER } from '../src/server/datasets.ts';
import { serverTables } from '../src/server/testing/tables.ts';
import { mainThreadMeter, syncObservation, type SyncObservation } from './browser-lib.ts';
import { cpuDelta, cpuSeconds, describeCpu, roundCpu } from './cpu-lib.ts';
import type { BenchContext } from './lib.ts';
import { startBenchSession, syncFromClick, type BenchSession } from './session-lib.ts';
import {
  isSyncRequest,
  replayAtConcurrency,
  requestTimeline,
  type RecordedRequest,
  type RequestTimeline,
} from './sync-lib.ts';
import { load } from './synced-session-lib.ts';

/** `xl` by default; FIELDBOOK_SCALE_DATASET=multi (6 sites, 1,200 people) to try the benchmark itself in a minute */
export const SCALE_DATASET = process.env.FIELDBOOK_SCALE_DATASET ?? 'xl';
/** the sync engine's default concurrency, which the app uses */
export const CONCURRENCY = 4;

/**
 * The dataset's SQLite file in the benchmarks' cache folder (FIELDBOOK_BENCH_CACHE, default ~/.cache/fieldbook-bench).
 */
export function datasetFile(dataset: string): string {
  const dir = process.env.FIELDBOOK_BENCH_CACHE ?? path.join(os.homedir(), '.cache', 'fieldbook-bench');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${dataset}.sqlite`);
}

export interface Site {
  siteid: number;
  sitename: string;
  people: number;
}

/** The server's data, read from its file (read-only, beside the running server). */
export interface ServerData {
  sites: Site[];
  /** per collection, the keys of the records the server holds for these sites (as the cache keys them) */
  keysOf(siteids: readonly number[]): Record<string, Set<string>>;
  close(): void;
}

export function openServerData(file: string): ServerData {
  const db = new DatabaseSync(file, { readOnly: true });
  const query = <T>(sql: string, ...params: SQLInputValue[]): T[] => db.prepare(sql).all(...params) as T[];
  const sites = query<Site>(
    'SELECT s.siteid, s.sitename, (SELECT COUNT(*) FROM users u WHERE u.siteid = s.siteid) AS people FROM sites s WHERE s.customerid = ? ORDER BY s.siteid',
    OUR_CUSTOMER,
  );
  return {
    sites,
    keysOf(siteids) {
      const tables = serverTables({ query }, siteids);
      return Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, new Set(rows.keys())]));
    },
    close: () => db.close(),
  };
}

export interface ScaleSession {
  session: BenchSession;
  data: ServerData;
  close(): Promise<void>;
}

/** `keepIn`: a work folder kept after the session and reused by the next (bench/session-lib.ts) */
export async function startScaleSession(ctx: BenchContext, keepIn?: string): Promise<ScaleSession> {
  const file = datasetFile(SCALE_DATASET);
  const session = await startBenchSession(ctx, SCALE_DATASET, {
    dbPath: file,
    ...(keepIn === undefined ? {} : { keepIn }),
  });
  try {
    const data = openServerData(file);
    return {
      session,
      data,
      async close() {
        data.close();
        await session.close();
      },
    };
  } catch (err) {
    await session.close();
    throw err;
  }
}

export interface TimedSync {
  ms: number;
  finished: SyncFinishedEvent;
  observed: SyncObservation;
  /** the sync's own requests (probes and anything outside its click-to-done left out) */
  requests: RecordedRequest[];
  /** bytes of their answers */
  bytes: number;
  statusText: string;
  loadBefore: number;
  loadAfter: number;
  /** renderer main thread busy, script, and CPU seconds by process, for the note */
  detail: string;
  /** where the time went around the requests */
  timeline: RequestTimeline;
}

/**
 * Clicks `button` on the app page and times the sync it starts, from the click
 * to the outcome line, as sync.bench.ts does; with the requests, their bytes
 * and where the CPU went.
 */
export async function timeSync(
  session: BenchSession,
  app: Page,
  button: string,
  timeoutMs: number,
): Promise<TimedSync> {
  const loadBefore = load();
  const meter = await mainThreadMeter(session.context, app);
  const cpuBefore = cpuSeconds(session.server.pid);
  const sync = await syncFromClick(session, app, button, 0, timeoutMs);
  const cpu = roundCpu(cpuDelta(cpuBefore, cpuSeconds(session.server.pid)));
  const renderer = await meter.stop();
  const loadAfter = load();
  const observed = await syncObservation(app);
  const finished = observed.finished[0];
  if (!finished || finished.outcome !== 'completed')
    throw new Error(
      `the sync did not complete: ${finished?.error?.message ?? finished?.outcome ?? 'no end'}`,
    );
  const done = sync.startedAt + sync.ms;
  // the Settings view asks for the list of sites when a sync ends: not the sync's
  const requests = session.requests
    .slice(sync.requestsFrom, sync.requestsTo)
    .filter((r) => isSyncRequest(r) && (r.at ?? 0) <= done);
  const bytes = requests.reduce((n, r) => n + (r.bytes ?? 0), 0);
  const busy = Math.round(renderer.taskSeconds * 10) / 10;
  const script = Math.round(renderer.scriptSeconds * 10) / 10;
  const detail = `renderer main thread busy ${busy} s (script ${script} s); CPU s by process: ${describeCpu(cpu)}`;
  const timeline = requestTimeline(sync.startedAt, done, requests, CONCURRENCY);
  return {
    ms: sync.ms,
    finished,
    observed,
    requests,
    bytes,
    statusText: sync.statusText,
    loadBefore,
    loadAfter,
    detail,
    timeline,
  };
}

/**
 * The sync's own requests again from Node, at the app's concurrency, bodies read and dropped: milliseconds and bytes.
 */
export async function transferFloor(
  session: BenchSession,
  requests: readonly RecordedRequest[],
): Promise<{ ms: number; bytes: number; load: number }> {
  const headers = {
    AccessToken: session.server.token,
    Accept: 'application/json',
    'Cache-Control': 'no-cache',
  };
  let bytes = 0;
  const ms = await replayAtConcurrency(
    requests.map((r) => r.url),
    CONCURRENCY,
    async (url) => {
      const res = await fetch(url, { headers });
      bytes += (await res.arrayBuffer()).byteLength;
    },
  );
  return { ms, bytes, load: load() };
}

/** Bytes of the files under a folder (the browser profile's IndexedDB). */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}
