/**
 * What a coordinator trips over walking through a day with the demo data, at the
 * laptop sizes they use (1280×800 and 1024×640): words cut short in a list.
 * Expected texts are read from the data, never typed in.
 */
import { expect, test } from './fixtures.ts';
import { addProfile, goTo, syncNow } from './support/ui.ts';
import { addDaysIso, todayIso } from '../src/shared/dates.ts';
import { clippedCells } from './support/grid.ts';

test.use({ serverOptions: { dataset: 'demo', admin: true } });

test.beforeEach(async ({ app, api, fullToken }) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
});

test('a credential’s holders show their whole expiry ("expired 68 days ago"), not cut short, at 1280×800 and 1024×640', async ({
  app,
  server,
}) => {
  // the credential with an expired holder whose expiry is longest ago
  const credential = server.query<{ credentialid: number; credentialname: string }>(
    "SELECT c.credentialid, c.credentialname FROM credentials c JOIN credential_assignments a ON a.credentialid = c.credentialid WHERE a.expirationdate <> '' ORDER BY substr(a.expirationdate, 7, 4) || substr(a.expirationdate, 1, 2) || substr(a.expirationdate, 4, 2) LIMIT 1",
  )[0]!;
  await app.goto(`${app.url().split('#')[0]}#/credentials/${credential.credentialid}`);
  const grid = `Holders of ${credential.credentialname}`;
  const first = app.getByRole('grid', { name: grid }).getByRole('row').nth(1);
  await expect(first).toContainText(/expired \d+ days ago/);
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 640 },
  ]) {
    await app.setViewportSize(size);
    await expect.poll(() => clippedCells(app, grid, 'Expires'), `${size.width}×${size.height}`).toEqual([]);
  }
});

test('a holder’s state reads the same in every list: one expiring in 60 days is “Valid” in a week’s list as in its credential’s list (“soon” is 30 days)', async ({
  app,
}) => {
  const today = todayIso();
  // the dashboard's week 9 of 12, all of it beyond the 30-day "soon" window
  await app.goto(`${app.url().split('#')[0]}#/credentials/week/${addDaysIso(today, 56)}`);
  const rows = app.getByRole('grid', { name: 'Holders of All credentials' }).getByRole('row');
  await expect(rows.nth(1)).toContainText(/expires in \d+ days/);
  const seen: { expires: string; state: string }[] = [];
  for (const row of (await rows.all()).slice(1)) {
    const cells = await row.getByRole('gridcell').allTextContents();
    seen.push({ expires: cells[3]!, state: cells[4]!.trim() });
  }
  expect(seen.length).toBeGreaterThan(0);
  expect(seen).toEqual(
    seen.map((r) => ({
      ...r,
      state: Number(/in (\d+) days/.exec(r.expires)![1]) <= 30 ? 'Expiring soon' : 'Valid',
    })),
  );
});

test('working offline, the Outbox’s “Send now” cannot be pressed (it did nothing, silently); back online it sends', async ({
  app,
}) => {
  const offline = app.getByRole('banner').getByRole('switch', { name: 'Work offline' });
  await offline.check();
  await goTo(app, 'Outbox');
  await expect(app.getByText(/Nothing is sent until you turn “Work offline” off/)).toBeVisible();
  await expect(app.getByRole('button', { name: 'Send now' })).toBeDisabled();
  await offline.uncheck();
  await expect(app.getByRole('button', { name: 'Send now' })).toBeEnabled();
});

test('a holders list with nobody in it says so in words (it said “No assignment in this window.”)', async ({
  app,
}) => {
  await app.goto(`${app.url().split('#')[0]}#/credentials/week/${addDaysIso(todayIso(), 3650)}`);
  const grid = app.getByRole('grid', { name: 'Holders of All credentials' });
  await expect(grid).toContainText(/No credential expiring in the week of [A-Z][a-z]{2} \d{1,2}, \d{4}\./);
  await expect(grid).not.toContainText(/assignment|window/);
});

test('the overdue chart says how many courses it leaves out in plain words, and the number is the courses its table lists', async ({
  app,
}) => {
  await goTo(app, 'Dashboard');
  const chart = app.getByRole('figure', { name: /^Overdue training by course/ });
  await chart.locator('summary').click();
  const courses = await chart
    .getByRole('table', { name: 'Overdue training by course' })
    .getByRole('row')
    .count();
  expect(courses).toBeGreaterThan(10);
  await expect(chart.locator('figcaption')).toHaveText(
    `Overdue training by course: the 10 of ${courses} courses with the most`,
  );
});
