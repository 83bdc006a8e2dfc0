/**
 * Acting on what the report and the dashboard find, on the demo dataset: the
 * report's people with a finding are selected and renewed from the report (the
 * number queued is the number the report showed, and the server has the new
 * date); a week's bar of the dashboard's expiry chart opens the holders
 * expiring that week, as many as the bar says, selectable. Every expected
 * number is read from the view or the server, never typed in.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { addProfile, goTo, openHash, syncNow } from './support/ui.ts';
import { countedIn } from './support/count-line.ts';
import { axeViolations } from './support/axe.ts';
import { addDaysIso, toIsoDate, todayIso } from '../src/shared/dates.ts';
import { chromiumPdfOptions } from '../src/shared/report-pdf.ts';

const run = promisify(execFile);

test.use({ serverOptions: { dataset: 'demo', admin: true } });

test.beforeEach(async ({ app, api, fullToken }) => {
  test.setTimeout(150_000);
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
});

const count = (text: string | null): number =>
  Number(/([\d,]+) (?:person|people)\)?$/.exec(text ?? '')![1]!.replace(/,/g, ''));
const people = (n: number) => (n === 1 ? '1 person' : `${n.toLocaleString('en-US')} people`);
const changes = (n: number) => (n === 1 ? '1 change' : `${n.toLocaleString('en-US')} changes`);

/** The picker's option with the most people (options list them most first), its value and number. */
async function firstItem(picker: Locator): Promise<{ value: string; name: string; people: number }> {
  const option = picker.locator('option').nth(1);
  const text = (await option.textContent())!;
  return {
    value: (await option.getAttribute('value'))!,
    name: text.replace(/ \([\d,]+ (?:person|people)\)$/, ''),
    people: count(text),
  };
}

test('the report’s people whose credential expires soon are selected from the report and renewed: the number queued is the number it showed', async ({
  app,
  server,
}, testInfo) => {
  // a selection, two axe passes, a print emulation, then the replay to the server: a minute alone, more beside
  // another worker on two cores (it met the 60 s default in the full run)
  test.setTimeout(180_000);
  await openHash(app, '#/report');
  const report = app.getByRole('article', { name: 'Report' });
  const act = app.getByRole('region', { name: 'Act on the findings' });
  await act.getByLabel('Finding').selectOption('Expires soon');
  // the report's own count of these people is the count the picker offers
  const inSummary = Number(
    (await report
      .getByRole('table', { name: 'Findings by type' })
      .getByRole('row', { name: /^Expires soon / })
      .getByRole('cell')
      .first()
      .textContent())!.replace(/,/g, ''),
  );
  const all = act.getByRole('combobox', { name: 'Credential', exact: true });
  expect(count(await all.locator('option').first().textContent())).toBe(inSummary);
  const item = await firstItem(all);
  expect(item.people).toBeGreaterThan(0);
  await all.selectOption(item.value);
  await expect(
    act
      .getByRole('status')
      .filter({ hasText: /people|person/ })
      .first(),
  ).toHaveText(people(item.people));

  await act.getByRole('button', { name: `Select all ${item.people} matching` }).click();
  await expect(act.getByRole('status').filter({ hasText: /selected/ })).toHaveText(
    `${people(item.people)} selected`,
  );
  // the bulk panel starts on renewing that credential: only the new date is typed
  const credentialid = Number(item.value.split(':')[1]);
  await expect(act.getByLabel('Bulk action')).toHaveValue('credential');
  await expect(act.getByLabel('Assign a credential', { exact: true })).toHaveValue(String(credentialid));
  const renewed = addDaysIso(todayIso(), 730);
  await act.getByLabel(/^Expiration date/).fill(renewed);
  await act.getByRole('button', { name: 'Preview' }).click();
  await expect(act.getByRole('region', { name: 'Preview' })).toContainText(
    `${changes(item.people)} to queue`,
  );
  for (const colorScheme of ['dark', 'light'] as const) {
    await app.emulateMedia({ colorScheme });
    expect(await axeViolations(app), `report with a selection (${colorScheme})`).toEqual([]);
    await app.screenshot({ path: testInfo.outputPath(`report-selection-${colorScheme}.png`) });
  }
  // printed, the report has no list to act on and no checkbox
  await app.emulateMedia({ media: 'print' });
  await expect(act).toBeHidden();
  await expect(report.getByRole('checkbox')).toHaveCount(0);
  await app.emulateMedia({ media: 'screen' });

  await act.getByRole('button', { name: `Queue ${changes(item.people)}` }).click();
  await expect(
    app.getByRole('status').filter({ hasText: new RegExp(`^Queued ${changes(item.people)}`) }),
  ).toBeFocused();
  // renewed, they no longer expire soon: the credential leaves the picker
  await expect(
    all.locator('option', {
      hasText: new RegExp(`^${item.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`),
    }),
  ).toHaveCount(0);

  const onServer = () =>
    server
      .query<{ expirationdate: string }>(
        'SELECT expirationdate FROM credential_assignments WHERE credentialid = ?',
        credentialid,
      )
      .filter((a) => toIsoDate(a.expirationdate) === renewed).length;
  await expect.poll(onServer, { timeout: 45_000 }).toBe(item.people);
});

