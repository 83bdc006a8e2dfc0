/**
 * `node --experimental-strip-types bench/profile-resync.ts [DATASET] [OUT_DIR] [unchanged]`:
 * CPU profiles of a resync with 1% of the records changed (every 100th user,
 * credential assignment and training assignment, as the sync benchmark does;
 * with `unchanged`, nothing changed),
 * one of the renderer (through CDP) and one of this process (the harness's
 * main-process handlers), written as `renderer.cpuprofile` and
 * `main.cpuprofile` for Chrome's DevTools. Dataset `m` by default (a minute);
 * not a benchmark: it prints no figure and has no target. It prints each
 * resync's time against the transfer floor of the first (its requests replayed
 * from Node), and the CPU seconds each process spent (`FIELDBOOK_PROFILE=0`:
 * without the profilers, whose own cost shows there; `FIELDBOOK_RESYNCS=N`:
 * N resyncs after one full sync). After each resync, Chromium's CPU seconds by
 * process type and thread name (where the browser's time goes: its thread
 * pool runs IndexedDB's LevelDB). `FIELDBOOK_TRACE=FILE`: Chromium's own
 * trace of the first resync (IndexedDB, LevelDB and top-level tasks;
 * `FIELDBOOK_TRACE_CATEGORIES` to choose), for Perfetto; `FIELDBOOK_PERF=FILE`:
 * the whole machine sampled by Linux `perf` during it (as root).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { benchPage } from './browser-lib.ts';
import {
  chromiumSeconds,
  chromiumThreadSeconds,
  describeThreadDelta,
  cpuDelta,
  cpuSeconds,
  describeCpu,
  roundCpu,
  waitUntilQuiet,
} from './cpu-lib.ts';
import { isSyncRequest, replayAtConcurrency } from './sync-lib.ts';
import { startBenchSession, syncFromClick } from './session-lib.ts';
import { readStream } from './trace-lib.ts';

const dataset = process.argv[2] ?? 'm';
const outDir = process.argv[3] ?? os.tmpdir();
const changeSome = process.argv[4] !== 'unchanged';
/** `FIELDBOOK_PROFILE=0`: no profiles, only the time and CPU seconds by process (the profilers' own cost left out) */
const profiling = process.env.FIELDBOOK_PROFILE !== '0';
/** `FIELDBOOK_RESYNCS=N`: N resyncs after the one full sync (the first profiled), each with its own changes */
const rounds = Math.max(1, Number(process.env.FIELDBOOK_RESYNCS ?? 1));
let floor = 0;
const ctx = { root: process.cwd(), log: (m: string) => process.stderr.write(`  ${m}\n`) };
const CHANGES = [
  ['users', 'user', (round: number) => ({ firstname: `Profiled${round}` })],
  ['credentialAssignments', 'credentialAssignment', (round: number) => ({ notes: `profiled ${round}` })],
  [
    'trainingAssignments',
    'trainingAssignment',
    (round: number) => ({ startdate: `2001-02-${String(round + 3).padStart(2, '0')}` }),
  ],
] as const;

