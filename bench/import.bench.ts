/**
 * The import in Chromium under the app's CSP (the browser harness, as the e2e):
 * a 50,000-row XLSX (10 columns) and a 100,000-row CSV, both made by
 * LibreOffice / the fixture script, dropped on the Import view, with the cache
 * of dataset `l` present (20,000 people on two sites to match against: the full
 * sync shared with the sync and queries benchmarks, bench/synced-session-lib.ts).
 * Figures: time from the drop to the preview, and the longest main-thread task
 * (Long Tasks API) while reading, during a mapping change and while queueing.
 *
 * The import runs in a browser of its own on a copy of the synced profile, so
 * the 100,000 ops it queues never reach the other benchmarks' cache; and the
 * reference server drops every request meanwhile, so the outbox sends none of
 * them (nothing on the server changes either).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { fileDataTransfer } from '../e2e/support/drop.ts';
import { makeBig } from '../scripts/make-import-fixtures.mjs';
import { LONG_TASKS } from './browser-lib.ts';
import type { BenchContext, Figure } from './lib.ts';
import { atMost } from './sync-lib.ts';
import { DATASET, load, cachedSession, releaseSyncedSession } from './synced-session-lib.ts';
import { traceMainThread, type TracedTasks } from './trace-lib.ts';
import { describeSelfTime, profileBetween, selfTimeByFunction, type CpuProfile } from './cpu-profile-lib.ts';
import { describeAllocations, startHeapSampling, type HeapProfile } from './heap-sampling-lib.ts';

export const name = 'import';
export const description =
  'import of a 50,000-row XLSX and a 100,000-row CSV in Chromium under the app CSP, with the cache of dataset l present: time to preview, longest main-thread task while reading, mapping and queueing';

/** Resolves (in the page) with performance.now() when the import summary first shows `text`. */
const WHEN_SUMMARY = (text: string) => `new Promise((resolve) => {
  const seen = () => (document.querySelector('.import-view')?.textContent ?? '').includes(${JSON.stringify(text)});
  if (seen()) return resolve(performance.now());
  const observer = new MutationObserver(() => { if (seen()) { observer.disconnect(); resolve(performance.now()); } });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
})`;

interface Phase {
  ms: number;
  longestTaskMs: number;
  /** page time of the Long Tasks API's longest task, when one was reported */
  longestTaskAt: number | null;
  longTasks: number;
  /** the same tasks by Chromium's trace: CPU time as well as wall time */
  cpu: TracedTasks;
  /** with FIELDBOOK_IMPORT_PROFILE=1: the page's CPU profile over the phase */
  profile?: CpuProfile;
}

/**
 * Runs `act` and waits for the summary (or status) to show `text`: the time it took, and the long
 * tasks from the start until then, or until `settled` resolves when given (what the step sets off
 * after it shows: queueing goes on with the outbox loading the batch and the results being counted).
 */
async function phase(
  page: Page,
  label: string,
  text: string,
  act: () => Promise<void>,
  settled?: () => Promise<void>,
): Promise<Phase> {
  // in detail (what runs inside each task) but while queueing: its hundreds of thousands of tasks would make a trace of
  // gigabytes
  // the profiler first: its own start is one long task, which the trace is not to count
  await collectGarbage(page);
  const profiler = process.env.FIELDBOOK_IMPORT_PROFILE === '1' ? await startProfiler(page) : null;
  // FIELDBOOK_IMPORT_HEAP_PROFILE=1: where the phase's allocations (garbage included) were made
  const heap = process.env.FIELDBOOK_IMPORT_HEAP_PROFILE === '1' ? await startHeapSampling(page) : null;
  const trace = await traceMainThread(page.context(), page, settled === undefined);
  const start = await page.evaluate<number>('performance.now()');
  const done = page.evaluate<number>(WHEN_SUMMARY(text));
  done.catch(() => undefined); // reported by the await below, unless act() fails first
  await act();
  const end = await Promise.race([
    done,
    page
      .waitForTimeout(180_000)
      .then(() => Promise.reject(new Error(`"${text}" did not show within 3 minutes`))),
  ]);
  await settled?.();
  const tasks = await tasksUntilNow(page, start, settled ? undefined : end);
  const profile = profiler ? await profiler() : undefined;
  if (profile) await keepProfile(label, profile);
  if (heap) await keepHeapProfile(label, await heap());
  return { ...tasks, ms: end - start, cpu: await trace.stop(), ...(profile ? { profile } : {}) };
}

