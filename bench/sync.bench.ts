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
import { benchPage, mainThreadMeter, syncObservation } from './browser-lib.ts';
import { chromiumSeconds, cpuDelta, cpuSeconds, describeCpu, roundCpu, waitUntilQuiet } from './cpu-lib.ts';
import type { BenchContext, Figure } from './lib.ts';
import { syncFromClick, type BenchSession } from './session-lib.ts';
import {
  atMost,
  isSyncRequest,
  medianRound,
  pageSizes,
  ratioFigure,
  replayAtConcurrency,
  rowsWrittenFrom,
  slowestParts,
} from './sync-lib.ts';
import {
  DATASET,
  load,
  releaseSyncedSession,
  SYNC_TIMEOUT_MS,
  syncedSession,
  type SyncedSession,
} from './synced-session-lib.ts';
import { measureWriteFloor, type CollectionPages } from './write-floor-lib.ts';

export const name = 'sync';
export const description =
  'full sync of dataset l in Chromium through the harness vs its transfer and write floors; resync; renderer heap';

/**
 * Figures only the whole run makes (resyncs, the keys-only floor): kept from the last whole run when
 * `FIELDBOOK_SYNC_PARTS=full`.
 */
export function keepsEarlier(entry: { bench: string; name?: unknown }): boolean {
  const figure = typeof entry.name === 'string' ? entry.name : '';
  return (
    FULL_ONLY &&
    (figure.startsWith('resync') ||
      figure.startsWith('transfer floor, ') ||
      figure === 'write floor vs keys-only floor')
  );
}

/** the sync engine's default concurrency, which the app uses */
const CONCURRENCY = 4;
const MB = 1024 * 1024;
/**
 * `FIELDBOOK_SYNC_PARTS=full`: the full sync and its floors only, no resyncs and
 * no keys-only floor (about 4 minutes instead of 11: a quiet moment is easier to
 * find for the full sync's ratio, and its write floor follows it at once).
 */
const FULL_ONLY = process.env.FIELDBOOK_SYNC_PARTS === 'full';
const seconds = (ms: number): number => Math.round(ms / 10) / 100;
const count = (n: number): string => n.toLocaleString('en-US');
/** Records per second, as "12,345". */
const rateOf = (records: number, ms: number): string => count(Math.round((records * 1000) / ms));

/** The sync's own requests again from Node, same concurrency, bodies read and dropped. */
async function transferFloor(ctx: BenchContext, synced: SyncedSession): Promise<number> {
  ctx.log(
    `transfer floor: replaying the sync's ${synced.syncRequests.length} requests, ${CONCURRENCY} in flight`,
  );
  const headers = {
    AccessToken: synced.session.server.token,
    Accept: 'application/json',
    'Cache-Control': 'no-cache',
  };
  return replayAtConcurrency(
    synced.syncRequests.map((r) => r.url),
    CONCURRENCY,
    async (url) => {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
    },
  );
}

/** "Sync now" on the settings screen (nothing changed on the server, or what `changeOnePercent` changed). */
async function resync(ctx: BenchContext, session: BenchSession, what: string) {
  ctx.log(`resync, ${what}`);
  const app = await session.openApp('settings');
  // as a coordinator resyncing hours after the last sync: Chromium done compacting what it wrote, the window settled
  const quiet = await waitUntilQuiet(chromiumSeconds);
  const meter = await mainThreadMeter(session.context, app);
  const cpuBefore = cpuSeconds(session.server.pid);
  const resync = await syncFromClick(session, app, 'Sync now', 0, SYNC_TIMEOUT_MS);
  const cpu = cpuDelta(cpuBefore, cpuSeconds(session.server.pid));
  const renderer = await meter.stop();
  const observed = await syncObservation(app);
  await app.close();
  const requests = session.requests
    .slice(resync.requestsFrom, resync.requestsTo)
    .filter(isSyncRequest).length;
  const withRecords = Object.values(observed.messages).reduce((a, b) => a + b, 0);
  // pages sent as keys only (fingerprint matched) vs messages that carried records; the renderer's busy time
  const busy = Math.round(renderer.taskSeconds * 10) / 10;
  const cpuText = describeCpu(roundCpu(cpu));
  const clickDelay = Math.round(resync.clickDelayMs);
  const quietAfter = seconds(quiet.waitedMs);
  const notQuiet = quiet.settled ? '' : ', not quiet after a minute';
  const detail = `${observed.emptyMessages} messages without records (${observed.emptyPages} unchanged pages), ${withRecords} with; renderer main thread busy ${busy} s; CPU s by process: ${cpuText}; timed from the page's click event (Playwright's click took ${clickDelay} ms more), once Chromium was quiet (after ${quietAfter} s${notQuiet})`;
  return {
    ms: resync.ms,
    rowsWritten: rowsWrittenFrom(resync.statusText),
    finished: observed.finished[0],
    requests,
    load: load(),
    detail,
  };
}

