/**
 * `node --experimental-strip-types bench/trace-cold-start.ts KEPT_DIR OUT.json`:
 * Chromium's trace of one cold start on a cache the scale benchmark kept
 * (FIELDBOOK_SCALE_KEEP), to the first rendered users list, with IndexedDB's
 * and LevelDB's events; prints the longest events of every process and thread
 * between the navigation and that row. Not a benchmark: no figure, no target.
 */
import { writeFileSync } from 'node:fs';
import { firstUsersRowAt, STAMP_FIRST_USERS_ROW } from './browser-lib.ts';
import { startBenchSession } from './session-lib.ts';
import { datasetFile, SCALE_DATASET } from './scale-session.ts';

const [kept, out] = process.argv.slice(2);
if (!kept || !out) throw new Error('usage: bench/trace-cold-start.ts KEPT_DIR OUT.json');
const ctx = { root: process.cwd(), log: (m: string) => process.stderr.write(`  ${m}\n`) };
const session = await startBenchSession(ctx, SCALE_DATASET, { dbPath: datasetFile(SCALE_DATASET), keepIn: kept });
try {
  const context = await session.relaunch();
  const page = await context.newPage();
  await page.addInitScript(STAMP_FIRST_USERS_ROW);
  const cdp = await context.newCDPSession(page);
  const categories = (process.env.FIELDBOOK_TRACE_CATEGORIES ?? 'IndexedDB,leveldb,toplevel,__metadata,devtools.timeline,v8.execute,blink.user_timing,navigation,loading').split(',');
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: categories, recordMode: 'recordAsMuchAsPossible' }, transferMode: 'ReturnAsStream' });
  await page.goto(`${session.harness.url}#/users`);
  const first = await firstUsersRowAt(page, 120_000);
  const complete = new Promise<string | undefined>((resolve) => cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream)));
  await cdp.send('Tracing.end');
  const stream = await complete;
  const parts: string[] = [];
  for (let eof = !stream; !eof; ) {
    const chunk = await cdp.send('IO.read', { handle: stream ?? '', size: 1 << 20 });
    parts.push(chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data);
    eof = chunk.eof;
  }
  writeFileSync(out, parts.join(''));
  const parsed = JSON.parse(parts.join('')) as { traceEvents: { name: string; ph: string; pid: number; tid: number; ts?: number; dur?: number; args?: { name?: string } }[] };
  const events = parsed.traceEvents;
  const names = new Map(events.filter((e) => e.ph === 'M' && (e.name === 'thread_name' || e.name === 'process_name')).map((e) => [`${e.name === 'thread_name' ? `${e.pid}:${e.tid}` : e.pid}`, e.args?.name ?? '']));
  const complete2 = events.filter((e) => e.ph === 'X' && (e.dur ?? 0) > 30_000 && e.name !== 'ThreadControllerImpl::RunTask');
  complete2.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0));
  const t0 = events.reduce((m, e) => (e.ts && e.ts > 0 && e.ts < m ? e.ts : m), Infinity);
  console.log(`first users row at ${Math.round(first)} ms (page clock)`);
  for (const e of complete2.slice(0, 40)) console.log(`${Math.round((e.dur ?? 0) / 1000)} ms at +${Math.round(((e.ts ?? 0) - t0) / 1000)} ms: ${e.name} [${names.get(String(e.pid)) ?? e.pid} / ${names.get(`${e.pid}:${e.tid}`) ?? e.tid}]`);
  await page.close();
} finally {
  await session.close();
}
