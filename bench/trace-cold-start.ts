/**
 * `node --experimental-strip-types bench/trace-cold-start.ts KEPT_DIR OUT.json`:
 * Chromium's trace of one cold start on a cache the scale benchmark kept
 * (FIELDBOOK_SCALE_KEEP), to the first rendered users list, with IndexedDB's
 * and LevelDB's events; prints the events over 30 ms of every process and
 * thread, in time order. Not a benchmark: no figure, no target.
 */
import { writeFileSync } from 'node:fs';
import { firstUsersRowAt, STAMP_FIRST_USERS_ROW } from './browser-lib.ts';
import { startBenchSession } from './session-lib.ts';
import { readStream, type TraceEvent } from './trace-lib.ts';
import { datasetFile, SCALE_DATASET } from './scale-session.ts';

/**
 * "+2682 ms 398 ms: Database::CountOperation [Browser / ThreadPoolForegroundWorker]": complete events over `minMs`,
 * from the trace's start.
 */
function longEvents(events: readonly TraceEvent[], minMs: number): string[] {
  const named = new Map(
    events
      .filter((e) => e.ph === 'M' && (e.name === 'thread_name' || e.name === 'process_name'))
      .map((e) => [e.name === 'thread_name' ? `${e.pid}:${e.tid}` : String(e.pid), e.args?.name ?? '']),
  );
  const t0 = events.reduce((m, e) => (e.ts && e.ts > 0 && e.ts < m ? e.ts : m), Infinity);
  return events
    .filter((e) => e.ph === 'X' && (e.dur ?? 0) > minMs * 1000)
    .sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0))
    .map((e) => {
      const at = Math.round(((e.ts ?? 0) - t0) / 1000);
      const took = Math.round((e.dur ?? 0) / 1000);
      const process = named.get(String(e.pid)) ?? e.pid;
      const thread = named.get(`${e.pid}:${e.tid}`) ?? e.tid;
      return `+${at} ms ${took} ms: ${e.name} [${process} / ${thread}]`;
    });
}

const [kept, out] = process.argv.slice(2);
if (!kept || !out) throw new Error('usage: bench/trace-cold-start.ts KEPT_DIR OUT.json');
const ctx = { root: process.cwd(), log: (m: string) => process.stderr.write(`  ${m}\n`) };
const session = await startBenchSession(ctx, SCALE_DATASET, {
  dbPath: datasetFile(SCALE_DATASET),
  keepIn: kept,
});
try {
  const context = await session.relaunch();
  const page = await context.newPage();
  await page.addInitScript(STAMP_FIRST_USERS_ROW);
  const cdp = await context.newCDPSession(page);
  const categories = (
    process.env.FIELDBOOK_TRACE_CATEGORIES ??
    'IndexedDB,leveldb,toplevel,__metadata,devtools.timeline,v8.execute,blink.user_timing,navigation,loading'
  ).split(',');
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: categories, recordMode: 'recordAsMuchAsPossible' },
    transferMode: 'ReturnAsStream',
  });
  await page.goto(`${session.harness.url}#/users`);
  const first = await firstUsersRowAt(page, 120_000);
  const complete = new Promise<string | undefined>((resolve) =>
    cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream)),
  );
  await cdp.send('Tracing.end');
  const stream = await complete;
  const text = stream ? await readStream(cdp, stream) : '{"traceEvents":[]}';
  writeFileSync(out, text);
  const parsed = JSON.parse(text) as { traceEvents: TraceEvent[] };
  console.log(`first users row at ${Math.round(first)} ms (page clock); events over 30 ms, in time order:`);
  for (const line of longEvents(parsed.traceEvents, 30)) console.log(`  ${line}`);
  await page.close();
} finally {
  await session.close();
}
