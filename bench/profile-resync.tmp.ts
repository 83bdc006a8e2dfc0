// throwaway: CPU profile of the renderer and of main during a 1%-changed resync (dataset m)
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { benchPage } from './browser-lib.ts';
import { startBenchSession, syncFromClick } from './session-lib.ts';
const ctx = { root: process.cwd(), log: (m: string) => process.stderr.write(`  ${m}\n`) };
const session = await startBenchSession(ctx, process.env.DS ?? 'm');
try {
  const app = await session.openApp('settings');
  await syncFromClick(session, app, 'Try the demo', 0, 600_000);
  await app.close();
  const page = await session.context.newPage();
  await page.goto(session.benchUrl);
  const bench = benchPage(page);
  await bench.ready();
  const edits = [];
  for (const [c, r, f] of [['users', 'user', { firstname: 'X' }], ['credentialAssignments', 'credentialAssignment', { notes: 'x' }], ['trainingAssignments', 'trainingAssignment', { startdate: '2001-02-03' }]] as const)
    for (const id of await bench.sampleKeys(c, 100, 37)) edits.push({ resource: r, id, changes: f });
  for (const e of edits) await session.server.admin('mutate', e);
  await page.close();
  const app2 = await session.openApp('settings');
  const cdp = await session.context.newCDPSession(app2);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const main = new Session(); main.connect(); await main.post('Profiler.enable'); await main.post('Profiler.start');
  const r = await syncFromClick(session, app2, 'Sync now', 0, 600_000);
  const { profile } = await cdp.send('Profiler.stop');
  const { profile: mp } = await main.post('Profiler.stop');
  writeFileSync('/tmp/renderer.cpuprofile', JSON.stringify(profile));
  writeFileSync('/tmp/main.cpuprofile', JSON.stringify(mp));
  console.log('resync ms', r.ms, r.statusText);
} finally { await session.close(); }
