/**
 * The scale benchmark's all-sites part: a profile keeping every site ("Try the
 * demo" against the bench's server starts the full sync, as in sync.bench.ts),
 * against its write floor (the same records into a fresh database of the same
 * schema, page by page: bench/write-floor-lib.ts); then the renderer's heap,
 * the view queries (the queries benchmark's set), the cold start to the first
 * users list and the cache's size on disk.
 */
import path from 'node:path';
import { COLLECTIONS } from '../src/shared/records.ts';
import {
  benchPage,
  cacheUsersRowAt,
  coldStartsOfUsersList,
  firstUsersRowAt,
  heapAfterGc,
  STAMP_FIRST_USERS_ROW,
} from './browser-lib.ts';
import { describeIdbNotes, RECORD_IDB_REQUESTS, type IdbRequestNote } from './idb-timeline.ts';
import { QUERY_NAMES } from './page-api.ts';
import { percentile, type BenchContext, type Figure } from './lib.ts';
import { medianOf } from './queries-lib.ts';
import { megabytes, PART_PREFIX } from './scale-lib.ts';
import { folderBytes, timeSync, type ScaleSession, type TimedSync } from './scale-session.ts';
import { atMost, pageSizes, ratioFigure, slowestParts } from './sync-lib.ts';
import { load } from './synced-session-lib.ts';
import { measureWriteFloor, type CollectionPages } from './write-floor-lib.ts';

/** A full sync of `xl` may take most of an hour on two shared cores */
const FULL_SYNC_TIMEOUT_MS = 120 * 60_000;
const P = PART_PREFIX.all;
const MB = 1024 * 1024;
const count = (n: number): string => n.toLocaleString('en-US');
const seconds = (ms: number): number => Math.round(ms / 10) / 100;

async function fullSync(
  ctx: BenchContext,
  s: ScaleSession,
): Promise<TimedSync & { heap: { used: number; total: number } }> {
  ctx.log(
    `${P}: "Try the demo" (every site of ${s.data.sites.length}) until "Sync completed." (load average ${load()})`,
  );
  const app = await s.session.openApp('settings');
  try {
    const timed = await timeSync(s.session, app, 'Try the demo', FULL_SYNC_TIMEOUT_MS);
    const heap = await heapAfterGc(s.session.context, app);
    return { ...timed, heap };
  } finally {
    await app.close();
  }
}

async function queryFigures(
  ctx: BenchContext,
  s: ScaleSession,
  P: string,
): Promise<{ figures: Figure[]; counts: Partial<Record<string, number>> }> {
  ctx.log(`${P}: view queries, 5 warm-up and 200 timed runs each`);
  const page = await s.session.context.newPage();
  try {
    await page.goto(s.session.benchUrl);
    const bench = benchPage(page);
    await bench.ready();
    const counts = await bench.cacheCounts();
    const loadBefore = load();
    const timings = await bench.queryLatency(200, 5);
    const note = `load average ${loadBefore} -> ${load()}`;
    const tenths = (ms: number) => Math.round(ms * 10) / 10;
    const figures = QUERY_NAMES.map((q) => {
      const p50 = tenths(percentile(timings.runs[q], 50));
      const max = tenths(Math.max(...timings.runs[q]));
      const firstRun = Math.round(timings.first[q] ?? 0);
      const detail = `p50 ${p50} ms, max ${max} ms, first run ${firstRun} ms; ${note}`;
      return atMost(`${P}: ${q}, p95`, percentile(timings.runs[q], 95), 'ms', 16, detail);
    });
    return { figures, counts };
  } finally {
    await page.close();
  }
}

async function coldStart(ctx: BenchContext, s: ScaleSession, P: string): Promise<Figure[]> {
  ctx.log(
    `${P}: cold start, 3 times: a new browser process on the same profile, to the first rendered users list`,
  );
  const loadBefore = load();
  const runs = await coldStartsOfUsersList(
    () => s.session.relaunch(),
    `${s.session.harness.url}#/users`,
    3,
    120_000,
  );
  const first = medianOf(runs.firstRow);
  const cache = medianOf(runs.cacheRow);
  if (process.env.FIELDBOOK_SCALE_IDB === '1') await coldStartIdbNotes(ctx, s);
  const loadAfter = load();
  const note = `from navigation start, a new browser process each time, after one visit not counted; load average ${loadBefore} -> ${loadAfter}`;
  return [
    atMost(
      `${P}: cold start to the first rendered users list`,
      first.median,
      'ms',
      1500,
      `${first.note}; the screen kept from the last visit (db/first-screen-kept.ts), ${note}`,
    ),
    {
      name: `${P}: cold start to the cache's own first users rows`,
      value: Math.round(cache.median),
      unit: 'ms',
      note: `${cache.note}; the kept screen replaced by the database's rows once Chromium has opened it`,
    },
  ];
}

/**
 * One more cold start (not counted), saying what it asked of IndexedDB and how long each answer took
 * (FIELDBOOK_SCALE_IDB=1).
 */
async function coldStartIdbNotes(ctx: BenchContext, s: ScaleSession): Promise<void> {
  const context = await s.session.relaunch();
  const app = await context.newPage();
  await app.addInitScript(STAMP_FIRST_USERS_ROW);
  await app.addInitScript(RECORD_IDB_REQUESTS);
  await app.goto(`${s.session.harness.url}#/users`);
  const kept = await firstUsersRowAt(app, 120_000);
  const first = await cacheUsersRowAt(app, 120_000);
  const notes = await app.evaluate<IdbRequestNote[]>('window.__idbNotes');
  const keptAt = Math.round(kept);
  const cacheAt = Math.round(first);
  ctx.log(
    `cold start with IndexedDB noted: first users row at ${keptAt} ms (kept screen), the cache's own at ${cacheAt} ms; ${notes.length} requests, the longest waits:`,
  );
  for (const line of describeIdbNotes(notes.filter((n) => n.at < first))) ctx.log(`  ${line}`);
  await app.close();
}

