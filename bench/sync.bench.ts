/**
 * A full sync of dataset `l` through the browser harness in Chromium, as a user
 * starts it ("Try the demo" against the reference server), against its floor:
 * the larger of
 *  - the transfer floor: the sync's own requests (as the handlers made them),
 *    replayed from Node at the same concurrency, bodies read and thrown away;
 *  - the write floor: the same records written into the same Dexie schema in
 *    the same browser, one transaction per page of the sizes the sync streamed,
 *    with no network (bench/browser/write-floor.ts).
 * Also: requests made vs the plan's count, a resync of unchanged data (rows
 * written and time), and the renderer's JS heap after the full sync.
 */
import { benchPage, heapAfterGc, syncObservation, type CollectionPages } from './browser-lib.ts';
import type { BenchContext, Figure } from './lib.ts';
import { startBenchSession, syncFromClick } from './session-lib.ts';
import { atMost, isSyncRequest, pageSizes, ratioFigure, replayAtConcurrency, rowsWrittenFrom } from './sync-lib.ts';
import { COLLECTIONS } from '../src/shared/records.ts';

export const name = 'sync';
export const description = 'full sync of dataset l in Chromium through the harness vs its transfer and write floors; resync; renderer heap';

/** dataset l by default; FIELDBOOK_BENCH_DATASET=m (or tiny) for a quick try of the benchmark itself */
const DATASET = process.env.FIELDBOOK_BENCH_DATASET ?? 'l';
/** the sync engine's default concurrency, which the app uses */
const CONCURRENCY = 4;
const SYNC_TIMEOUT_MS = 8 * 60_000;
const MB = 1024 * 1024;

export async function run(ctx: BenchContext): Promise<Figure[]> {
  const session = await startBenchSession(ctx, DATASET);
  try {
    ctx.log('full sync: "Try the demo" until "Sync completed."');
    const full = await syncFromClick(session, 'Try the demo', 0, SYNC_TIMEOUT_MS);
    const observed = await syncObservation(session.app);
    const finished = observed.finished[0];
    if (!finished || finished.outcome !== 'completed') throw new Error(`the full sync did not complete: ${finished?.error?.message ?? finished?.outcome ?? 'no end'}`);
    const records = Object.values(finished.collections).reduce((sum, c) => sum + (c?.records ?? 0), 0);

    const heap = await heapAfterGc(session.context, session.app);

    const syncRequests = session.requests.slice(full.requestsFrom, full.requestsTo).filter(isSyncRequest);
    ctx.log(`transfer floor: replaying the sync's ${syncRequests.length} requests, ${CONCURRENCY} in flight`);
    const headers = { AccessToken: session.server.token, Accept: 'application/json', 'Cache-Control': 'no-cache' };
    const transferMs = await replayAtConcurrency(syncRequests.map((r) => r.url), CONCURRENCY, async (url) => {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
    });

    ctx.log('resync with nothing changed');
    const resync = await syncFromClick(session, 'Sync now', 1, SYNC_TIMEOUT_MS);
    const resynced = (await syncObservation(session.app)).finished[1];
    const rowsWritten = rowsWrittenFrom(resync.statusText);
    await session.app.close();

    ctx.log('write floor: the same records into a fresh database of the same schema, page by page');
    const page = await session.context.newPage();
    await page.goto(session.benchUrl);
    const bench = benchPage(page);
    await bench.ready();
    const counts = await bench.cacheCounts();
    const plan: CollectionPages[] = COLLECTIONS.map((collection) => ({ collection, pageSizes: pageSizes(counts[collection] ?? 0, observed.messages[collection] ?? 0) })).filter((p) => p.pageSizes.length > 0);
    const floor = await bench.writeFloor(plan);
    await page.close();

    const transferRate = Math.round((records * 1000) / transferMs);
    const writeRate = Math.round((floor.records * 1000) / floor.ms);
    const floorMs = Math.max(transferMs, floor.ms);
    const limitedBy = floor.ms >= transferMs ? 'writes' : 'transfer';
    return [
      ratioFigure(`full sync, dataset ${DATASET}`, full.ms, floorMs, 1.3, `${records.toLocaleString('en-US')} records; floor = ${limitedBy}; ${Math.round((records * 1000) / full.ms).toLocaleString('en-US')} records/s`),
      { name: 'transfer floor', value: Math.round(transferMs / 10) / 100, unit: 's', note: `${syncRequests.length} requests, ${CONCURRENCY} in flight, bodies read and dropped; ${transferRate.toLocaleString('en-US')} records/s` },
      { name: 'write floor', value: Math.round(floor.ms / 10) / 100, unit: 's', note: `${floor.records.toLocaleString('en-US')} records in ${floor.pages} page transactions; ${writeRate.toLocaleString('en-US')} records/s` },
      {
        name: 'requests made vs the plan', value: syncRequests.length, unit: 'requests', floor: finished.plannedRequests ?? undefined,
        target: '= plan', pass: finished.plannedRequests !== null && syncRequests.length === finished.plannedRequests && finished.requests === syncRequests.length,
        note: `engine counted ${finished.requests}, plan ${finished.plannedRequests ?? 'unknown'}`,
      },
      {
        name: 'resync, nothing changed: rows written', value: rowsWritten ?? -1, unit: 'rows', target: '0', pass: rowsWritten === 0,
        note: `${resynced?.outcome ?? 'no end'}; ${resync.requestsTo - resync.requestsFrom} requests`,
      },
      { name: 'resync, nothing changed: time', value: Math.round(resync.ms / 10) / 100, unit: 's', floor: Math.round(transferMs / 10) / 100, ratio: Math.round((resync.ms / transferMs) * 100) / 100, note: 'floor: the transfer floor (every page is read again)' },
      atMost('renderer JS heap after a full sync', heap.used / MB, 'MB', 300, `after a forced GC (CDP); heap total ${Math.round(heap.total / MB)} MB`),
    ];
  } finally {
    await session.close();
  }
}