/** Time for the sweeps after a collection to end (the renderer sweeps in idle time, a piece at a time). */
const SWEEP_SETTLES_MS = 1000;

/**
 * The garbage of the bench's own making collected, and swept, before a phase starts: the dropped file is built in the
 * page from base64 (tens of megabytes of strings for the CSV), and its sweep was the first 475 ms of the CSV's
 * preview (137 ms of CPU, a traced run at a load of 12), before the drop had even been dispatched.
 */
async function collectGarbage(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.detach();
  await page.waitForTimeout(SWEEP_SETTLES_MS);
}

/** The phase's profile written for DevTools (its path on the bench's log): what ran, beyond the figures' summary. */
async function keepProfile(label: string, profile: CpuProfile): Promise<void> {
  const file = path.join(tmpdir(), `fieldbook-import-${label}.cpuprofile`);
  await writeFile(file, JSON.stringify(profile));
  console.error(`  the CPU profile of "${label}": ${file}`);
}

/** The phase's allocations written for DevTools, and summed on the bench's log. */
async function keepHeapProfile(label: string, profile: HeapProfile): Promise<void> {
  const file = path.join(tmpdir(), `fieldbook-import-${label}.heapprofile`);
  await writeFile(file, JSON.stringify(profile));
  console.error(`  the allocations of "${label}" (${file}): ${describeAllocations(profile, 16)}`);
}

/** Starts V8's sampling profiler in the page (1 ms); the returned function stops it and gives the profile. */
export async function startProfiler(page: Page): Promise<() => Promise<CpuProfile>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
  await cdp.send('Profiler.start');
  return async () => {
    const { profile } = await cdp.send('Profiler.stop');
    await cdp.detach();
    return profile as unknown as CpuProfile;
  };
}

/** The long tasks from `start` until `until` (now by default). */
async function tasksUntilNow(page: Page, start: number, until?: number): Promise<Omit<Phase, 'cpu'>> {
  await page.waitForTimeout(200); // let the long-task observer report the last task
  const end = until ?? (await page.evaluate<number>('performance.now()'));
  const tasks = await page.evaluate<Array<[number, number]>>('window.__longTasks');
  const during = tasks.filter(([at, duration]) => at + duration >= start && at <= end);
  const longest = during.reduce<[number, number] | null>(
    (best, t) => (!best || t[1] > best[1] ? t : best),
    null,
  );
  return {
    ms: end - start,
    longestTaskMs: longest?.[1] ?? 0,
    longestTaskAt: longest?.[0] ?? null,
    longTasks: during.length,
  };
}

/**
 * Queueing 100,000 ops (50,000 creates and their e-mails) to "Queued": the quiet runs took 14.1-16.2 s
 * (docs/benchmarks.md), and the window stays responsive throughout (its own figure, 50 ms a task).
 */
const QUEUEING_TARGET_MS = 20_000;

/** The app's own start, before the Import view opens. */
const OPEN_SETTLES_MS = 5000;
/**
 * After queueing: the results of the import counted from the outbox, then 5 s for the outbox and the views to settle.
 */
const QUEUE_SETTLES_MS = 5000;

const round = (n: number) => Math.round(n);
const taskFigure = (label: string, p: Phase, loadNote: string) => {
  const { cpu } = p;
  const totalCpu = round(cpu.totalCpuMs);
  const workerCpu = round(cpu.workerCpuMs);
  const longestCpu = round(cpu.longestCpuMs);
  const longestCpuWall = round(cpu.longestCpuWallMs);
  const longestWall = round(cpu.longestWall.wallMs);
  const longestWallCpu = round(cpu.longestWall.cpuMs);
  const inside = cpu.longestWall.inside ? `, inside: ${cpu.longestWall.inside}` : '';
  const span = spanNote(p);
  const cpuNote = `${totalCpu} ms of main-thread CPU and ${workerCpu} ms in its workers${wholeProfile(p)}`;
  const note = `${p.longTasks} tasks over 50 ms (0 = none reported by the Long Tasks API); by Chromium's trace, ${cpuNote}; of ${cpu.tasks} tasks the longest ran ${longestCpu} ms on the CPU (${longestCpuWall} ms wall), ${cpu.cpuOver50} ran over 50 ms of CPU; the longest in wall time ${longestWall} ms, of which ${longestWallCpu} ms on the CPU${inside}${span}; ${loadNote}`;
  return atMost(`longest main-thread task ${label}`, round(p.longestTaskMs), 'ms', 50, note);
};

