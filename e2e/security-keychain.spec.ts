/**
 * No Secret Service (no D-Bus session at all): the app says so, offers no way to
 * type a token, and stores none anywhere else if asked through the contract.
 */
import { filesUnder } from './support/files.ts';
import { spawnHarness, type SpawnedHarness } from './support/spawn-harness.ts';
import { expect, test } from './fixtures.ts';

let harness: SpawnedHarness;

test.beforeEach(async () => {
  harness = await spawnHarness({
    ...process.env,
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/fieldbook-no-bus',
  });
});

test.afterEach(async () => {
  await harness.stop();
});

test('without a keychain the app says so and keeps no token anywhere', async ({ page }) => {
  await page.goto(harness.url);
  await expect(
    page.getByRole('status').filter({ hasText: 'The system keychain is not available.' }),
  ).toBeVisible();
  await expect(page.getByLabel('API token')).toHaveCount(0);

  const token = 'no-keychain-token-0123456789abcdefghijklmnopqrstuv';
  const tokenText = JSON.stringify(token);
  const saved = await page.evaluate<{ ok: boolean; error?: { code: string } }>(
    `window.fieldbook['profiles:save']({ name: 'Somewhere', baseUrl: 'http://127.0.0.1:1/v1', token: ${tokenText} })`,
  );
  expect(saved.ok).toBe(false);
  expect(saved.error?.code).toBe('keychain-unavailable');
  const files = await filesUnder(harness.settingsDir);
  expect(files.filter(({ text }) => text.includes(token)).map(({ file }) => file)).toEqual([]);
});
