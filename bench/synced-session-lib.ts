/**
 * One full sync of dataset `l` shared by the sync, queries and import benchmarks when
 * they run in the same `npm run bench` (a full sync of `l` takes minutes on two
 * cores: doing it once keeps the whole run short). What only the moment right
 * after the full sync can tell (its time, what it streamed, the renderer's
 * heap, the requests it made) is captured then, before either benchmark goes on.
 *
 * The session closes when the last benchmark that will use it in this run lets
 * go of it: the runner's arguments (`bench/run.ts [NAME...]`) say which will.
 *
 * `FIELDBOOK_BENCH_KEEP=DIR` keeps the synced browser profile (and the harness's
 * port, its origin) in DIR: a later run of `queries` or `import` that finds it
 * opens that cache without syncing again. On a busy machine the full sync of `l`
 * is most of such a run (over 10 minutes at a load average of 20).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { SyncFinishedEvent } from '../src/shared/ipc.ts';
import { heapAfterGc, mainThreadMeter, syncObservation, type SyncObservation } from './browser-lib.ts';
import type { BenchContext } from './lib.ts';
import { startBenchSession, syncFromClick, type BenchSession } from './session-lib.ts';
import { isSyncRequest, type RecordedRequest } from './sync-lib.ts';

/** dataset l by default; FIELDBOOK_BENCH_DATASET=m (or tiny) for a quick try of the benchmarks themselves */
export const DATASET = process.env.FIELDBOOK_BENCH_DATASET ?? 'l';
/** generous: the time is reported, not judged, and a full sync of `l` took over 10 minutes at a load average of 20 */
export const SYNC_TIMEOUT_MS = 30 * 60_000;
const KEEP = process.env.FIELDBOOK_BENCH_KEEP;
/** in a kept folder, written once its full sync completed (dataset named: another dataset's cache is not this one) */
const syncedMark = (dir: string) => path.join(dir, `synced-${DATASET}`);
const USERS = ['history', 'import', 'queries', 'sync'];

export interface SyncedSession {
  session: BenchSession;
  /** click on "Try the demo" to "Sync completed." */
  fullSyncMs: number;
  finished: SyncFinishedEvent;
  observed: SyncObservation;
  /** the sync's own requests (probes left out), in the order made */
  syncRequests: RecordedRequest[];
  heap: { used: number; total: number };
  /** 1-minute load average of the machine when the sync started and when it ended (others' work skews every figure) */
  loadBefore: number;
  loadAfter: number;
  /** seconds the renderer's main thread was busy during the sync, and of those, running script */
  renderer: { taskSeconds: number; scriptSeconds: number };
}

async function fullSync(ctx: BenchContext): Promise<SyncedSession> {
  if (KEEP !== undefined && existsSync(syncedMark(KEEP)))
    throw new Error(
      `${KEEP} holds a synced cache already: a full sync needs an empty folder (FIELDBOOK_BENCH_KEEP)`,
    );
  const session = await startBenchSession(ctx, DATASET, KEEP === undefined ? {} : { keepIn: KEEP });
  try {
    const loadBefore = load();
    ctx.log(
      `full sync of dataset ${DATASET}: "Try the demo" until "Sync completed." (load average ${loadBefore})`,
    );
    const app = await session.openApp('settings');
    const meter = await mainThreadMeter(session.context, app);
    const sync = await syncFromClick(session, app, 'Try the demo', 0, SYNC_TIMEOUT_MS);
    const renderer = await meter.stop();
    const loadAfter = load();
    const observed = await syncObservation(app);
    const finished = observed.finished[0];
    if (!finished || finished.outcome !== 'completed')
      throw new Error(
        `the full sync did not complete: ${finished?.error?.message ?? finished?.outcome ?? 'no end'}`,
      );
    const heap = await heapAfterGc(session.context, app);
    await app.close();
    ctx.log(`full sync done in ${Math.round(sync.ms / 100) / 10} s`);
    if (KEEP !== undefined) await writeFile(syncedMark(KEEP), new Date().toISOString());
    const syncRequests = session.requests.slice(sync.requestsFrom, sync.requestsTo).filter(isSyncRequest);
    return {
      session,
      fullSyncMs: sync.ms,
      finished,
      observed,
      syncRequests,
      heap,
      loadBefore,
      loadAfter,
      renderer,
    };
  } catch (err) {
    await session.close();
    throw err;
  }
}

/** The machine's 1-minute load average, one decimal. */
export function load(): number {
  return Math.round(loadavg()[0]! * 10) / 10;
}

let shared: Promise<SyncedSession> | null = null;
/** the kept cache, opened without a sync (FIELDBOOK_BENCH_KEEP) */
let reopened: Promise<BenchSession> | null = null;
let released = new Set<string>();

function expectedUsers(): string[] {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  return USERS.filter((u) => wanted.length === 0 || wanted.includes(u));
}

/** The shared session with its full sync done (started by the first benchmark to ask). */
export function syncedSession(ctx: BenchContext): Promise<SyncedSession> {
  shared ??= fullSync(ctx);
  return shared;
}

/**
 * A session whose cache holds the full sync of the dataset: the kept one when
 * FIELDBOOK_BENCH_KEEP names a folder a run synced, otherwise the shared sync's.
 */
export function cachedSession(ctx: BenchContext): Promise<BenchSession> {
  if (KEEP === undefined || !existsSync(syncedMark(KEEP))) return syncedSession(ctx).then((s) => s.session);
  if (!reopened) ctx.log(`the cache of dataset ${DATASET} kept in ${KEEP} (no sync)`);
  reopened ??= startBenchSession(ctx, DATASET, { keepIn: KEEP });
  return reopened;
}

/** `bench` is done with the session; the last expected user closes it. */
export async function releaseSyncedSession(bench: string): Promise<void> {
  released.add(bench);
  if (!expectedUsers().every((u) => released.has(u))) return;
  const [synced, kept] = [shared, reopened];
  shared = null;
  reopened = null;
  released = new Set();
  await synced?.then(
    (s) => s.session.close(),
    () => undefined,
  );
  await kept?.then(
    (s) => s.close(),
    () => undefined,
  );
}
