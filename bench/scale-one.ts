/**
 * The scale benchmark's first part: a profile keeping one site of the
 * dataset's sites. Its first sync against the transfer floor of its own plan
 * (its requests replayed from Node), the plan's bytes, resyncs with nothing
 * changed, each against the floor of its own requests (a resync within 12
 * hours does not read the other sites' people for the identity index, as the
 * first sync does), and the cache's records compared with the server's data:
 * none of another site.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchPage } from './browser-lib.ts';
import { chromiumSeconds, waitUntilQuiet } from './cpu-lib.ts';
import { median, type BenchContext, type Figure } from './lib.ts';
import { describeCounts, megabytes, PART_PREFIX, strayRecords, type StrayCount } from './scale-lib.ts';
import { timeSync, transferFloor, type ScaleSession, type Site, type TimedSync } from './scale-session.ts';
import {
  atMost,
  describeTimeline,
  medianRound,
  ratioFigure,
  rowsWrittenFrom,
  slowestParts,
  type RecordedRequest,
} from './sync-lib.ts';
import { writeFloor } from './scale-all.ts';
import { COLLECTIONS } from '../src/shared/records.ts';

/** The requests as path, asked and answered (ms from the first request), in the order made. */
function dumpRequests(file: string, requests: readonly RecordedRequest[]): void {
  const t0 = requests[0]?.at ?? 0;
  const round = (ms: number | undefined) => (ms === undefined ? null : Math.round(ms - t0));
  writeFileSync(
    file,
    JSON.stringify(
      requests.map((r) => ({
        path: new URL(r.url).pathname + new URL(r.url).search,
        asked: round(r.at),
        answered: round(r.answeredAt),
      })),
      null,
      1,
    ),
  );
}

/** A ratio shown for where the time goes, with no target of its own. */
const informative = ({ target: _target, pass: _pass, ...figure }: Figure): Figure => figure;

export const SYNC_TIMEOUT_MS = 20 * 60_000;
const ROUNDS = 3;
const P = PART_PREFIX.one;
const seconds = (ms: number): number => Math.round(ms / 10) / 100;
const count = (n: number): string => n.toLocaleString('en-US');

/**
 * Main's profile of the bench's server keeping these sites (the Settings view's choice, made through main's handlers).
 */
export async function keepSites(s: ScaleSession, siteids: number[] | null): Promise<void> {
  const page = await s.session.context.newPage();
  try {
    await page.goto(s.session.benchUrl);
    const bench = benchPage(page);
    await bench.ready();
    await bench.keepSites(siteids);
  } finally {
    await page.close();
  }
}

/** "Sync now" on the Settings view, once its list of sites has come (so that request is not the sync's). */
export async function syncNow(
  s: ScaleSession,
  site: Site,
  quiet = false,
): Promise<TimedSync & { quietNote: string }> {
  const app = await s.session.openApp('settings');
  try {
    await app.getByRole('checkbox', { name: site.sitename, exact: true }).waitFor({ timeout: 60_000 });
    // as a coordinator resyncing later: Chromium done compacting what the last sync wrote
    const waited = quiet ? await waitUntilQuiet(chromiumSeconds) : null;
    const timed = await timeSync(s.session, app, 'Sync now', SYNC_TIMEOUT_MS);
    const notQuiet = waited?.settled === false ? ', not quiet after a minute' : '';
    const waitedSeconds = waited ? seconds(waited.waitedMs) : 0;
    const quietNote = waited ? `; started once Chromium was quiet (after ${waitedSeconds} s${notQuiet})` : '';
    return { ...timed, quietNote };
  } finally {
    await app.close();
  }
}

/** Records per collection in the app's cache. */
export async function cacheCounts(s: ScaleSession): Promise<Partial<Record<string, number>>> {
  const page = await s.session.context.newPage();
  try {
    await page.goto(s.session.benchUrl);
    const bench = benchPage(page);
    await bench.ready();
    return await bench.cacheCounts();
  } finally {
    await page.close();
  }
}

/** The cache's primary keys against the server's records of the kept sites. */
export async function strayInCache(s: ScaleSession, kept: readonly number[]): Promise<StrayCount> {
  const page = await s.session.context.newPage();
  try {
    await page.goto(s.session.benchUrl);
    const bench = benchPage(page);
    await bench.ready();
    const cache: Record<string, (string | number)[]> = {};
    for (const collection of COLLECTIONS) {
      cache[collection] = await bench.cacheKeys(collection);
    }
    return strayRecords(cache, s.data.keysOf(kept));
  } finally {
    await page.close();
  }
}

export interface OneSiteResult {
  figures: Figure[];
  /** the one-site plan's bytes, for the comparison with the all-sites plan's */
  planBytes: number;
  site: Site;
}

