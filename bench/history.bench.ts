/**
 * The compliance history on dataset `l` (issue 38), in Chromium on a copy of the synced profile: its size after a
 * year of daily syncs, and the time of the snapshot a completed sync takes (`startSnapshot`, the renderer's own):
 * how long the sync's next writes wait on it (what it reads of the cache), the target, and until its day is written.
 *
 * Each simulated day writes a day of ordinary change into the cache, as a sync would have (credentials renewed in
 * place, training completed and newly assigned, hires, leavers; bench/history-lib.ts), then takes the day's snapshot
 * and times it alone. Two runs:
 * - a year, 365 daily snapshots, on a sample of the people of `l` (1 in 50, with all their records and every
 *   name) copied into a database of their own, with a requirement added on days 100 and 250: the size per 1,000
 *   people measured over a whole year (a snapshot reads the whole cache: on `l` it took 1.5 to 2 minutes at a
 *   load average of 16 to 26 on this machine, so 365 of them at full size are out of reach);
 * - `l` at full size: its first snapshot (every person written once) and 7 ordinary days after it, each timed
 *   (the snapshot's figures), and the size they added carried on to a year.
 * Sizes are the history tables' rows as JSON text (UTF-8 bytes), not what IndexedDB keeps on disk (one LevelDB for
 * the whole origin, compressed, compacted at its own pace: it cannot be told per table).
 */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { addDaysIso, todayIso } from '../src/shared/dates.ts';
import { benchPage, type BenchPage } from './browser-lib.ts';
import { describeSelfTime, selfTimeByFunction, type CpuProfile } from './cpu-profile-lib.ts';
import { startProfiler } from './import.bench.ts';
import { MB, yearFromDays, type YearSize } from './history-lib.ts';
import { percentile, type BenchContext, type Figure } from './lib.ts';
import type { HistoryCache, HistoryDay, HistoryDayChanges, HistoryPhase, HistorySize } from './page-api.ts';
import { atMost } from './sync-lib.ts';
import { cachedSession, DATASET, load, releaseSyncedSession } from './synced-session-lib.ts';

export const name = 'history';
export const description =
  'compliance history on dataset l in Chromium: its size after a year of daily syncs (a year on a sample of ' +
  'the people, and l at full size carried on to a year) and the snapshot time after a daily sync';

const number = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
/** ordinary days after the first snapshot at full size */
const FULL_DAYS = number('FIELDBOOK_HISTORY_DAYS', 7);
/** the year's sample: every n-th person */
const SAMPLE_EVERY = number('FIELDBOOK_HISTORY_SAMPLE', 50);
/** snapshots of the sample's year (fewer: carried on to a year, for a quick try) */
const YEAR_DAYS = number('FIELDBOOK_HISTORY_YEAR', 365);
const REQUIREMENT_DAYS = [100, 250];
/** issue 38 */
const MB_PER_THOUSAND_PEOPLE_TARGET = 2;
const SNAPSHOT_P95_TARGET_MS = 100;

interface Run {
  cache: HistoryCache;
  first: { ms: number; size: HistorySize };
  days: HistoryDay[];
  size: HistorySize;
  loadBefore: number;
  loadAfter: number;
}

const totalBytes = (size: HistorySize) => Object.values(size).reduce((sum, t) => sum + t.bytes, 0);
const mb = (bytes: number) => Math.round((bytes / MB) * 100) / 100;
const ms = (n: number) => `${Math.round(n)} ms`;

/** The page's CPU profile over the daily snapshots, by self time (FIELDBOOK_HISTORY_PROFILE=1), kept for DevTools. */
async function logProfile(ctx: BenchContext, stop: () => Promise<CpuProfile>): Promise<void> {
  const profile = await stop();
  const file = path.join(tmpdir(), 'fieldbook-history-days.cpuprofile');
  await writeFile(file, JSON.stringify(profile));
  ctx.log(`the daily days' CPU profile (${file}): ${describeSelfTime(selfTimeByFunction(profile, 30))}`);
}

