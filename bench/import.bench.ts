/**
 * The import in Chromium under the app's CSP (the browser harness, as the e2e):
 * a 50,000-row XLSX (10 columns) and a 100,000-row CSV, both made by
 * LibreOffice / the fixture script, dropped on the Import view. Figures: time
 * from the drop to the preview, and the longest main-thread task (Long Tasks
 * API) while reading, during a mapping change and while queueing.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { fileDataTransfer } from '../e2e/support/drop.ts';
import { makeBig } from '../scripts/make-import-fixtures.mjs';
import { LONG_TASKS } from './browser-lib.ts';
import type { BenchContext, Figure } from './lib.ts';
import { startBenchSession, syncFromClick } from './session-lib.ts';
import { atMost } from './sync-lib.ts';
import { load } from './synced-session-lib.ts';

export const name = 'import';
export const description = 'import of a 50,000-row XLSX and a 100,000-row CSV in Chromium under the app CSP: time to preview, longest main-thread task while reading, mapping and queueing';

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
  longTasks: number;
}

/** Runs `act` and waits for the summary (or status) to show `text`: the time it took and the long tasks meanwhile. */
async function phase(page: Page, text: string, act: () => Promise<void>): Promise<Phase> {
  const start = await page.evaluate<number>('performance.now()');
  const done = page.evaluate<number>(WHEN_SUMMARY(text));
  done.catch(() => undefined); // reported by the await below, unless act() fails first
  await act();
  const end = await Promise.race([done, page.waitForTimeout(180_000).then(() => Promise.reject(new Error(`"${text}" did not show within 3 minutes`)))]);
  await page.waitForTimeout(200); // let the long-task observer report the last task
  const tasks = await page.evaluate<Array<[number, number]>>('window.__longTasks');
  const during = tasks.filter(([at, duration]) => at + duration >= start && at <= end).map(([, duration]) => duration);
  return { ms: end - start, longestTaskMs: during.length ? Math.max(...during) : 0, longTasks: during.length };
}

const round = (n: number) => Math.round(n);
const taskFigure = (label: string, p: Phase, loadNote: string) =>
  atMost(`longest main-thread task ${label}`, round(p.longestTaskMs), 'ms', 50, `${p.longTasks} tasks over 50 ms (0 = none reported by the Long Tasks API); ${loadNote}`);

export async function run(ctx: BenchContext): Promise<Figure[]> {
  ctx.log('making the files (LibreOffice for the XLSX; cached in the temp folder)');
  const xlsx = await readFile(makeBig(50_000));
  const csv = await readFile(makeBig(100_000, 'csv'));
  const session = await startBenchSession(ctx, 'tiny');
  try {
    const app = await session.openApp('settings');
    await syncFromClick(session, app, 'Try the demo', 0, 120_000);
    await app.goto(`${session.harness.url}#/import`);
    await app.getByRole('heading', { name: 'Import employees' }).waitFor();
    await app.evaluate(LONG_TASKS);
    const figures: Figure[] = [];

    const csvDrop = await fileDataTransfer(app, 'people-100000.csv', csv);
    const beforeCsv = load();
    ctx.log(`CSV: dropping 100,000 rows (load average ${beforeCsv})`);
    const csvReading = await phase(app, '100,000 to create', () => app.locator('.import-view').dispatchEvent('drop', { dataTransfer: csvDrop }));
    const csvNote = `load average ${beforeCsv} → ${load()}`;
    figures.push(atMost('CSV 100,000 rows x 10 columns: drop to preview', round(csvReading.ms), 'ms', 1500, csvNote));
    figures.push(taskFigure('while reading the CSV', csvReading, csvNote));
    const xlsxDrop = await fileDataTransfer(app, 'people-50000.xlsx', xlsx);
    const before = load();
    ctx.log(`XLSX: dropping 50,000 rows (load average ${before})`);
    const reading = await phase(app, '50,000 to create', () => app.locator('.import-view').dispatchEvent('drop', { dataTransfer: xlsxDrop }));
    const loadNote = () => `load average ${before} → ${load()}`;
    figures.push(atMost('XLSX 50,000 rows x 10 columns: drop to preview', round(reading.ms), 'ms', 3000, loadNote()));
    figures.push(taskFigure('while reading the XLSX', reading, loadNote()));

    ctx.log('mapping change: the Last name column is unmapped, then mapped again');
    const unmapped = await phase(app, '50,000 invalid', async () => {
      await app.getByRole('combobox', { name: /^Last name/ }).selectOption({ label: '(not in the file)' });
    });
    const remapped = await phase(app, '50,000 to create', async () => {
      await app.getByRole('combobox', { name: /^Last name/ }).selectOption({ label: 'Surname' });
    });
    const worse = unmapped.longestTaskMs >= remapped.longestTaskMs ? unmapped : remapped;
    figures.push({ name: 'mapping change on 50,000 rows: to the new preview', value: round(Math.max(unmapped.ms, remapped.ms)), unit: 'ms', note: loadNote() });
    figures.push(taskFigure('during a mapping change', worse, loadNote()));

    ctx.log('queueing the 50,000 creates (and their e-mails)');
    const queueing = await phase(app, 'Queued', () => app.getByRole('button', { name: 'Queue 50,000 rows' }).click());
    figures.push({ name: 'queueing 50,000 creates + 50,000 e-mails (one batch)', value: round(queueing.ms), unit: 'ms', note: loadNote() });
    figures.push(taskFigure('while queueing', queueing, loadNote()));

    return figures;
  } finally {
    await session.close();
  }
}
