/**
 * The words and the one "soon" window, end to end on the demo site: the window
 * set in Settings is the one the credentials, training and a person's page start
 * from (and it holds across a reload); the bulk bar names each of its pickers
 * and counts in the singular when there is one.
 */
import type { Page } from '@playwright/test';
import { expect, test, type ReferenceServer } from './fixtures.ts';
import { addProfile, goTo, syncNow } from './support/ui.ts';

test.use({ serverOptions: { dataset: 'demo', admin: true } });

test.beforeEach(async ({ app, api, fullToken }) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
});

async function setSoonWindow(app: Page, days: string): Promise<void> {
  await goTo(app, 'Connection & sync');
  await app.getByLabel('Within (days)').fill(days);
}

function someActiveUser(server: ReferenceServer) {
  return server.query<{ userid: number; username: string }>(
    "SELECT userid, username FROM users WHERE status = 'Active' AND siteid < 900 ORDER BY userid LIMIT 1",
  )[0]!;
}

test('the soon window of Settings is where credentials, training and a person’s page start, and it survives a reload', async ({
  app,
  server,
}) => {
  await setSoonWindow(app, '45');
  await expect(app.getByText(/counts as soon in every list/)).toContainText('within 45 days');

  await goTo(app, 'Credentials');
  const holders = app.getByRole('region', { name: /^Holders:/ });
  await expect(holders.getByLabel('Show')).toHaveValue('45');
  await expect(holders.getByLabel('Show').locator('option:checked')).toHaveText('Expiring within 45 days');

  await goTo(app, 'Training');
  await expect(app.getByLabel('Show').locator('option', { hasText: 'Due within 45 days' })).toHaveCount(1);

  await app.reload();
  const user = someActiveUser(server);
  await goTo(app, 'Users');
  await app.getByLabel('Search users').fill(user.username);
  await app.getByRole('grid', { name: 'Users' }).getByRole('link').first().click();
  await expect(app.getByLabel('Expiring within (days)')).toHaveValue('45');
  await expect(app.getByLabel('Due soon within (days)')).toHaveValue('45');
});

test('a window out of range is refused in words, and the one in use stays', async ({ app }) => {
  await setSoonWindow(app, '0');
  await expect(
    app.getByText('Type a whole number of days from 1 to 365; 30 days stays in use until then.'),
  ).toBeVisible();
  await setSoonWindow(app, '1');
  await expect(app.getByText(/counts as soon in every list/)).toContainText('within 1 day,');
});

test('the bulk bar labels every picker and counts one change as one', async ({ app, server }) => {
  const user = someActiveUser(server);
  await goTo(app, 'Users');
  await app.getByLabel('Search users').fill(user.username);
  await app.getByRole('button', { name: /^Select all 1 matching$/ }).click();
  await expect(app.getByRole('status').filter({ hasText: /^1 person selected$/ })).toBeVisible();

  await app.getByLabel('Bulk action').selectOption({ label: 'Group access' });
  for (const shown of ['Grant or revoke', 'Group'])
    await expect(
      app.locator('.bulk-actions label').filter({ hasText: new RegExp(`^${shown}`) }),
    ).toBeVisible();
  await expect(app.getByLabel('Grant or revoke')).toHaveValue('grant');

  await app.getByLabel('Bulk action').selectOption({ label: 'Change status' });
  await app.getByLabel('New status').selectOption('Inactive');
  await app.getByRole('button', { name: 'Preview' }).click();
  await expect(app.getByText('1 change to queue.')).toBeVisible();
  await app.getByRole('button', { name: 'Queue 1 change', exact: true }).click();
  await expect(app.getByRole('status').filter({ hasText: /^Queued 1 change:/ })).toBeVisible();
});

test('the report’s “Report on” choices start with a capital, as every other picker’s do', async ({ app }) => {
  await goTo(app, 'Report');
  await expect(app.getByLabel('Report on').locator('option')).toHaveText([
    'A site',
    'A profile group',
    'The people chosen in Users (0)',
  ]);
});