/** The profiler's functions between two moments of the trace, by self time. */
const selfTimeBetween = (profile: NonNullable<Phase['profile']>, fromUs: number, toUs: number) =>
  describeSelfTime(selfTimeByFunction(profileBetween(profile, fromUs, toUs), 6));

/**
 * What Chromium's trace shows of the longest tasks (with FIELDBOOK_IMPORT_PROFILE=1, the profiler's functions there
 * too).
 */
function spanNote(p: Phase): string {
  const [cpuFrom, cpuTo] = p.cpu.longestCpuSpanUs;
  if (!p.profile || cpuTo <= cpuFrom) return longTaskNote(p);
  const samples = selfTimeBetween(p.profile, cpuFrom, cpuTo);
  return `${longTaskNote(p)}; the profiler's samples in the task longest on the CPU, self time: ${samples}`;
}

/** With FIELDBOOK_IMPORT_PROFILE=1: where the whole phase's main-thread time went, by the profiler. */
function wholeProfile(p: Phase): string {
  return p.profile
    ? ` (the profiler over the phase: ${describeSelfTime(selfTimeByFunction(p.profile, 10))})`
    : '';
}

/** What the trace (and the profiler) show over the span of the Long Tasks API's longest task. */
function longTaskNote(p: Phase): string {
  if (p.longestTaskAt === null) return '';
  const described = p.cpu.describeSpan(p.longestTaskAt, p.longestTaskAt + p.longestTaskMs);
  const span = `; over the span of the Long Tasks API's longest task: ${described}`;
  const from = p.cpu.toTraceUs(p.longestTaskAt);
  const to = p.cpu.toTraceUs(p.longestTaskAt + p.longestTaskMs);
  if (!p.profile || from === null || to === null) return span;
  return `${span}; the profiler's samples there, self time: ${selfTimeBetween(p.profile, from, to)}`;
}

/**
 * The site is chosen once, on a one-row file (dataset `l` has two): the choice holds for the files dropped after it.
 */
async function chooseFirstSite(app: Page): Promise<void> {
  const small = await fileDataTransfer(
    app,
    'one.csv',
    Buffer.from('Username,Forename,Surname\r\nbench.one,Ada,Lovelace\r\n'),
  );
  await app.locator('.import-view').dispatchEvent('drop', { dataTransfer: small });
  const site = app.getByRole('combobox', { name: /^Site of these people/ });
  const previewed = app.getByText('1 to create');
  await site.or(previewed).first().waitFor({ timeout: 60_000 });
  if (await site.isVisible()) {
    const first = await site.locator('option:not([disabled])').first().getAttribute('value');
    await site.selectOption(first ?? '');
  }
  await previewed.waitFor({ timeout: 60_000 });
}

export async function run(ctx: BenchContext): Promise<Figure[]> {
  ctx.log('making the files (LibreOffice for the XLSX; cached in the temp folder)');
  const xlsx = await readFile(makeBig(50_000));
  const csv = await readFile(makeBig(100_000, 'csv'));
  try {
    const session = await cachedSession(ctx);
    await session.server.admin('faults', { dropRate: 1 });
    try {
      const fork = await session.forkedContext();
      const app = await fork.newPage();
      await app.addInitScript(LONG_TASKS);
      // the app starts on Settings and settles; then the Import view opens and reads the cache for matching
      await app.goto(`${session.harness.url}#/settings`);
      await app.waitForTimeout(OPEN_SETTLES_MS);
      const loadBefore = load();
      ctx.log(`opening the Import view on the cache of dataset ${DATASET} (load average ${loadBefore})`);
      const trace = await traceMainThread(fork, app, true);
      const start = await app.evaluate<number>('performance.now()');
      await app.evaluate("location.hash = '#/import'");
      await app.getByRole('heading', { name: 'Import employees' }).waitFor();
      await chooseFirstSite(app);
      const opening = { ...(await tasksUntilNow(app, start)), cpu: await trace.stop() };
      return [
        taskFigure(
          'while opening the Import view (the cache read for matching) and previewing a one-row file',
          opening,
          `load average ${loadBefore} → ${load()}`,
        ),
        ...(await phases(ctx, app, xlsx, csv)),
      ];
    } finally {
      await session.server.admin('faults', { dropRate: 0 });
    }
  } finally {
    await releaseSyncedSession(name);
  }
}