/** The cache's records into a fresh database of the same schema, in a fresh profile, in the sync's page sizes. */
export async function writeFloor(
  ctx: BenchContext,
  s: ScaleSession,
  sync: TimedSync,
  counts: Partial<Record<string, number>>,
) {
  ctx.log(
    `write floor: the same records into a fresh database of the same schema, in a fresh profile, page by page`,
  );
  const source = await s.session.context.newPage();
  const fresh = await s.session.freshContext();
  try {
    await source.goto(s.session.benchUrl);
    const sourceBench = benchPage(source);
    await sourceBench.ready();
    const plan: CollectionPages[] = COLLECTIONS.map((collection) => ({
      collection,
      pageSizes: pageSizes(counts[collection] ?? 0, sync.observed.messages[collection] ?? 0),
    })).filter((p) => p.pageSizes.length > 0);
    const target = await fresh.newPage();
    await target.goto(s.session.benchUrl);
    const targetBench = benchPage(target);
    await targetBench.ready();
    const loadBefore = load();
    const floor = await measureWriteFloor(sourceBench, targetBench, plan);
    return { ...floor, loadBefore, loadAfter: load() };
  } finally {
    await fresh.close();
    await source.close();
  }
}

/** The view queries, the cold start and the cache's size on disk: what the views of a synced cache cost. */
async function viewFigures(
  ctx: BenchContext,
  s: ScaleSession,
  prefix: string,
  add: (...list: Figure[]) => void,
) {
  const queries = await queryFigures(ctx, s, prefix);
  add(...queries.figures, ...(await coldStart(ctx, s, prefix)));
  const idb = folderBytes(path.join(s.session.userDataDir, 'Default', 'IndexedDB'));
  const cached = Object.values(queries.counts).reduce((a: number, b) => a + (b ?? 0), 0);
  const onDisk = megabytes(idb);
  const cachedCount = count(cached);
  add({
    name: `${prefix}: cache on disk per record`,
    value: Math.round(idb / Math.max(1, cached)),
    unit: 'bytes',
    note: `${onDisk} MB under the profile's IndexedDB folder for ${cachedCount} records, after 3 cold starts (LevelDB compacted what it would)`,
  });
  return queries;
}

function adder(ctx: BenchContext, figures: Figure[]) {
  return (...list: Figure[]) => {
    for (const f of list)
      ctx.log(`figure: ${f.name} = ${f.value} ${f.unit}${f.ratio === undefined ? '' : ` (${f.ratio}x)`}`);
    figures.push(...list);
  };
}

/**
 * Part `views`: the view queries, the cold start and the size on disk again, on
 * the cache a run of part `all` kept (FIELDBOOK_SCALE_KEEP): what a change to the
 * views costs at this size, measured without syncing 7 million records again.
 */
export async function runViewsAgain(ctx: BenchContext, s: ScaleSession, figures: Figure[]): Promise<void> {
  await viewFigures(ctx, s, PART_PREFIX.views, adder(ctx, figures));
}

/**
 * The part's figures go into `figures` as they are measured (a long run that
 * fails late keeps what it measured); resolves with the all-sites plan's bytes
 * as the full sync read them.
 */
export async function runAllSites(ctx: BenchContext, s: ScaleSession, figures: Figure[]): Promise<number> {
  const add = adder(ctx, figures);
  const sync = await fullSync(ctx, s);
  const records = Object.values(sync.finished.collections).reduce((n, c) => n + (c?.records ?? 0), 0);
  const took = seconds(sync.ms);
  const recordCount = count(records);
  const size = megabytes(sync.bytes);
  const requests = sync.requests.length;
  ctx.log(
    `${P}: full sync done in ${took} s, ${recordCount} records, ${requests} requests, ${size} MB; ${sync.detail}`,
  );
  const rate = count(Math.round((records * 1000) / sync.ms));
  const planned = sync.finished.plannedRequests ?? 'unknown';
  add(
    {
      name: `${P}: full sync`,
      value: seconds(sync.ms),
      unit: 's',
      note: `${recordCount} records of ${s.data.sites.length} sites, ${rate}/s, ${requests} requests (plan ${planned}), ${size} MB; ${sync.detail}; load average ${sync.loadBefore} -> ${sync.loadAfter}`,
    },
    atMost(
      `${P}: renderer JS heap after the full sync`,
      sync.heap.used / MB,
      'MB',
      300,
      `after a forced GC (CDP); heap total ${Math.round(sync.heap.total / MB)} MB`,
    ),
  );
  const queries = await viewFigures(ctx, s, P, add);
  const floor = await writeFloor(ctx, s, sync, queries.counts);
  const floorRecords = count(floor.records);
  const floorRate = count(Math.round((floor.records * 1000) / floor.ms));
  const slowest = slowestParts(floor.byCollection);
  const floorNote = `write floor: ${floorRecords} records in ${floor.pages} page transactions, ${floorRate}/s; slowest: ${slowest}; load average ${floor.loadBefore} -> ${floor.loadAfter}`;
  add(ratioFigure(`${P}: full sync vs its write floor`, sync.ms, floor.ms, 1.2, floorNote));
  return sync.bytes;
}
