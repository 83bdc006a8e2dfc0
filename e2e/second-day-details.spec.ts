/**
 * The coordinator's second day, its smaller points (issue 35): a batch prepared on a
 * site visit is not thrown away by one click; the "Queued … Undo" notice belongs to
 * the selection it was about; the Credentials page at 1024×640; the platform's
 * "Offline" said with its meaning. On the app's own demo.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { goTo, tryTheDemo, usersGrid } from './support/ui.ts';

test.use({ harnessOptions: { serverUrl: undefined, token: undefined } });

async function workOffline(page: Page): Promise<void> {
  const offline = page.getByRole('banner').getByRole('switch', { name: 'Work offline' });
  await offline.click();
  await expect(offline).toBeChecked();
}

/** Queues a status change for the people a search finds; resolves to the changes queued. */
async function queueStatusChange(page: Page, search: string, status: string): Promise<number> {
  await goTo(page, 'Users');
  const selectAll = page.getByRole('button', { name: /^Select all [\d,]+ matching$/ });
  const everyone = await selectAll.innerText();
  await page.getByLabel('Search users').fill(search);
  await expect(selectAll).not.toHaveText(everyone);
  await selectAll.click();
  await page.getByLabel('Bulk action').selectOption({ label: 'Change status' });
  await page.getByLabel('New status').selectOption(status);
  await page.getByRole('button', { name: 'Preview' }).click();
  const queue = page.getByRole('button', { name: /^Queue [\d,]+ changes?$/ });
  const changes = Number((await queue.innerText()).replace(/[^\d]/g, ''));
  await queue.click();
  return changes;
}

test('Discard batch asks first with its count, and Keep them keeps every change', async ({ app }) => {
  test.setTimeout(120_000);
  await tryTheDemo(app);
  await workOffline(app);
  const queued = await queueStatusChange(app, 'an', 'Inactive');
  expect(queued).toBeGreaterThan(1);

  await goTo(app, 'Outbox');
  const batches = app.getByRole('table', { name: 'Batches' });
  await batches.getByRole('button', { name: /^Discard batch/ }).click();
  const asking = batches.getByRole('group', { name: new RegExp(`^Discard ${queued} changes of .+\\?$`) });
  await expect(asking).toContainText(
    `Discard ${queued} changes? They will not be sent, and this cannot be undone.`,
  );
  await app.screenshot({ path: test.info().outputPath('discard-asks.png') });
  await asking.getByRole('button', { name: 'Keep them' }).click();
  await expect(batches).toContainText(`${queued} changes: ${queued} waiting`);

  await batches.getByRole('button', { name: /^Discard batch/ }).click();
  await batches.getByRole('button', { name: `Discard ${queued} changes` }).click();
  await expect(app.getByText('Nothing here.')).toBeVisible();
});

test('the Queued … Undo notice goes once the next selection begins', async ({ app }) => {
  test.setTimeout(120_000);
  await tryTheDemo(app);
  await workOffline(app);
  await queueStatusChange(app, 'an', 'Inactive');
  const notice = app
    .getByRole('status')
    .filter({ hasText: /^Queued [\d,]+ changes?: they show as pending in every view\./ });
  await expect(notice).toBeVisible();
  await app.getByLabel('Search users').fill('');
  await usersGrid(app).getByRole('row').nth(3).click();
  await expect(app.getByRole('region', { name: 'Selected people' })).toContainText('1 person selected');
  await expect(notice).toHaveCount(0);
});

test('at 1024×640 the Credentials page fits the window, and a credential opened keeps the list chosen', async ({
  app,
}) => {
  test.setTimeout(120_000);
  await tryTheDemo(app);
  await app.setViewportSize({ width: 1024, height: 640 });
  await goTo(app, 'Credentials');
  const allHolders = app.getByRole('grid', { name: 'Holders of All credentials' });
  await expect(allHolders.getByRole('row').nth(1)).toBeVisible();
  const sideways = () =>
    app.evaluate(() => {
      const root = (
        globalThis as unknown as {
          document: { documentElement: { scrollWidth: number; clientWidth: number } };
        }
      ).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
  expect(await sideways()).toBeLessThanOrEqual(0);

  await app.getByLabel('Show').selectOption({ label: 'Expiring within 30 days' });
  const credential = (
    await app
      .getByRole('grid', { name: 'Credential list' })
      .getByRole('row')
      .nth(1)
      .getByRole('link')
      .innerText()
  ).trim();
  await app.getByRole('link', { name: credential, exact: true }).click();
  const holders = app.getByRole('region', { name: `Holders: ${credential}` });
  await expect(holders.getByLabel('Show')).toHaveValue('30');
  // the holders' first row starts inside the window, with nothing to scroll sideways
  const firstRow = app
    .getByRole('grid', { name: `Holders of ${credential}` })
    .getByRole('row')
    .nth(1);
  await expect(firstRow).toBeVisible();
  expect((await firstRow.boundingBox())!.y).toBeLessThan(640);
  expect(await sideways()).toBeLessThanOrEqual(0);
  await app.screenshot({ path: test.info().outputPath('credentials-1024.png') });
});

test("the platform's Offline status is said with its meaning, apart from Work offline", async ({ app }) => {
  test.setTimeout(120_000);
  await tryTheDemo(app);
  await goTo(app, 'Users');
  const status = app.getByRole('combobox', { name: 'Status', exact: true });
  await expect(status.getByRole('option', { name: 'Offline (never signed in)' })).toHaveCount(1);
  await status.selectOption('Offline');
  await usersGrid(app).getByRole('row').nth(1).getByRole('link').first().click();
  await expect(app.getByRole('definition').filter({ hasText: /^Offline/ })).toContainText(
    'has never been signed in to',
  );
});