export async function runOneSite(ctx: BenchContext, s: ScaleSession): Promise<OneSiteResult> {
  const site = s.data.sites[0]!;
  const of = `1 of ${s.data.sites.length}`;
  ctx.log(
    `${P}: keeping ${site.sitename} (${count(site.people)} people), ${of} sites; first sync from "Sync now"`,
  );
  await keepSites(s, [site.siteid]);
  const first = await syncNow(s, site);
  const records = Object.values(first.finished.collections).reduce((n, c) => n + (c?.records ?? 0), 0);
  const recordCount = count(records);
  const firstSize = megabytes(first.bytes);
  const firstRequests = first.requests.length;
  ctx.log(
    `${P}: first sync ${seconds(first.ms)} s, ${recordCount} records, ${firstRequests} requests, ${firstSize} MB`,
  );

  const floors: { ms: number; bytes: number; load: number }[] = [];
  const resyncs: (TimedSync & { floorMs: number; rows: number | null; quietNote: string })[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const roundNumber = round + 1;
    ctx.log(
      `${P}: transfer floor (${firstRequests} requests replayed), then a resync with nothing changed and the floor of its own requests, round ${roundNumber} of ${ROUNDS}`,
    );
    floors.push(await transferFloor(s.session, first.requests));
    const resync = await syncNow(s, site, true);
    // a resync's own plan: the other sites' usernames and e-mails, read at the first sync, are not read again for hours
    const own = await transferFloor(s.session, resync.requests);
    resyncs.push({ ...resync, floorMs: own.ms, rows: rowsWrittenFrom(resync.statusText) });
    ctx.log(
      `${P}: resync ${seconds(resync.ms)} s against ${seconds(own.ms)} s: ${describeTimeline(resync.timeline)}`,
    );
    // FIELDBOOK_SCALE_DUMP=DIR: each resync's requests (path, asked and answered in ms from the first) for a closer
    // look
    if (process.env.FIELDBOOK_SCALE_DUMP)
      dumpRequests(path.join(process.env.FIELDBOOK_SCALE_DUMP, `resync-${round + 1}.json`), resync.requests);
  }
  ctx.log(`${P}: counting the cache's records against the server's data`);
  const stray = await strayInCache(s, [site.siteid]);
  // where a first sync's time goes beyond the transfer: writing its records (the all-sites part's floor, for one site)
  const counts = await cacheCounts(s);
  const write = await writeFloor(ctx, s, first, counts);

  const floorMs = median(floors.map((f) => f.ms));
  const { median: r, ratios } = medianRound(resyncs);
  const planned = first.finished.plannedRequests;
  const loads = (t: TimedSync) => `load average ${t.loadBefore} -> ${t.loadAfter}`;
  const firstLoads = loads(first);
  const floorTimes = floors.map((f) => seconds(f.ms)).join(', ');
  const floorLoads = floors.map((f) => f.load).join(', ');
  const inFlight = 4;
  const planOrUnknown = planned ?? 'unknown';
  const writeRecords = count(write.records);
  const writeRate = count(Math.round((write.records * 1000) / write.ms));
  const writeSlowest = slowestParts(write.byCollection);
  const replayedSize = megabytes(floors[0]!.bytes);
  const rowsOrUnknown = r.rows ?? '?';
  const timeline = describeTimeline(r.timeline);
  const roundLoads = loads(r);
  const keptTotal = count(stray.keptTotal);
  const strayCounts = describeCounts(stray.stray);
  const examples = stray.examples.length ? ` (e.g. ${stray.examples.join('; ')})` : '';
  const missingCounts = describeCounts(stray.missing);
  const figures: Figure[] = [
    ratioFigure(
      `${P}: first sync vs its plan's transfer floor`,
      first.ms,
      floorMs,
      1.2,
      `${site.sitename}, ${of} sites; ${recordCount} records in ${firstRequests} requests (plan ${planOrUnknown}), ${firstSize} MB; floor = median of ${ROUNDS} replays of those requests from Node, ${floorTimes} s, ${inFlight} in flight, bodies read and dropped (load average ${floorLoads}); ${first.detail}; ${firstLoads}`,
    ),
    informative(
      ratioFigure(
        `${P}: first sync vs its write floor`,
        first.ms,
        write.ms,
        1.2,
        `not a target of the issue (its target is the transfer floor above): the same ${writeRecords} records written into a fresh database of the same schema in a fresh profile, in the sync's page sizes, ${write.pages} page transactions, ${writeRate}/s; slowest: ${writeSlowest}; load average ${write.loadBefore} -> ${write.loadAfter}`,
      ),
    ),
    {
      name: `${P}: plan's bytes`,
      value: megabytes(first.bytes),
      unit: 'MB',
      note: `the Content-Length of the first sync's ${firstRequests} answers; the floor's replay read ${replayedSize} MB`,
    },
    ratioFigure(
      `${P}: resync, nothing changed, vs its transfer floor`,
      r.ms,
      r.floorMs,
      1.5,
      `median of ${ROUNDS} rounds (${ratios}), each against the floor of its own requests replayed just after it; this one: ${rowsOrUnknown} rows written, ${r.requests.length} requests, ${timeline}; ${r.detail}${r.quietNote}; ${roundLoads}`,
    ),
    {
      name: `${P}: resync, nothing changed: rows written`,
      value: Math.max(...resyncs.map((x) => x.rows ?? Infinity)),
      unit: 'rows',
      target: '0',
      pass: resyncs.every((x) => x.rows === 0),
      note: `each round: ${resyncs.map((x) => x.rows ?? '?').join(', ')}`,
    },
    atMost(
      `${P}: records of other sites in IndexedDB`,
      stray.strayTotal,
      'records',
      0,
      `the cache's primary keys, every table, against the keys of the kept site's ${keptTotal} records in the server's SQLite file; not the kept site's: ${strayCounts}${examples}; the kept site's records missing from the cache: ${missingCounts}`,
    ),
  ];
  return { figures, planBytes: first.bytes, site };
}