async function simulate(
  ctx: BenchContext,
  bench: BenchPage,
  every: number | null,
  days: number,
  requirementDays: readonly number[],
  page?: Page,
): Promise<Run> {
  const loadBefore = load();
  const cache = await bench.historyOpen(every);
  const start = todayIso();
  const first = await bench.historyDay(0, start, false);
  const firstSize = await bench.historySize();
  const out: Run['days'] = [];
  const profiler = page && process.env.FIELDBOOK_HISTORY_PROFILE === '1' ? await startProfiler(page) : null;
  for (let i = 1; i <= days; i++) {
    out.push(await bench.historyDay(i, addDaysIso(start, i), requirementDays.includes(i)));
    if (every === null) ctx.log(`day ${i}: ${dayText(out.at(-1)!)}`);
    if (i % 30 === 0 || i === days)
      ctx.log(`day ${i} of ${days}: last snapshot ${ms(out.at(-1)!.ms)} (load average ${load()})`);
  }
  if (profiler) await logProfile(ctx, profiler);
  const size = await bench.historySize();
  await bench.historyClose();
  return { cache, first: { ms: first.ms, size: firstSize }, days: out, size, loadBefore, loadAfter: load() };
}

/** A day's snapshot: held, whole, its long tasks and its phases. */
function dayText(day: HistoryDay): string {
  const tasks = day.longTasks.map((t) => `${ms(t.ms)} at ${ms(t.at)}`).join(', ') || 'none';
  const times = `held ${ms(day.held)}, committed at ${ms(day.ms)}, tasks over 50 ms: ${tasks}`;
  return `${times}: ${phaseText(day.phases)}`;
}

const phaseText = (phases: readonly HistoryPhase[]) =>
  phases
    .map(({ phase, ms, count }) => `${phase} ${Math.round(ms)}${count === undefined ? '' : ` (${count})`}`)
    .join(', ');

/** Each phase's median over the days (in the order of the first day that has it). */
function medianPhases(run: Run): string {
  const byPhase = new Map<string, number[]>();
  for (const day of run.days)
    for (const { phase, ms } of day.phases) byPhase.set(phase, [...(byPhase.get(phase) ?? []), ms]);
  const medians = [...byPhase].map(([phase, t]) => ({ phase, ms: percentile(t, 50) }));
  return `each phase's median, ms: ${phaseText(medians)}`;
}

function yearOf(run: Run): YearSize {
  return yearFromDays({
    first: totalBytes(run.first.size),
    daily: totalBytes(run.size) - totalBytes(run.first.size),
    days: run.days.length,
    people: run.cache.people,
    sites: run.cache.sites,
  });
}

/** The simulated day's mean changes, and the tables' rows and sizes: what the figure is made of. */
function describe(run: Run): string {
  const sum = (k: keyof Omit<HistoryDayChanges, 'requirement'>) =>
    run.days.reduce((n, d) => n + (d.changes?.[k] ?? 0), 0) / Math.max(1, run.days.length);
  const perDay = [
    `${sum('renewed').toFixed(1)} renewed`,
    `${sum('completed').toFixed(1)} training completed`,
    `${sum('assigned').toFixed(1)} training assigned`,
    `${sum('hired').toFixed(1)} hired`,
    `${sum('left').toFixed(1)} left`,
  ].join(', ');
  const tables = Object.entries(run.size)
    .map(([t, s]) => `${t} ${s.rows.toLocaleString('en-US')} rows ${mb(s.bytes)} MB`)
    .join(', ');
  const c = run.cache;
  const people = `${c.people.toLocaleString('en-US')} people (${c.active.toLocaleString('en-US')} active)`;
  return [
    `${people} on ${c.sites} site${c.sites === 1 ? '' : 's'}`,
    `a day on average: ${perDay}`,
    `at the end: ${tables}`,
    `first snapshot ${mb(totalBytes(run.first.size))} MB`,
    "rows as JSON text (UTF-8), not IndexedDB's bytes on disk",
    `load average ${run.loadBefore} → ${run.loadAfter}`,
  ].join('; ');
}

function yearFigures(run: Run, full: Run): Figure[] {
  const year = yearOf(run);
  const timings = run.days.map((d) => d.ms);
  const perSite = (year.perThousandPeoplePerYear * full.cache.people) / full.cache.sites / 1000;
  const added = REQUIREMENT_DAYS.filter((d) => d <= run.days.length);
  const carried = run.days.length + 1 < 365 ? ', carried on to a year' : '';
  const requirements = added.length
    ? `a requirement added on day ${added.join(' and ')}`
    : 'no requirement change';
  const sample = `1 in ${SAMPLE_EVERY} people of ${DATASET}`;
  const what = `${run.days.length + 1} daily snapshots of ${sample}${carried}, ${requirements}`;
  const sampleTimes = `snapshots on the sample p50 ${ms(percentile(timings, 50))}, p95 ${ms(percentile(timings, 95))}`;
  const siteSize = Math.round(full.cache.people / full.cache.sites).toLocaleString('en-US');
  return [
    atMost(
      'history after a year of daily syncs, per 1,000 people (a year on a sample)',
      mb(year.perThousandPeoplePerYear),
      'MB',
      MB_PER_THOUSAND_PEOPLE_TARGET,
      `${what}; ${sampleTimes}; ${describe(run)}`,
    ),
    {
      name: `history after a year of daily syncs, per site of ${DATASET} (from the sample)`,
      value: mb(perSite),
      unit: 'MB',
      note: `the sample's size per 1,000 people for a site of ${DATASET}'s average ${siteSize} people`,
    },
  ];
}

