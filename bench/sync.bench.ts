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
import { syncFromClick, type BenchSession } from './session-lib.ts';
import { atMost, isSyncRequest, pageSizes, ratioFigure, replayAtConcurrency, rowsWrittenFrom, slowestParts } from './sync-lib.ts';
import { DATASET, load, releaseSyncedSession, SYNC_TIMEOUT_MS, syncedSession, type SyncedSession } from './synced-session-lib.ts';
import { measureWriteFloor, type CollectionPages } from './write-floor-lib.ts';

export const name = 'sync';
export const description = 'full sync of dataset l in Chromium through the harness vs its transfer and write floors; resync; renderer heap';

/** the sync engine's default concurrency, which the app uses */
const CONCURRENCY = 4;
const MB = 1024 * 1024;
const seconds = (ms: number): number => Math.round(ms / 10) / 100;
const count = (n: number): string => n.toLocaleString('en-US');

/** The sync's own requests again from Node, same concurrency, bodies read and dropped. */
async function transferFloor(ctx: BenchContext, synced: SyncedSession): Promise<number> {
  ctx.log(`transfer floor: replaying the sync's ${synced.syncRequests.length} requests, ${CONCURRENCY} in flight`);
  const headers = { AccessToken: synced.session.server.token, Accept: 'application/json', 'Cache-Control': 'no-cache' };
  return replayAtConcurrency(synced.syncRequests.map((r) => r.url), CONCURRENCY, async (url) => {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
  });
}

/** "Sync now" on the settings screen with nothing changed on the server. */
async function resyncUnchanged(ctx: BenchContext, session: BenchSession) {
  ctx.log('resync with nothing changed');
  const app = await session.openApp('settings');
  const resync = await syncFromClick(session, app, 'Sync now', 0, SYNC_TIMEOUT_MS);
  const finished = (await syncObservation(app)).finished[0];
  await app.close();
  const requests = session.requests.slice(resync.requestsFrom, resync.requestsTo).filter(isSyncRequest).length;
  return { ms: resync.ms, rowsWritten: rowsWrittenFrom(resync.statusText), finished, requests };
}

/** The cache's records, in the sync's page sizes, into a fresh database in a fresh profile (bench/write-floor-lib.ts). */
async function writeFloor(ctx: BenchContext, synced: SyncedSession) {
  ctx.log('write floor: the same records into a fresh database of the same schema, in a fresh profile, page by page');
  const { session, observed } = synced;
  const source = await session.context.newPage();
  await source.goto(session.benchUrl);
  const sourceBench = benchPage(source);
  await sourceBench.ready();
  const counts = await sourceBench.cacheCounts();
  const plan: CollectionPages[] = COLLECTIONS.map((collection) => ({ collection, pageSizes: pageSizes(counts[collection] ?? 0, observed.messages[collection] ?? 0) })).filter((p) => p.pageSizes.length > 0);
  const fresh = await session.freshContext();
  try {
    const target = await fresh.newPage();
    await target.goto(session.benchUrl);
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

export async function run(ctx: BenchContext): Promise<Figure[]> {
  try {
    const synced = await syncedSession(ctx);
    const { finished } = synced;
    const records = Object.values(finished.collections).reduce((sum, c) => sum + (c?.records ?? 0), 0);
    const transferMs = await transferFloor(ctx, synced);
    const resync = await resyncUnchanged(ctx, synced.session);
    const floor = await writeFloor(ctx, synced);

    const floorMs = Math.max(transferMs, floor.ms);
    const limitedBy = floor.ms >= transferMs ? 'writes' : 'transfer';
    const planned = finished.plannedRequests;
    const made = synced.syncRequests.length;
    return [
      ratioFigure(`full sync, dataset ${DATASET}`, synced.fullSyncMs, floorMs, 1.3,
        `${count(records)} records, ${count(Math.round((records * 1000) / synced.fullSyncMs))}/s; floor = ${limitedBy}; renderer main thread busy ${Math.round(synced.renderer.taskSeconds)} s (script ${Math.round(synced.renderer.scriptSeconds)} s); load average ${synced.loadBefore} -> ${synced.loadAfter}`),
      { name: 'transfer floor', value: seconds(transferMs), unit: 's', note: `${made} requests, ${CONCURRENCY} in flight, bodies read and dropped; ${count(Math.round((records * 1000) / transferMs))} records/s` },
      { name: 'write floor', value: seconds(floor.ms), unit: 's', note: `${count(floor.records)} records in ${floor.pages} page transactions, ${count(Math.round((floor.records * 1000) / floor.ms))}/s; slowest: ${slowestParts(floor.byCollection)}; load average ${floor.loadBefore} -> ${floor.loadAfter}` },
      {
        name: 'requests made vs the plan', value: made, unit: 'requests', floor: planned ?? undefined,
        target: '= plan', pass: planned !== null && made === planned && finished.requests === made,
        note: `engine counted ${finished.requests}, plan ${planned ?? 'unknown'}`,
      },
      {
        name: 'resync, nothing changed: rows written', value: resync.rowsWritten ?? -1, unit: 'rows', target: '0', pass: resync.rowsWritten === 0,
        note: `${resync.finished?.outcome ?? 'no end'}; ${resync.requests} requests, plan ${resync.finished?.plannedRequests ?? 'unknown'}`,
      },
      { name: 'resync, nothing changed: time', value: seconds(resync.ms), unit: 's', floor: seconds(transferMs), ratio: Math.round((resync.ms / transferMs) * 100) / 100, note: 'floor: the transfer floor (every page is read again)' },
      atMost('renderer JS heap after a full sync', synced.heap.used / MB, 'MB', 300, `after a forced GC (CDP); heap total ${Math.round(synced.heap.total / MB)} MB`),
    ];
  } finally {
    await releaseSyncedSession(name);
  }
}
