/**
 * `node --experimental-strip-types bench/profile-resync.ts [DATASET] [OUT_DIR] [unchanged]`:
 * CPU profiles of a resync with 1% of the records changed (every 100th user,
 * credential assignment and training assignment, as the sync benchmark does;
 * with `unchanged`, nothing changed),
 * one of the renderer (through CDP) and one of this process (the harness's
 * main-process handlers), written as `renderer.cpuprofile` and
 * `main.cpuprofile` for Chrome's DevTools. Dataset `m` by default (a minute);
 * not a benchmark: it prints no figure and has no target.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { benchPage } from './browser-lib.ts';
import { startBenchSession, syncFromClick } from './session-lib.ts';

const dataset = process.argv[2] ?? 'm';
const outDir = process.argv[3] ?? os.tmpdir();
const changeSome = process.argv[4] !== 'unchanged';
const ctx = { root: process.cwd(), log: (m: string) => process.stderr.write(`  ${m}\n`) };
const CHANGES = [
  ['users', 'user', { firstname: 'Profiled' }],
  ['credentialAssignments', 'credentialAssignment', { notes: 'profiled' }],
  ['trainingAssignments', 'trainingAssignment', { startdate: '2001-02-03' }],
] as const;

const session = await startBenchSession(ctx, dataset);
try {
  const first = await session.openApp('settings');
  await syncFromClick(session, first, 'Try the demo', 0, 600_000);
  await first.close();
  const page = await session.context.newPage();
  await page.goto(session.benchUrl);
  const bench = benchPage(page);
  await bench.ready();
  for (const [collection, resource, changes] of changeSome ? CHANGES : []) {
    for (const id of await bench.sampleKeys(collection, 100, 37)) await session.server.admin('mutate', { resource, id, changes });
  }
  await page.close();
  const app = await session.openApp('settings');
  const renderer = await session.context.newCDPSession(app);
  await renderer.send('Profiler.enable');
  await renderer.send('Profiler.setSamplingInterval', { interval: 200 });
  await renderer.send('Profiler.start');
  const main = new Session();
  main.connect();
  await main.post('Profiler.enable');
  await main.post('Profiler.start');
  const resync = await syncFromClick(session, app, 'Sync now', 0, 600_000);
  writeFileSync(path.join(outDir, 'renderer.cpuprofile'), JSON.stringify((await renderer.send('Profiler.stop')).profile));
  writeFileSync(path.join(outDir, 'main.cpuprofile'), JSON.stringify((await main.post('Profiler.stop')).profile));
  process.stdout.write(`resync of dataset ${dataset}, ${changeSome ? '1%' : 'nothing'} changed: ${Math.round(resync.ms)} ms (${resync.statusText}); profiles in ${outDir}\n`);
} finally {
  await session.close();
}
