/**
 * The scale benchmark's removal part: a second site added to the profile's kept
 * sites from the Settings view (which syncs it), then taken off again ("Save
 * sites"), timed from the click to "… removed from this laptop.", with the
 * longest main-thread task meanwhile (Long Tasks API, as import.bench.ts
 * measures it), and the cache compared with the server's data afterwards.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { cpuDelta, cpuSeconds, describeCpu, roundCpu } from './cpu-lib.ts';
import { describeSelfTime, selfTimeByFunction } from './cpu-profile-lib.ts';
import { LONG_TASKS } from './browser-lib.ts';
import type { BenchContext, Figure } from './lib.ts';
import { describeCounts, PART_PREFIX } from './scale-lib.ts';
import { timeSync, type ScaleSession, type Site } from './scale-session.ts';
import { cacheCounts, keepSites, strayInCache, syncNow, SYNC_TIMEOUT_MS } from './scale-one.ts';
import { atMost } from './sync-lib.ts';
import { load } from './synced-session-lib.ts';

const P = PART_PREFIX.remove;
const count = (n: number): string => n.toLocaleString('en-US');

async function cacheTotal(s: ScaleSession): Promise<number> {
  return Object.values(await cacheCounts(s)).reduce((a: number, b) => a + (b ?? 0), 0);
}

/** Ticks `site` in the Settings view's kept sites and saves: the sync that brings it in. */
async function addSite(s: ScaleSession, site: Site): Promise<void> {
  const app = await s.session.openApp('settings');
  try {
    const panel = app.getByRole('region', { name: 'Sites kept on this laptop' });
    await panel.getByRole('checkbox', { name: site.sitename, exact: true }).check({ timeout: 60_000 });
    await timeSync(s.session, app, 'Save sites', SYNC_TIMEOUT_MS);
  } finally {
    await app.close();
  }
}

/**
 * FIELDBOOK_SCALE_PROFILE=DIR: a CPU profile of the app's page during the removal, written there as removal.cpuprofile
 * and summed in the note (the profiler costs time of its own)
 */
const PROFILE_DIR = process.env.FIELDBOOK_SCALE_PROFILE;

interface Removal {
  ms: number;
  longest: number;
  longTasks: number;
  /** CPU seconds by process, and the profile's summary when profiled */
  where: string;
}

/**
 * Unticks `site` and saves, under the long-task observer: milliseconds to the panel's "removed" line, and the tasks
 * meanwhile.
 */
async function removeSite(s: ScaleSession, app: Page, site: Site): Promise<Removal> {
  const panel = app.getByRole('region', { name: 'Sites kept on this laptop' });
  await panel.getByRole('checkbox', { name: site.sitename, exact: true }).uncheck({ timeout: 60_000 });
  await app.evaluate(LONG_TASKS);
  const cdp = PROFILE_DIR ? await s.session.context.newCDPSession(app) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  const cpuBefore = cpuSeconds(s.session.server.pid);
  const start = await app.evaluate<number>('performance.now()');
  await panel.getByRole('button', { name: 'Save sites' }).click();
  await panel
    .getByRole('status')
    .filter({ hasText: `${site.sitename}: removed from this laptop.` })
    .waitFor({ timeout: SYNC_TIMEOUT_MS });
  const end = await app.evaluate<number>('performance.now()');
  let where = `CPU s by process: ${describeCpu(roundCpu(cpuDelta(cpuBefore, cpuSeconds(s.session.server.pid))))}`;
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(path.join(PROFILE_DIR!, 'removal.cpuprofile'), JSON.stringify(profile));
    where += `; the page's CPU profile (in ${PROFILE_DIR}): ${describeSelfTime(selfTimeByFunction(profile, 10))}`;
    await cdp.detach();
  }
  await app.waitForTimeout(200); // let the observer report the last task
  const tasks = await app.evaluate<Array<[number, number]>>('window.__longTasks');
  const during = tasks
    .filter(([at, duration]) => at + duration >= start && at <= end)
    .map(([, duration]) => duration);
  return {
    ms: end - start,
    longest: during.length ? Math.max(...during) : 0,
    longTasks: during.length,
    where,
  };
}

/** `oneRan`: the one-site part has run in this session (its site is kept and synced). */
export async function runRemoval(ctx: BenchContext, s: ScaleSession, oneRan: boolean): Promise<Figure[]> {
  const [kept, other] = s.data.sites as [Site, Site];
  if (!oneRan) {
    ctx.log(`${P}: keeping ${kept.sitename} and syncing it`);
    await keepSites(s, [kept.siteid]);
    await syncNow(s, kept);
  }
  ctx.log(`${P}: adding ${other.sitename} (${count(other.people)} people) from the Settings view; it syncs`);
  await addSite(s, other);
  const before = await cacheTotal(s);
  const app = await s.session.openApp('settings');
  let removal: Removal;
  const loadBefore = load();
  try {
    ctx.log(`${P}: taking ${other.sitename} off this laptop (${count(before)} records cached)`);
    removal = await removeSite(s, app, other);
  } finally {
    await app.close();
  }
  const loadNote = `load average ${loadBefore} -> ${load()}`;
  const after = await cacheTotal(s);
  const stray = await strayInCache(s, [kept.siteid]);
  const people = count(other.people);
  const removed = count(before - after);
  const cachedBefore = count(before);
  const took = Math.round(removal.ms);
  const profiled = PROFILE_DIR ? ', profiled' : '';
  const strayCounts = describeCounts(stray.stray);
  const missingCounts = describeCounts(stray.missing);
  return [
    atMost(
      `${P}: longest main-thread task`,
      Math.round(removal.longest),
      'ms',
      50,
      `${other.sitename}, ${people} people: ${removed} records removed of ${cachedBefore} in ${took} ms (click on "Save sites" to "removed from this laptop."); ${removal.longTasks} tasks over 50 ms (0 = none reported by the Long Tasks API)${profiled}; ${removal.where}; ${loadNote}`,
    ),
    {
      name: `${P}: time to remove`,
      value: took,
      unit: 'ms',
      note: `${removed} records; ${loadNote}`,
    },
    atMost(
      `${P}: records left that are not the kept site's`,
      stray.strayTotal,
      'records',
      0,
      `against the server's data for ${kept.sitename}: not its: ${strayCounts}; its records missing: ${missingCounts}`,
    ),
  ];
}
