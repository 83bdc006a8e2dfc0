/**
 * A full sync of dataset `l` through the browser harness in Chromium, as a user
 * starts it ("Try the demo" against the reference server), against its floor:
 * the larger of
 *  - the transfer floor: the sync's own requests (as the handlers made them),
 *    replayed from Node at the same concurrency, bodies read and thrown away;
 *  - the write floor: the same records written into the same Dexie schema in
 *    the same browser (a fresh profile, as the sync had), one transaction per
 *    page of the sizes the sync streamed, with no network (bench/browser/write-floor.ts).
 * Also: requests made vs the plan's count, a resync of unchanged data (rows
 * written and time), and the renderer's JS heap after the full sync.
 */
import { COLLECTIONS } from '../src/shared/records.ts';
import { benchPage, syncObservation } from './browser-lib.ts';
import type { BenchContext, Figure } from './lib.ts';
import { syncFromClick } from './session-lib.ts';
import { atMost, isSyncRequest, pageSizes, ratioFigure, replayAtConcurrency, rowsWrittenFrom, slowestParts } from './sync-lib.ts';
import { DATASET, load, releaseSyncedSession, SYNC_TIMEOUT_MS, syncedSession } from './synced-session-lib.ts';
import { measureWriteFloor, type CollectionPages } from './write-floor-lib.ts';

export const name = 'sync';
export const description = 'full sync of dataset l in Chromium through the harness vs its transfer and write floors; resync; renderer heap';

/** the sync engine's default concurrency, which the app uses */
const CONCURRENCY = 4;
const MB = 1024 * 1024;
const seconds = (ms: number): number => Math.round(ms / 10) / 100;
const count = (n: number): string => n.toLocaleString('en-US');

export async function run(ctx: BenchContext): Promise<Figure[]> {
  try {
    const synced = await syncedSession(ctx);
    const { session, finished, observed, syncRequests } = synced;
    const records = Object.values(finished.collections).reduce((sum, c) => sum + (c?.records ?? 0), 0);

    ctx.log(`transfer floor: replaying the sync's ${syncRequests.length} requests, ${CONCURRENCY} in flight`);
    const headers = { AccessToken: session.server.token, Accept: 'application/json', 'Cache-Control': 'no-cache' };
    const transferMs = await replayAtConcurrency(syncRequests.map((r) => r.url), CONCURRENCY, async (url) => {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
    });

    ctx.log('resync with nothing changed');
    const app = await session.openApp('settings');
    const resync = await syncFromClick(session, app, 'Sync now', 0, SYNC_TIMEOUT_MS);
    const resynced = (await syncObservation(app)).finished[0];
    const rowsWritten = rowsWrittenFrom(resync.statusText);
    await app.close();

    ctx.log('write floor: the same records into a fresh database of the same schema, in a fresh profile, page by page');
    const source = await session.context.newPage();
    await source.goto(session.benchUrl);
    const sourceBench = benchPage(source);
    await sourceBench.ready();
    const counts = await sourceBench.cacheCounts();
    const plan: CollectionPages[] = COLLECTIONS.map((collection) => ({ collection, pageSizes: pageSizes(counts[collection] ?? 0, observed.messages[collection] ?? 0) })).filter((p) => p.pageSizes.length > 0);
    const fresh = await session.freshContext();
    const target = await fresh.newPage();
    await target.goto(session.benchUrl);
    const targetBench = benchPage(target);
    await targetBench.ready();
    const loadBeforeFloor = load();
    const floor = await measureWriteFloor(sourceBench, targetBench, plan);
    const loadAfterFloor = load();
    await fresh.close();
    await source.close();

    const floorMs = Math.max(transferMs, floor.ms);
    const limitedBy = floor.ms >= transferMs ? 'writes' : 'transfer';
    const plannedRequests = finished.plannedRequests;
    return [
      ratioFigure(`full sync, dataset ${DATASET}`, synced.fullSyncMs, floorMs, 1.3,
        `${count(records)} records, ${count(Math.round((records * 1000) / synced.fullSyncMs))}/s; floor = ${limitedBy}; renderer main thread busy ${Math.round(synced.renderer.taskSeconds)} s (script ${Math.round(synced.renderer.scriptSeconds)} s); load average ${synced.loadBefore} -> ${synced.loadAfter}`),
      { name: 'transfer floor', value: seconds(transferMs), unit: 's', note: `${syncRequests.length} requests, ${CONCURRENCY} in flight, bodies read and dropped; ${count(Math.round((records * 1000) / transferMs))} records/s` },
      { name: 'write floor', value: seconds(floor.ms), unit: 's', note: `${count(floor.records)} records in ${floor.pages} page transactions, ${count(Math.round((floor.records * 1000) / floor.ms))}/s; slowest: ${slowestParts(floor.byCollection)}; load average ${loadBeforeFloor} -> ${loadAfterFloor}` },
      {
        name: 'requests made vs the plan', value: syncRequests.length, unit: 'requests', floor: plannedRequests ?? undefined,
        target: '= plan', pass: plannedRequests !== null && syncRequests.length === plannedRequests && finished.requests === syncRequests.length,
        note: `engine counted ${finished.requests}, plan ${plannedRequests ?? 'unknown'}`,
      },
      {
        name: 'resync, nothing changed: rows written', value: rowsWritten ?? -1, unit: 'rows', target: '0', pass: rowsWritten === 0,
        note: `${resynced?.outcome ?? 'no end'}; ${session.requests.slice(resync.requestsFrom, resync.requestsTo).filter(isSyncRequest).length} requests, plan ${resynced?.plannedRequests ?? 'unknown'}`,
      },
      { name: 'resync, nothing changed: time', value: seconds(resync.ms), unit: 's', floor: seconds(transferMs), ratio: Math.round((resync.ms / transferMs) * 100) / 100, note: 'floor: the transfer floor (every page is read again)' },
      atMost('renderer JS heap after a full sync', synced.heap.used / MB, 'MB', 300, `after a forced GC (CDP); heap total ${Math.round(synced.heap.total / MB)} MB`),
    ];
  } finally {
    await releaseSyncedSession(name);
  }
}
