/**
 * The compliance history in Chromium: the laptop syncs the demo on two days with
 * a day between (the page's clock is set to each day), then the dashboard's trend
 * shows the two days with a gap between them, and the report as of the day
 * between says how it was rebuilt and names the syncs on either side; a day before
 * the first sync says the history does not reach it; and who held a credential on the
 * day between is the list the server's own data gives for that day.
 */
import type { Locator, Page } from '@playwright/test';
import type { ReferenceServer } from './fixtures.ts';
import { expect, test } from './fixtures.ts';
import { addProfile, goTo, openHash, syncNow } from './support/ui.ts';

test.use({ serverOptions: { dataset: 'demo', admin: true } });

const daysAgo = (n: number) => {
  const d = new Date();
  d.setDate(d.getDate() - n);
  d.setHours(12, 0, 0, 0);
  return d;
};
const iso = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

async function reportAsOf(app: Page, day: Date) {
  await goTo(app, 'Report');
  await app.getByLabel('As of').fill(iso(day));
  return app.getByRole('article', { name: 'Report' });
}

/** The credential with the most holders expired on `day`, and who held it valid that day, from the server's data. */
function credentialOn(server: ReferenceServer, day: string) {
  const [chosen] = server.query<{ credentialid: number; credentialname: string }>(
    `SELECT c.credentialid, c.credentialname FROM credentials c JOIN credential_assignments a USING (credentialid)
     GROUP BY c.credentialid ORDER BY SUM(a.expirationdate <> '' AND a.expirationdate < ?) DESC LIMIT 1`,
    day,
  );
  const holders = server.query<{ lastname: string; firstname: string }>(
    `SELECT u.lastname, u.firstname FROM credential_assignments a JOIN users u USING (userid)
     WHERE a.credentialid = ? AND (a.startdate = '' OR a.startdate <= ?)
     AND (a.expirationdate = '' OR a.expirationdate >= ?)`,
    chosen!.credentialid,
    day,
    day,
  );
  return { ...chosen!, holders };
}

test('the trend shows the days synced with a gap between, and the report as of a past day says how it was rebuilt', async ({
  app,
  api,
  server,
  fullToken,
}, testInfo) => {
  test.setTimeout(300_000);
  const [first, between, second] = [daysAgo(3), daysAgo(2), daysAgo(1)];
  await app.clock.setFixedTime(first);
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  await app.clock.setFixedTime(second);
  await syncNow(app);

  await goTo(app, 'Dashboard');
  const trend = app.getByRole('figure', { name: /% of active people compliant, by site/ });
  await expect(trend).toBeVisible();
  await expect(trend.locator('.recharts-line')).not.toHaveCount(0);
  await trend.getByText('Numbers').click();
  const rows = trend.getByRole('table').getByRole('row');
  // the header and the two days synced: the day between is a gap, not a row
  await expect(rows).toHaveCount(3);
  // the table's sites in the legend's order
  const legend = await trend.locator('.recharts-legend-item-text').allInnerTexts();
  expect(legend.length).toBeGreaterThan(1);
  await expect(trend.getByRole('columnheader')).toHaveText(['Day', ...legend]);
  await trend.screenshot({ path: testInfo.outputPath('trend.png') });

  const report = await reportAsOf(app, between);
  await expect(report).toContainText(/As of /);
  await expect(report).toContainText("Rebuilt from this laptop's syncs since its first sync");
  await expect(report).toContainText(/No sync on .*: shown as the sync of .* left it/);
  await expect(report.getByText(/people, .* compliant|compliant/).first()).toBeVisible();
  // a past day's people are shown, not acted on: no list to select from
  await expect(app.getByRole('heading', { name: 'Act on the findings' })).toHaveCount(0);
  await report.locator('header').screenshot({ path: testInfo.outputPath('report-as-of.png') });

  const before = await reportAsOf(app, daysAgo(5));
  await expect(before).toContainText('The history does not reach');

  // the auditor's question: who held a valid card on the day between, as the server's data had it then
  const credential = credentialOn(server, iso(between));
  await openHash(app, `#/credentials/${credential.credentialid}`);
  const held = app.getByRole('region', { name: `Who held ${credential.credentialname} on a past day` });
  await held.getByLabel('Day').fill(iso(between));
  const people = credential.holders.length;
  await expect(held.getByRole('status')).toHaveText(
    `${people} ${people === 1 ? 'person' : 'people'} held a valid ${credential.credentialname} on ` +
      `${between.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })}.`,
  );
  await expect(held).toContainText(/No sync on .*: shown as the sync of .* left it/);
  const firstHolder = [...credential.holders].sort(
    (a, b) => a.lastname.localeCompare(b.lastname) || a.firstname.localeCompare(b.firstname),
  )[0]!;
  await expect(held.getByRole('row').nth(1)).toContainText(
    `${firstHolder.lastname}, ${firstHolder.firstname}`,
  );
  await held.screenshot({ path: testInfo.outputPath('held-on-day.png') });

  // a day before the first sync has no answer: never "0 people held"
  await held.getByLabel('Day').fill(iso(daysAgo(5)));
  await expect(held.getByRole('status')).toHaveText(/^Not known: this laptop's history does not reach /);
});

/** The report's text but its line naming the history's first sync (which a drop moves). */
async function reportBody(report: Locator): Promise<string> {
  await expect(report).toContainText('No sync on');
  const lines = (await report.innerText()).split('\n');
  return lines.filter((line) => !line.startsWith("Rebuilt from this laptop's syncs")).join('\n');
}

test('history older than the horizon is offered for export, dropped only when asked twice, and the days after it stay', async ({
  app,
  api,
  fullToken,
}, testInfo) => {
  test.setTimeout(300_000);
  const [oldest, older, recent] = [daysAgo(3 * 365), daysAgo(Math.round(2.5 * 365)), daysAgo(1)];
  await app.clock.setFixedTime(oldest);
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  await app.clock.setFixedTime(older);
  await syncNow(app);
  await app.clock.setFixedTime(recent);
  await syncNow(app);
  const between = daysAgo(400);
  const kept = await reportBody(await reportAsOf(app, between));

  await goTo(app, 'Dashboard');
  const trend = app.getByRole('figure', { name: /% of active people compliant, by site/ });
  await trend.getByText('Older history').click();
  await expect(trend.getByText(/1 sync before .* can be dropped/)).toBeVisible();
  await trend.getByRole('button', { name: 'Drop the older history…' }).click();
  const ask = app.getByRole('alertdialog', { name: 'Drop the older history' });
  await expect(ask).toContainText('They are kept nowhere else');
  await expect(ask.getByRole('button', { name: 'Export the history first (XLSX)' })).toBeVisible();
  await ask.screenshot({ path: testInfo.outputPath('drop-older-history.png') });
  await ask.getByRole('button', { name: 'Drop them' }).click();
  await expect(trend.getByRole('status')).toHaveText(/^1 sync dropped: the history now starts on /);

  // the first sync's day is gone; a day after the new start is rebuilt as before
  const gone = await reportAsOf(app, oldest);
  await expect(gone).toContainText(/The history does not reach .*: what was known of that day was dropped/);
  await expect(gone.locator('header')).toContainText('data as of no sync kept for that day');
  await gone.locator('header').screenshot({ path: testInfo.outputPath('report-before-the-drop.png') });
  const after = await reportAsOf(app, between);
  await expect(after).toContainText(/the history before it was dropped on /);
  expect(await reportBody(after)).toBe(kept);
});
