/** The first spec: the built renderer opens in Chromium through the harness. */
import { cspViolations, expect, test } from './fixtures.ts';

test('the app opens on the welcome screen with nothing refused', async ({ app, watch }) => {
  await expect(app).toHaveTitle('Fieldbook');
  await expect(app.getByRole('heading', { name: 'Welcome to Fieldbook' })).toBeVisible();
  await expect(app.getByRole('button', { name: 'Try the demo' })).toBeEnabled();
  expect(await cspViolations(app)).toEqual([]);
  expect(watch.pageErrors).toEqual([]);
  expect(watch.consoleErrors).toEqual([]);
});

test('the page is served with the strict Content-Security-Policy header', async ({ page, harness }) => {
  const response = await page.goto(harness.url);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe');
});
