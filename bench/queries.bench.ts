/**
 * Reading the full cache of dataset `l` in Chromium: latency of the view
 * queries (p50 and p95 over 200 runs each, the renderer's own query functions
 * on the benchmark page, same origin as the app), and the cold start to the
 * first rendered users list (a new browser process on the same profile, so the
 * same IndexedDB). The cache is filled first by a real sync through the harness
 * (shared with the sync benchmark: bench/synced-session-lib.ts).
 */
import { benchPage, coldStartsOfUsersList } from './browser-lib.ts';
import { QUERY_NAMES } from './page-api.ts';
import { percentile, type BenchContext, type Figure } from './lib.ts';
import { medianOf, p95ByPrefixLength } from './queries-lib.ts';
import { atMost } from './sync-lib.ts';
import { cachedSession, releaseSyncedSession } from './synced-session-lib.ts';

export const name = 'queries';
export const description =
  'view query latency (p50/p95 over 200 runs) and cold start to the users list, over a full cache of dataset l in Chromium';

const RUNS = 200;
const WARMUP = 5;
/** every view query fits in a frame, with 54 edits pending (issues #11 and #12) */
const P95_TARGET_MS = 16;
const COLD_START_TARGET_MS = 1500;
const COLD_STARTS = 3;

export async function run(ctx: BenchContext): Promise<Figure[]> {
  try {
    const session = await cachedSession(ctx);

    ctx.log(`query latency: ${WARMUP} warm-up and ${RUNS} timed runs of each query`);
    const page = await session.context.newPage();
    await page.goto(session.benchUrl);
    const bench = benchPage(page);
    await bench.ready();
    const counts = await bench.cacheCounts();
    const timings = await bench.queryLatency(RUNS, WARMUP);
    await page.close();
    const figures: Figure[] = [];
    for (const query of QUERY_NAMES) {
      const samples = timings.runs[query];
      const p50 = percentile(samples, 50);
      const p95 = percentile(samples, 95);
      const firstRun = Math.round(timings.first[query] ?? 0);
      figures.push({
        name: `${query}, p50`,
        value: Math.round(p50 * 100) / 100,
        unit: 'ms',
        note: `${samples.length} runs after ${WARMUP} warm-up runs; the first run took ${firstRun} ms`,
      });
      const byPrefix =
        query === 'user search by name prefix' ? `; p95 by prefix: ${p95ByPrefixLength(samples)}` : '';
      figures.push(
        atMost(
          `${query}, p95`,
          p95,
          'ms',
          P95_TARGET_MS,
          `max ${Math.round(Math.max(...samples) * 10) / 10} ms${byPrefix}`,
        ),
      );
    }

    ctx.log(
      `cold start, ${COLD_STARTS} times: a new browser process on the same profile, to the first rendered users list`,
    );
    const runs = await coldStartsOfUsersList(
      () => session.relaunch(),
      `${session.harness.url}#/users`,
      COLD_STARTS,
      60_000,
    );
    const cold = medianOf(runs.firstRow);
    const fromCache = medianOf(runs.cacheRow);
    const cache = `${(counts.users ?? 0).toLocaleString('en-US')} users, ${Object.values(counts)
      .reduce((a, b) => a + (b ?? 0), 0)
      .toLocaleString('en-US')} records cached`;
    figures.push(
      atMost(
        'cold start to the first rendered users list',
        cold.median,
        'ms',
        COLD_START_TARGET_MS,
        `from navigation start, new browser process each time, after one visit not counted, ${cold.note} (the screen kept from the last visit); ${cache}`,
      ),
    );
    figures.push({
      name: "cold start to the cache's own first users rows",
      value: Math.round(fromCache.median),
      unit: 'ms',
      note: fromCache.note,
    });
    return figures;
  } finally {
    await releaseSyncedSession(name);
  }
}