/** The long tasks of the window over the days: the longest, and how many there were. */
function longTasksText(run: Run): string {
  const tasks = run.days.flatMap((d) => d.longTasks.map((t) => t.ms));
  if (tasks.length === 0) return 'no task of the window over 50 ms';
  return `${tasks.length} tasks of the window over 50 ms, the longest ${ms(Math.max(...tasks))}`;
}

/** The snapshot's times: what the sync's next writes wait for (the target), and the whole, to its day committed. */
function timeFigures(full: Run, days: string): Figure[] {
  const [held, whole] = [full.days.map((d) => d.held), full.days.map((d) => d.ms)];
  const each = (t: readonly number[]) => t.map((x) => Math.round(x)).join(', ');
  return [
    {
      name: 'snapshot after a daily sync, held, p50',
      value: Math.round(percentile(held, 50)),
      unit: 'ms',
      note: days,
    },
    atMost(
      "snapshot after a daily sync, held, p95 (the sync's next writes wait)",
      Math.round(percentile(held, 95)),
      'ms',
      SNAPSHOT_P95_TARGET_MS,
      `each day: ${each(held)} ms, from its start until it has read what it needs of the cache`,
    ),
    {
      name: 'snapshot after a daily sync, to its day committed, p50',
      value: Math.round(percentile(whole, 50)),
      unit: 'ms',
      note: `each day: ${each(whole)} ms; ${medianPhases(full)}`,
    },
    {
      name: 'snapshot after a daily sync, to its day committed, p95',
      value: Math.round(percentile(whole, 95)),
      unit: 'ms',
      note: `${longTasksText(full)}; not waited for by the sync or the coordinator`,
    },
  ];
}

function fullFigures(full: Run): Figure[] {
  const year = yearOf(full);
  const days = `${full.days.length} ordinary days after the first sync on ${DATASET} at full size`;
  return [
    ...timeFigures(full, days),
    {
      name: 'snapshot of the first sync (every person written)',
      value: Math.round(full.first.ms),
      unit: 'ms',
      note: `load average ${full.loadBefore}`,
    },
    atMost(
      `history after a year of daily syncs, per 1,000 people (${DATASET} at full size, carried on)`,
      mb(year.perThousandPeoplePerYear),
      'MB',
      MB_PER_THOUSAND_PEOPLE_TARGET,
      `the first snapshot and ${days}, their bytes a day carried on to 365 syncs, no requirement change; ` +
        describe(full),
    ),
    {
      name: `history after a year of daily syncs, per site of ${DATASET} (full size, carried on)`,
      value: mb(year.perSitePerYear),
      unit: 'MB',
      note: `${mb(year.bytesPerYear)} MB a year for the ${full.cache.sites} sites`,
    },
  ];
}

export async function run(ctx: BenchContext): Promise<Figure[]> {
  try {
    const session = await cachedSession(ctx);
    // a copy of the synced profile: the simulated days never reach the cache the other benchmarks read
    const fork = await session.forkedContext();
    const page = await fork.newPage();
    await page.goto(session.benchUrl);
    const bench = benchPage(page);
    await bench.ready();
    ctx.log(
      `${DATASET} at full size: the first snapshot and ${FULL_DAYS} daily ones (load average ${load()})`,
    );
    const full = await simulate(ctx, bench, null, FULL_DAYS, [], page);
    const fullSize = fullFigures(full);
    // shown at once: the year on the sample takes long on a busy machine
    for (const f of fullSize)
      ctx.log(`${f.name}: ${f.value} ${f.unit}${f.target ? ` (target ${f.target})` : ''}`);
    ctx.log(`a year of daily snapshots on 1 in ${SAMPLE_EVERY} people (load average ${load()})`);
    const sample = await simulate(ctx, bench, SAMPLE_EVERY, YEAR_DAYS - 1, REQUIREMENT_DAYS);
    await page.close();
    return [...fullSize, ...yearFigures(sample, full)];
  } finally {
    await releaseSyncedSession(name);
  }
}