/** The collections a resync's changes are spread over, and the field each change edits on the server. */
const CHANGES = [
  { collection: 'users', resource: 'user', changes: (n: number) => ({ firstname: `Changed${n}` }) },
  {
    collection: 'credentialAssignments',
    resource: 'credentialAssignment',
    changes: (n: number) => ({ notes: `changed ${n}` }),
  },
  {
    collection: 'trainingAssignments',
    resource: 'trainingAssignment',
    changes: () => ({ startdate: '2001-02-03' }),
  },
] as const;

/**
 * Changes 1% of the records of users, credential assignments and training
 * assignments on the server (every 100th in key order, so nearly every page of
 * those lists holds a change: the worst case for page fingerprints). Returns
 * how many records changed: what the resync must write, exactly.
 */
async function changeOnePercent(ctx: BenchContext, synced: SyncedSession, round: number): Promise<number> {
  const page = await synced.session.context.newPage();
  try {
    await page.goto(synced.session.benchUrl);
    const bench = benchPage(page);
    await bench.ready();
    const edits: { resource: string; id: string | number; changes: Record<string, string> }[] = [];
    for (const c of CHANGES)
      for (const id of await bench.sampleKeys(c.collection, 100, 37 + round))
        edits.push({ resource: c.resource, id, changes: c.changes(round) });
    ctx.log(
      `changing ${edits.length} records on the server (1% of users, credential and training assignments)`,
    );
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < edits.length) await synced.session.server.admin('mutate', edits[next++]);
      }),
    );
    return edits.length;
  } finally {
    await page.close();
  }
}

/**
 * Rounds of resyncs at each latency, each resync against the transfer floor measured just before it; the figure is the
 * median round.
 */
const ROUNDS = 3;

/**
 * The resync figures at one latency, in ROUNDS rounds: the transfer floor, a
 * resync with nothing changed, 1% changed on the server (other records each
 * round), a resync. Each resync is compared with its round's floor, and the
 * figure is the round with the median ratio (all rounds in the note): one
 * resync of a few seconds on two shared cores moves by a tenth either way.
 */
async function resyncFigures(ctx: BenchContext, synced: SyncedSession, latencyMs: number): Promise<Figure[]> {
  await synced.session.server.admin('faults', { latencyMs });
  const at = `${latencyMs} ms per request`;
  try {
    const same: (Awaited<ReturnType<typeof resync>> & { floorMs: number })[] = [];
    const some: (Awaited<ReturnType<typeof resync>> & { floorMs: number; changed: number })[] = [];
    const floors: { ms: number; load: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const floorMs = await transferFloor(ctx, synced);
      floors.push({ ms: floorMs, load: load() });
      same.push({
        ...(await resync(ctx, synced.session, `nothing changed, ${at}, round ${round + 1} of ${ROUNDS}`)),
        floorMs,
      });
      const changed = await changeOnePercent(ctx, synced, latencyMs + round);
      some.push({
        ...(await resync(ctx, synced.session, `1% changed, ${at}, round ${round + 1} of ${ROUNDS}`)),
        floorMs,
        changed,
      });
    }
    const sameMedian = medianRound(same);
    const someMedian = medianRound(some);
    const s = sameMedian.median;
    const c = someMedian.median;
    const rows = (list: { rowsWritten: number | null }[]) =>
      list.map((r) => (r.rowsWritten === null ? '?' : count(r.rowsWritten))).join(', ');
    const floorTimes = floors.map((f) => seconds(f.ms)).join(', ');
    const floorLoads = floors.map((f) => f.load).join(', ');
    const syncRequests = synced.syncRequests.length;
    const sameRows = s.rowsWritten ?? '?';
    const samePlan = s.finished?.plannedRequests ?? 'unknown';
    const sameOutcome = s.finished?.outcome ?? 'no end';
    const someOutcome = c.finished?.outcome ?? 'no end';
    const changed = some.map((r) => count(r.changed)).join(', ');
    const someRows = rows(some);
    return [
      {
        name: `transfer floor, ${at}`,
        value: seconds(Math.min(...floors.map((f) => f.ms))),
        unit: 's',
        note: `fastest of ${ROUNDS} (${floorTimes} s); ${syncRequests} requests, ${CONCURRENCY} in flight, bodies read and dropped; load average ${floorLoads}`,
      },
      ratioFigure(
        `resync, nothing changed, ${at}`,
        s.ms,
        s.floorMs,
        1.5,
        `median of ${ROUNDS} rounds (${sameMedian.ratios}), each against its own floor; this one: ${sameRows} rows written; ${s.requests} requests, plan ${samePlan}; ${sameOutcome}; ${s.detail}; load average ${s.load}`,
      ),
      {
        name: `resync, nothing changed, ${at}: rows written`,
        value: Math.max(...same.map((r) => r.rowsWritten ?? Infinity)),
        unit: 'rows',
        target: '0',
        pass: same.every((r) => r.rowsWritten === 0),
        note: `each round: ${rows(same)}`,
      },
      ratioFigure(
        `resync, 1% changed, ${at}`,
        c.ms,
        c.floorMs,
        2,
        `median of ${ROUNDS} rounds (${someMedian.ratios}), each against its own floor; this one: ${c.requests} requests; ${someOutcome}; ${c.detail}; load average ${c.load}`,
      ),
      {
        name: `resync, 1% changed, ${at}: rows written`,
        value: c.rowsWritten ?? -1,
        unit: 'rows',
        target: `= the changed`,
        pass: some.every((r) => r.rowsWritten === r.changed),
        note: `each round: ${someRows} written of ${changed} changed (every 100th of users, credential and training assignments, other records each round)`,
      },
    ];
  } finally {
    await synced.session.server.admin('faults', { latencyMs: 0 });
  }
}