const session = await startBenchSession(ctx, dataset);
try {
  const first = await session.openApp('settings');
  await syncFromClick(session, first, 'Try the demo', 0, 600_000);
  await first.close();
  let floorLine = '';
  for (let round = 0; round < rounds; round++) {
    const page = await session.context.newPage();
    await page.goto(session.benchUrl);
    const bench = benchPage(page);
    await bench.ready();
    for (const [collection, resource, changes] of changeSome ? CHANGES : []) {
      for (const id of await bench.sampleKeys(collection, 100, 37 + round))
        await session.server.admin('mutate', { resource, id, changes: changes(round) });
    }
    await page.close();
    const app = await session.openApp('settings');
    // Chromium done compacting what the last sync wrote (sync.bench.ts waits the same way)
    const quiet = await waitUntilQuiet(chromiumSeconds);
    if (process.env.FIELDBOOK_CONSOLE === '1')
      app.on('console', (m) => process.stdout.write(`    console: ${m.text()}\n`));
    const renderer = await session.context.newCDPSession(app);
    const main = new Session();
    const profileThis = profiling && round === 0;
    if (profileThis) {
      await renderer.send('Profiler.enable');
      await renderer.send('Profiler.setSamplingInterval', { interval: 200 });
      await renderer.send('Profiler.start');
      main.connect();
      await main.post('Profiler.enable');
      await main.post('Profiler.start');
    }
    const cpuBefore = cpuSeconds(session.server.pid);
    const threadsBefore = chromiumThreadSeconds();
    // FIELDBOOK_PERF=FILE: the whole machine sampled by Linux perf during the first resync (root only)
    const perf =
      process.env.FIELDBOOK_PERF && round === 0
        ? spawn('perf', ['record', '-F', '999', '-a', '-g', '-o', process.env.FIELDBOOK_PERF], {
            stdio: 'ignore',
          })
        : undefined;
    perf?.on('error', (e) => process.stderr.write(`  perf could not run: ${e.message}\n`));
    if (perf) await new Promise((r) => setTimeout(r, 1000));
    // FIELDBOOK_TRACE=FILE: Chromium's trace (IndexedDB, LevelDB, top-level tasks) of the first resync, for
    // chrome://tracing or Perfetto
    const tracing = process.env.FIELDBOOK_TRACE && round === 0 ? renderer : undefined;
    if (tracing)
      await tracing.send('Tracing.start', {
        categories: process.env.FIELDBOOK_TRACE_CATEGORIES ?? 'IndexedDB,leveldb,toplevel',
        transferMode: 'ReturnAsStream',
      });
    const resync = await syncFromClick(session, app, 'Sync now', 0, 600_000);
    const cpu = cpuDelta(cpuBefore, cpuSeconds(session.server.pid));
    const threads = describeThreadDelta(threadsBefore, chromiumThreadSeconds());
    if (tracing) {
      const complete = new Promise<string | undefined>((resolve) =>
        tracing.once('Tracing.tracingComplete', (e) => resolve(e.stream)),
      );
      await tracing.send('Tracing.end');
      const stream = await complete;
      writeFileSync(
        process.env.FIELDBOOK_TRACE ?? '',
        stream ? await readStream(tracing, stream) : '{"traceEvents":[]}',
      );
    }
    if (perf) {
      if (perf.exitCode === null && perf.pid !== undefined) {
        perf.kill('SIGINT');
        await new Promise((r) => perf.once('exit', r));
      }
    }
    if (profileThis) {
      writeFileSync(
        path.join(outDir, 'renderer.cpuprofile'),
        JSON.stringify((await renderer.send('Profiler.stop')).profile),
      );
      writeFileSync(
        path.join(outDir, 'main.cpuprofile'),
        JSON.stringify((await main.post('Profiler.stop')).profile),
      );
    }
    await app.close();
    if (round === 0) {
      // the resync's own requests again from Node, 4 in flight, bodies read and dropped (the benchmark's transfer
      // floor)
      const urls = session.requests
        .slice(resync.requestsFrom, resync.requestsTo)
        .filter(isSyncRequest)
        .map((r) => r.url);
      const headers = {
        AccessToken: session.server.token,
        Accept: 'application/json',
        'Cache-Control': 'no-cache',
      };
      const floorCpuBefore = cpuSeconds(session.server.pid);
      const floorMs = await replayAtConcurrency(
        urls,
        4,
        async (url) => void (await (await fetch(url, { headers })).arrayBuffer()),
      );
      const floorCpu = describeCpu(roundCpu(cpuDelta(floorCpuBefore, cpuSeconds(session.server.pid))));
      const floorTook = Math.round(floorMs);
      floorLine = `; transfer floor ${floorTook} ms (${urls.length} requests; CPU s by process: ${floorCpu})`;
      floor = floorMs;
    }
    const made = session.requests.slice(resync.requestsFrom, resync.requestsTo).filter(isSyncRequest);
    const firstAt = made[0]?.at ?? resync.startedAt;
    const lastAt = made.at(-1)?.at ?? firstAt;
    const toFirst = Math.round(firstAt - resync.startedAt);
    const requesting = Math.round(lastAt - firstAt);
    const toDone = Math.round(resync.startedAt + resync.ms - lastAt);
    const clickDelay = Math.round(resync.clickDelayMs);
    const quietAfter = Math.round(quiet.waitedMs / 100) / 10;
    const gaveUp = quiet.settled ? '' : ' (gave up)';
    const phases = ` [click to first request ${toFirst} ms, requests ${requesting} ms, last request to done ${toDone} ms; Playwright's click took ${clickDelay} ms more, not counted; started once Chromium was quiet, after ${quietAfter} s${gaveUp}]`;
    const ratio = floor > 0 ? ` = ${(resync.ms / floor).toFixed(2)}x the floor` : '';
    const which = round + 1;
    const changed = changeSome ? '1%' : 'nothing';
    const took = Math.round(resync.ms);
    const cpuText = describeCpu(roundCpu(cpu));
    const profiled = profileThis ? `; profiled (profiles in ${outDir})` : '';
    process.stdout.write(
      `resync ${which} of dataset ${dataset}, ${changed} changed: ${took} ms${ratio}${phases} (${resync.statusText}); CPU s by process: ${cpuText}${profiled}${floorLine}\n`,
    );
    floorLine = '';
    process.stdout.write(`  Chromium's threads (CPU s): ${threads}\n`);
  }
} finally {
  await session.close();
}
