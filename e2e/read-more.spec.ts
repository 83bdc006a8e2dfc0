/**
 * Long lists read the cache a page at a time (200 rows) and the next page as
 * the coordinator scrolls to the end. With renewals queued offline, some of the
 * first page's people leave the "expiring" list, so it shows fewer rows than it
 * read: it must still read on, to the last person, and its count line must
 * match its rows at every step. Dataset `m` (20,000 credential assignments):
 * the demo's expiring lists are shorter than a page.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { addProfile, goTo } from './support/ui.ts';
import { COUNT_LINE, countedIn } from './support/count-line.ts';
import { addDaysIso, todayIso } from '../src/shared/dates.ts';

test.use({ serverOptions: { dataset: 'm' } });

const changes = (n: number) => (n === 1 ? '1 change' : `${n.toLocaleString('en-US')} changes`);
/**
 * The list's count line as numbers: rows shown and rows counted ("181 of 935 holders (scroll for more)", "935
 * holders").
 */
const countLine = countedIn;

/** Rows in the grid (its row count less the header row). */
async function gridRows(list: Locator): Promise<number> {
  return Number(await list.getByRole('grid').getAttribute('aria-rowcount')) - 1;
}

/**
 * Working offline, renews (a year on) everyone the report finds expiring soon for its first credential; returns how
 * many.
 */
async function renewOneCredentialOffline(app: Page): Promise<number> {
  await app.getByRole('banner').getByRole('switch', { name: 'Work offline' }).check();
  await app.goto(`${app.url().split('#')[0]}#/report`);
  const act = app.getByRole('region', { name: 'Act on the findings' });
  await act.getByLabel('Finding').selectOption('Expires soon');
  const picker = act.getByRole('combobox', { name: 'Credential', exact: true });
  const option = picker.locator('option').nth(1);
  const people = Number(
    /([\d,]+) (?:person|people)\)?$/.exec((await option.textContent()) ?? '')![1]!.replace(/,/g, ''),
  );
  await picker.selectOption((await option.getAttribute('value'))!);
  await act.getByRole('button', { name: `Select all ${people} matching` }).click();
  await act.getByLabel(/^Expiration date/).fill(addDaysIso(todayIso(), 365));
  await act.getByRole('button', { name: 'Preview' }).click();
  await act.getByRole('button', { name: `Queue ${changes(people)}` }).click();
  await expect(
    app.getByRole('status').filter({ hasText: new RegExp(`^Queued ${changes(people)}`) }),
  ).toBeVisible();
  return people;
}

test('with renewals queued offline, the expiring list reads on to its last person as the coordinator scrolls, its count matching its rows', async ({
  app,
  api,
  fullToken,
}) => {
  test.setTimeout(240_000);
  await addProfile(app, { name: 'Plant', baseUrl: api.baseUrl, token: fullToken });
  expect(await renewOneCredentialOffline(app)).toBeGreaterThan(0);

  await goTo(app, 'Credentials');
  const list = app.getByRole('region', { name: 'Holders: All credentials' });
  await expect(list.getByRole('status').filter({ hasText: /scroll for more\)$/ })).toBeVisible();
  const first = await countLine(list);
  // the renewed people left the first page: it shows fewer than the 200 it read
  expect(first.shown).toBeLessThan(200);
  expect(await gridRows(list)).toBe(first.shown);
  await app.screenshot({ path: test.info().outputPath('first-page.png') });

  let line = first;
  for (let step = 0; line.shown < line.total && step < 20; step++) {
    const before = line.shown;
    await list.getByRole('grid').press('End');
    await expect.poll(async () => (await countLine(list)).shown).toBeGreaterThan(before);
    line = await countLine(list);
    expect(await gridRows(list)).toBe(line.shown);
  }
  expect(line.shown).toBe(first.total);
  await expect(list.getByRole('status').filter({ hasText: COUNT_LINE })).toHaveText(
    new RegExp(`^${first.total.toLocaleString('en-US')} `),
  );
  await app.screenshot({ path: test.info().outputPath('every-page.png') });
});
