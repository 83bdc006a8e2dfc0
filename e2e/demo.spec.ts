/** "Try the demo": one click, and the app has a site to browse. */
import { expect, test } from './fixtures.ts';

// the app's own demo (createDemo: the reference server in-process, demo dataset), not the test's server
test.use({ harnessOptions: { serverUrl: undefined, token: undefined } });
import { goTo, tryTheDemo, usersCount, usersGrid } from './support/ui.ts';

test('trying the demo syncs a sample site and lists its people', async ({ app }) => {
  await tryTheDemo(app);
  await goTo(app, 'Users');
  await expect(usersCount(app)).toHaveText(/^\d+ of \d+ users$/);
  await expect(usersGrid(app).getByRole('row').nth(1)).toBeVisible();
});

test('the demo opens on the Dashboard (the picture first), and its expiring list says how far each expiry is', async ({
  app,
}) => {
  await app.getByRole('button', { name: 'Try the demo' }).click();
  const nav = app.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  await expect(app.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
  // the expiring list: each date beside how far it is (the window's number of days, whatever the setting)
  await app.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = '#/credentials/expiring/90';
  });
  const rows = app.getByRole('grid', { name: /^Holders of/ }).getByRole('row');
  await expect(rows.nth(1)).toBeVisible({ timeout: 60_000 });
  await expect(rows.nth(1)).toContainText(/ · expires (today|tomorrow|in \d+ days)/);
  await app.screenshot({ path: 'test-results/demo-expiring-list.png' });
  // the holder's credentials, the edit form's status a choice in words
  await rows.nth(1).getByRole('link').first().click();
  const credentials = app.locator('section[aria-labelledby="credentials-heading"]');
  await credentials.locator('summary').first().click();
  await expect(credentials.getByRole('combobox', { name: 'Status' }).first()).toHaveText('Active');
  await app.screenshot({ path: 'test-results/demo-credential-edit.png', fullPage: true });
});