test('working offline, the changes the report includes are counted as the Outbox and the header count them', async ({
  app,
}) => {
  const header = app.getByRole('banner');
  await header.getByRole('switch', { name: 'Work offline' }).check();
  await openHash(app, '#/report');
  const report = app.getByRole('article', { name: 'Report' });
  const act = app.getByRole('region', { name: 'Act on the findings' });
  await act.getByLabel('Finding').selectOption('Expires soon');
  const item = await firstItem(act.getByRole('combobox', { name: 'Credential', exact: true }));
  await act.getByRole('combobox', { name: 'Credential', exact: true }).selectOption(item.value);
  await act.getByRole('button', { name: `Select all ${item.people} matching` }).click();
  await act.getByLabel(/^Expiration date/).fill(addDaysIso(todayIso(), 365));
  await act.getByRole('button', { name: 'Preview' }).click();
  await act.getByRole('button', { name: `Queue ${changes(item.people)}` }).click();
  const n = item.people;
  await expect(
    header.getByRole('status', { name: `Connection: Working offline — ${changes(n)} waiting` }),
  ).toBeVisible();
  await expect(
    app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: `Outbox (${n})` }),
  ).toBeVisible();
  await expect(report.locator('.report-pending')).toHaveText(
    n === 1
      ? 'Includes the change in the Outbox, not yet on the platform.'
      : `Includes all ${changes(n)} in the Outbox, not yet on the platform.`,
  );

  // a change the report does not show (someone of another site): the Outbox has one more, the report says which it
  // includes
  const reportSite = await app
    .getByRole('combobox', { name: 'Site' })
    .locator('option:checked')
    .textContent();
  await goTo(app, 'Users');
  const siteFilter = app.getByRole('combobox', { name: 'Site' });
  await expect(siteFilter.locator('option', { hasText: reportSite! })).toHaveCount(1);
  const otherSite = (await siteFilter.locator('option').allTextContents()).find(
    (t) => t !== 'All sites' && t !== reportSite,
  )!;
  await siteFilter.selectOption({ label: otherSite });
  await app.getByRole('combobox', { name: 'Status', exact: true }).selectOption('Active');
  await expect(app.getByRole('grid', { name: 'Users' }).getByRole('row').nth(1)).toContainText(otherSite);
  await app.getByRole('grid', { name: 'Users' }).getByRole('row').nth(1).click();
  await app.getByLabel('Bulk action').selectOption({ label: 'Change status' });
  await app.getByLabel('New status').selectOption('Inactive');
  await app.getByRole('button', { name: 'Preview' }).click();
  await app.getByRole('button', { name: 'Queue 1 change' }).click();
  await expect(
    header.getByRole('status', { name: `Connection: Working offline — ${changes(n + 1)} waiting` }),
  ).toBeVisible();
  await goTo(app, 'Report');
  const waiting = changes(n + 1);
  await expect(report.locator('.report-pending')).toHaveText(
    `Includes ${n} of the ${waiting} in the Outbox, not yet on the platform; the other one is about what this report does not show (access, e-mails, other people).`,
  );
});