async function phases(ctx: BenchContext, app: Page, xlsx: Buffer, csv: Buffer): Promise<Figure[]> {
  // FIELDBOOK_IMPORT_QUEUEING_ONLY=1: the XLSX's preview and its queueing only (a shorter hold of the shared lock)
  const queueingOnly = process.env.FIELDBOOK_IMPORT_QUEUEING_ONLY === '1';
  const figures: Figure[] = queueingOnly ? [] : await csvFigures(ctx, app, csv);
  const xlsxDrop = await fileDataTransfer(app, 'people-50000.xlsx', xlsx);
  const before = load();
  ctx.log(`XLSX: dropping 50,000 rows (load average ${before})`);
  const reading = await phase(app, 'xlsx', '50,000 to create', () =>
    app.locator('.import-view').dispatchEvent('drop', { dataTransfer: xlsxDrop }),
  );
  const loadNote = () => `load average ${before} → ${load()}`;
  figures.push(
    atMost('XLSX 50,000 rows x 10 columns: drop to preview', round(reading.ms), 'ms', 3000, loadNote()),
  );
  figures.push(taskFigure('while reading the XLSX', reading, loadNote()));
  // FIELDBOOK_IMPORT_PREVIEWS_ONLY=1: the two previews only (a shorter hold of the shared `l` lock)
  if (process.env.FIELDBOOK_IMPORT_PREVIEWS_ONLY === '1') return figures;
  if (!queueingOnly) figures.push(...(await mappingFigures(ctx, app, loadNote)));
  figures.push(...(await queueingFigures(ctx, app, loadNote)));
  return figures;
}

async function csvFigures(ctx: BenchContext, app: Page, csv: Buffer): Promise<Figure[]> {
  const csvDrop = await fileDataTransfer(app, 'people-100000.csv', csv);
  const beforeCsv = load();
  ctx.log(`CSV: dropping 100,000 rows (load average ${beforeCsv})`);
  const csvReading = await phase(app, 'csv', '100,000 to create', () =>
    app.locator('.import-view').dispatchEvent('drop', { dataTransfer: csvDrop }),
  );
  const csvNote = `load average ${beforeCsv} → ${load()}`;
  return [
    atMost('CSV 100,000 rows x 10 columns: drop to preview', round(csvReading.ms), 'ms', 1500, csvNote),
    taskFigure('while reading the CSV', csvReading, csvNote),
  ];
}

async function mappingFigures(ctx: BenchContext, app: Page, loadNote: () => string): Promise<Figure[]> {
  ctx.log('mapping change: the Last name column is unmapped, then mapped again');
  const unmapped = await phase(app, 'unmapped', '50,000 invalid', async () => {
    await app.getByRole('combobox', { name: /^Last name/ }).selectOption({ label: '(not in the file)' });
  });
  const remapped = await phase(app, 'remapped', '50,000 to create', async () => {
    await app.getByRole('combobox', { name: /^Last name/ }).selectOption({ label: 'Surname' });
  });
  const worse = unmapped.longestTaskMs >= remapped.longestTaskMs ? unmapped : remapped;
  return [
    {
      name: 'mapping change on 50,000 rows: to the new preview',
      value: round(Math.max(unmapped.ms, remapped.ms)),
      unit: 'ms',
      note: loadNote(),
    },
    taskFigure('during a mapping change', worse, loadNote()),
  ];
}

async function queueingFigures(ctx: BenchContext, app: Page, loadNote: () => string): Promise<Figure[]> {
  ctx.log('queueing the 50,000 creates (and their e-mails)');
  const queueing = await phase(
    app,
    'queueing',
    'Queued',
    () => app.getByRole('button', { name: 'Queue 50,000 rows' }).click(),
    async () => {
      await app.getByRole('status', { name: 'Import results' }).waitFor({ timeout: 180_000 });
      await app.waitForTimeout(QUEUE_SETTLES_MS);
    },
  );
  return [
    atMost(
      'queueing 50,000 creates + 50,000 e-mails (one batch)',
      round(queueing.ms),
      'ms',
      QUEUEING_TARGET_MS,
      `to "Queued"; ${loadNote()}`,
    ),
    taskFigure('while queueing (until its results are counted, then 5 s)', queueing, loadNote()),
  ];
}
