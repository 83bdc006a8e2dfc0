/**
 * What a user does, in the user's words, found by roles and labels (the specs
 * never reach into the renderer's code).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { COUNT_PAGE_RECORDS } from './browser-scripts.ts';

export type Tab =
  | 'Users'
  | 'Credentials'
  | 'Training'
  | 'Access'
  | 'Dashboard'
  | 'Since last sync'
  | 'Requirements'
  | 'Report'
  | 'Outbox'
  | 'Conflicts'
  | 'Import'
  | 'Connection & sync';
export const ALL_TABS: readonly Tab[] = [
  'Users',
  'Credentials',
  'Training',
  'Access',
  'Dashboard',
  'Since last sync',
  'Requirements',
  'Report',
  'Outbox',
  'Conflicts',
  'Import',
  'Connection & sync',
];

/** A tab's name, with the count some tabs carry ("Outbox (12)"). */
export function tabName(tab: Tab): RegExp {
  return new RegExp(`^${tab.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?: \\([\\d,]+\\))?$`);
}

/**
 * Opens a tab, and makes sure it opened: a click that lands while the window
 * re-lays out (a profile just added, a busy machine) may miss the link, as a
 * user's would; the user clicks again.
 */
export async function goTo(page: Page, tab: Tab): Promise<void> {
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: tabName(tab) });
  // (clicked at least once: on a tab's own sub-page, the tab goes back to its list)
  await link.click();
  await expect(async () => {
    if ((await link.getAttribute('aria-current')) !== 'page') await link.click();
    await expect(link).toHaveAttribute('aria-current', 'page', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** "Try the demo" syncs straight away; resolves when that sync has completed. */
export async function tryTheDemo(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Try the demo' }).click();
  // the demo opens on the dashboard once its profile is on: a tab opened before that would be left for it
  const main = page.getByRole('navigation', { name: 'Main' });
  await expect(main.getByRole('link', { name: tabName('Dashboard') })).toHaveAttribute(
    'aria-current',
    'page',
    {
      timeout: 30_000,
    },
  );
  await goTo(page, 'Connection & sync');
  await expectSyncOutcome(page, 'Sync completed.');
}

export async function addProfile(
  page: Page,
  profile: { name: string; baseUrl: string; token: string },
): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a profile' });
  await form.getByLabel('Profile name').fill(profile.name);
  await form.getByLabel('Base URL').fill(profile.baseUrl);
  await form.getByLabel('API token').fill(profile.token);
  await form.getByRole('button', { name: 'Add profile' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  // a new profile starts its first sync by itself: the test goes on once that pass has ended, however it ended
  const outcome = page
    .getByRole('status')
    .filter({ hasText: /^Sync (completed\.|completed with errors:|failed\.|paused:) .*records? written/ });
  await waitForSyncEnd(outcome, `the first sync of ${profile.name}`);
}

/**
 * How long a test waits for a sync to end. Generous on purpose: on a busy
 * machine (CI at a load average of 10-15) the first sync of dataset m took
 * over the 45 s this used to be; a sync that never ends still fails the test.
 */
const SYNC_END_LIMIT_MS = 5 * 60_000;

/**
 * Waits for a sync's outcome line, with the test's own time extended by as
 * long (the wait is not the test's budget), and notes on the test how long
 * the sync took (an annotation, in every reporter's results).
 */
async function waitForSyncEnd(outcome: Locator, what: string): Promise<void> {
  const info = test.info();
  info.setTimeout(info.timeout + SYNC_END_LIMIT_MS);
  const started = Date.now();
  await expect(outcome).toBeVisible({ timeout: SYNC_END_LIMIT_MS });
  info.annotations.push({
    type: 'sync time',
    description: `${what} ended in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  });
}

export async function startSync(page: Page): Promise<void> {
  await goTo(page, 'Connection & sync');
  await page.getByRole('button', { name: /^(Sync now|Resume sync)$/ }).click();
}

export async function expectSyncOutcome(
  page: Page,
  outcome: 'Sync completed.' | 'Sync paused:' | 'Sync failed.',
): Promise<void> {
  // the outcome line ("Sync completed. 441 records written.", "… 1 record written."), not the live progress line
  const line = new RegExp(`^${outcome.replace('.', '\\.')} .*records? written`);
  await waitForSyncEnd(page.getByRole('status').filter({ hasText: line }), `a sync ("${outcome}")`);
}

export async function syncNow(page: Page): Promise<void> {
  await startSync(page);
  await expectSyncOutcome(page, 'Sync completed.');
}

/** The users list's count line, e.g. "12 of 40 users". */
/**
 * Runs an expectation; when it fails, its error also gives the text the window showed (its header and main
 * region): a CI run keeps only its log, not the screenshot.
 */
export async function withWindowText(page: Page, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    const text = async (where: Locator) => where.innerText({ timeout: 2_000 }).catch(() => '(not readable)');
    const shown = `${await text(page.getByRole('banner'))}\n${await text(page.locator('#main'))}`;
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\n\nThe window showed:\n${shown.slice(0, 2_000)}`, { cause: error });
  }
}

export function usersCount(page: Page) {
  return page.getByRole('status').filter({ hasText: / users$/ });
}

export function usersGrid(page: Page) {
  return page.getByRole('grid', { name: 'Users' });
}

/** Records per object store, summed over the app's databases (one per profile). */
export async function cachedCounts(page: Page): Promise<Record<string, number>> {
  const perDatabase = await page.evaluate<Record<string, Record<string, number>>>(COUNT_PAGE_RECORDS);
  const totals: Record<string, number> = {};
  for (const [name, stores] of Object.entries(perDatabase)) {
    if (!name.startsWith('fieldbook-')) continue;
    for (const [store, count] of Object.entries(stores)) totals[store] = (totals[store] ?? 0) + count;
  }
  return totals;
}

/**
 * Active people sharing the first active person's last name set Inactive from the bulk bar; resolves to how many were
 * queued.
 */
export async function queueStatusChangeForSomeActivePeople(page: Page): Promise<number> {
  await goTo(page, 'Users');
  await expect(usersCount(page)).toHaveText(/^[\d,]+ of [\d,]+ users$/);
  // each filter is seen applied (the count moves) before the list is read
  const selectAll = page.getByRole('button', { name: /^Select all [\d,]+ matching$/ });
  const everyone = await selectAll.innerText();
  await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('Active');
  await expect(selectAll).not.toHaveText(everyone);
  const active = await selectAll.innerText();
  const name = (await usersGrid(page).getByRole('row').nth(1).getByRole('link').first().innerText()).trim();
  await page.getByLabel('Search users').fill(name.split(',')[0]!);
  await expect(selectAll).not.toHaveText(active);
  const count = Number((await selectAll.innerText()).replace(/[^\d]/g, ''));
  await selectAll.click();
  await page.getByLabel('Bulk action').selectOption({ label: 'Change status' });
  await page.getByLabel('New status').selectOption('Inactive');
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByRole('button', { name: /^Queue [\d,]+ changes?$/ }).click();
  return count;
}

/** Opens an address of the app (`#/credentials/42`) as a link would, reloading the page. */
export async function openHash(app: Page, hash: string): Promise<void> {
  await app.goto(`${app.url().split('#')[0]}${hash}`);
}
