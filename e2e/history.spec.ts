/**
 * The compliance history in Chromium: the laptop syncs the demo on two days with
 * a day between (the page's clock is set to each day), then the dashboard's trend
 * shows the two days with a gap between them, and the report as of the day
 * between says how it was rebuilt and names the syncs on either side; a day before
 * the first sync says the history does not reach it.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { addProfile, goTo, syncNow } from './support/ui.ts';

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

test('the trend shows the days synced with a gap between, and the report as of a past day says how it was rebuilt', async ({
  app,
  api,
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
});