/**
 * The cache's records, in the sync's page sizes, into a fresh database in a fresh profile (bench/write-floor-lib.ts).
 */
/** The full write floor against the floor that writes the records' keys alone. */
function keysOnlyFigure(
  floorMs: number,
  keysOnly: NonNullable<Awaited<ReturnType<typeof writeFloor>>['keysOnly']>,
): Figure {
  const records = count(keysOnly.records);
  const rate = rateOf(keysOnly.records, keysOnly.ms);
  const slowest = slowestParts(keysOnly.byCollection);
  const note = `keys-only: ${records} records, ${rate}/s; slowest: ${slowest}; load average ${keysOnly.load}`;
  return ratioFigure('write floor vs keys-only floor', floorMs, keysOnly.ms, 2, note);
}

async function writeFloor(ctx: BenchContext, synced: SyncedSession) {
  ctx.log(
    'write floor: the same records into a fresh database of the same schema, in a fresh profile, page by page',
  );
  const { session, observed } = synced;
  const source = await session.context.newPage();
  await source.goto(session.benchUrl);
  const sourceBench = benchPage(source);
  await sourceBench.ready();
  const counts = await sourceBench.cacheCounts();
  const plan: CollectionPages[] = COLLECTIONS.map((collection) => ({
    collection,
    pageSizes: pageSizes(counts[collection] ?? 0, observed.messages[collection] ?? 0),
  })).filter((p) => p.pageSizes.length > 0);
  const fresh = await session.freshContext();
  try {
    const target = await fresh.newPage();
    await target.goto(session.benchUrl);
    const targetBench = benchPage(target);
    await targetBench.ready();
    const loadBefore = load();
    const floor = await measureWriteFloor(sourceBench, targetBench, plan);
    const loadAfter = load();
    if (FULL_ONLY) return { ...floor, loadBefore, loadAfter, keysOnly: null };
    ctx.log('keys-only floor: the same records into the same tables with their primary keys only');
    const keysOnly = await measureWriteFloor(sourceBench, targetBench, plan, 'keys');
    return { ...floor, loadBefore, loadAfter, keysOnly: { ...keysOnly, load: load() } };
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
    const resyncs = FULL_ONLY
      ? []
      : [...(await resyncFigures(ctx, synced, 0)), ...(await resyncFigures(ctx, synced, 50))];
    const floor = await writeFloor(ctx, synced);

    const floorMs = Math.max(transferMs, floor.ms);
    const limitedBy = floor.ms >= transferMs ? 'writes' : 'transfer';
    const planned = finished.plannedRequests;
    const made = synced.syncRequests.length;
    const recordCount = count(records);
    const syncRate = rateOf(records, synced.fullSyncMs);
    const busy = Math.round(synced.renderer.taskSeconds);
    const script = Math.round(synced.renderer.scriptSeconds);
    const transferRate = rateOf(records, transferMs);
    const floorRecords = count(floor.records);
    const floorRate = rateOf(floor.records, floor.ms);
    const floorSlowest = slowestParts(floor.byCollection);
    return [
      ratioFigure(
        `full sync, dataset ${DATASET}`,
        synced.fullSyncMs,
        floorMs,
        1.3,
        `${recordCount} records, ${syncRate}/s; floor = ${limitedBy}; renderer main thread busy ${busy} s (script ${script} s); load average ${synced.loadBefore} -> ${synced.loadAfter}`,
      ),
      {
        name: 'transfer floor',
        value: seconds(transferMs),
        unit: 's',
        note: `${made} requests, ${CONCURRENCY} in flight, bodies read and dropped; ${transferRate} records/s`,
      },
      {
        name: 'write floor',
        value: seconds(floor.ms),
        unit: 's',
        note: `${floorRecords} records in ${floor.pages} page transactions, ${floorRate}/s; slowest: ${floorSlowest}; load average ${floor.loadBefore} -> ${floor.loadAfter}`,
      },
      ratioFigure('full sync vs its write floor', synced.fullSyncMs, floor.ms, 1.2),
      ...(floor.keysOnly ? [keysOnlyFigure(floor.ms, floor.keysOnly)] : []),
      {
        name: 'requests made vs the plan',
        value: made,
        unit: 'requests',
        floor: planned ?? undefined,
        target: '= plan',
        pass: planned !== null && made === planned && finished.requests === made,
        note: `engine counted ${finished.requests}, plan ${planned ?? 'unknown'}`,
      },
      ...resyncs,
      atMost(
        'renderer JS heap after a full sync',
        synced.heap.used / MB,
        'MB',
        300,
        `after a forced GC (CDP); heap total ${Math.round(synced.heap.total / MB)} MB`,
      ),
    ];
  } finally {
    await releaseSyncedSession(name);
  }
}