test('the report’s first page carries the summary and the first group’s people, not a blank two thirds', async ({
  app,
}) => {
  await openHash(app, '#/report');
  await expect(
    app.getByRole('article', { name: 'Report' }).getByRole('table', { name: 'Findings by type' }),
  ).toBeVisible();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-act-'));
  try {
    const pdf = path.join(dir, 'report.pdf');
    await app.pdf({ path: pdf, ...chromiumPdfOptions('A4') });
    const firstPage = (await run('pdftotext', ['-layout', '-f', '1', '-l', '1', pdf, '-'])).stdout;
    expect(firstPage).toMatch(/Group\s+People\s+Compliant/);
    expect(firstPage).toMatch(/Person\s+Employee ID\s+Findings/);
    expect(firstPage).not.toContain('Act on the findings');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** The number a holders list counts ("12 holders", "500 of 1,234 credentials held (scroll for more)"). */
async function holdersCounted(page: Page): Promise<number> {
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
  return (await countedIn(page.locator('body'))).total;
}

test('a week’s bar of the expiry chart opens the holders expiring that week, as many as the bar says, to select', async ({
  app,
}, testInfo) => {
  await goTo(app, 'Dashboard');
  const chart = app.getByRole('figure', { name: /^Credentials expiring in the next 12 weeks/ });
  await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await app.screenshot({ path: testInfo.outputPath('dashboard-chart.png'), fullPage: true });
  for (const colorScheme of ['dark', 'light'] as const) {
    await app.emulateMedia({ colorScheme });
    expect(await axeViolations(app), `dashboard (${colorScheme})`).toEqual([]);
    await chart.screenshot({ path: testInfo.outputPath(`dashboard-chart-${colorScheme}.png`) });
  }
  await chart.locator('summary').click();
  const rows = chart.getByRole('table', { name: 'Credentials expiring by week' }).getByRole('row');
  const weeks: { href: string; value: number }[] = [];
  for (const row of await rows.all())
    weeks.push({
      href: (await row.getByRole('link').getAttribute('href'))!,
      value: Number((await row.getByRole('cell').textContent())!.replace(/,/g, '')),
    });
  expect(weeks).toHaveLength(12);
  // the count stands on each bar
  expect(await chart.locator('.recharts-label-list text').allTextContents()).toEqual(
    weeks.map((w) => String(w.value)),
  );

  // a bar, clicked
  const busiest = weeks.reduce((best, w, i) => (w.value > weeks[best]!.value ? i : best), 0);
  expect(weeks[busiest]!.value).toBeGreaterThan(0);
  await chart.locator('.recharts-bar-rectangle').nth(busiest).click();
  await expect(app).toHaveURL(new RegExp(`${weeks[busiest]!.href}$`));
  expect(await holdersCounted(app)).toBe(weeks[busiest]!.value);
  const holders = app.getByRole('region', { name: 'Holders: All credentials' });
  await expect(holders.getByLabel('Show')).toHaveValue(`week:${weeks[busiest]!.href.split('/').pop()}`);
  await holders
    .getByRole('button', { name: `Select all ${weeks[busiest]!.value.toLocaleString('en-US')} matching` })
    .click();
  await expect(holders.getByRole('status').filter({ hasText: /selected/ })).toContainText('selected');
  await expect(holders.getByLabel('Bulk action')).toHaveValue('renew');
  await app.screenshot({ path: testInfo.outputPath('week-holders.png') });

  // every other week through its link in the table of numbers (the keyboard's way)
  for (const [i, week] of weeks.entries()) {
    if (i === busiest) continue;
    await goTo(app, 'Dashboard');
    await chart.locator('summary').click();
    await chart
      .getByRole('table', { name: 'Credentials expiring by week' })
      .getByRole('row')
      .nth(i)
      .getByRole('link')
      .press('Enter');
    await expect(app).toHaveURL(new RegExp(`${week.href}$`));
    expect(await holdersCounted(app), week.href).toBe(week.value);
  }
});

test('a slice of the users-by-status chart opens the users of that status', async ({ app }) => {
  await goTo(app, 'Dashboard');
  const key = app.getByRole('list', { name: 'Users by status: key' }).getByRole('link').first();
  const figure = Number((await key.locator('.figure-value').textContent())!.replace(/,/g, ''));
  // (a slice's box may lie over another slice: the click goes to the slice itself)
  await app
    .getByRole('figure', { name: 'Users by status' })
    .locator('.recharts-pie-sector path')
    .first()
    .dispatchEvent('click');
  await expect(app.getByRole('status').filter({ hasText: / users$/ })).toHaveText(
    new RegExp(`^${figure.toLocaleString('en-US')}( of [\\d,]+)? users$`),
  );
});
