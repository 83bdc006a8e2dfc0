/**
 * Hostile data renders inert: the reference server seeds script tags, event
 * handlers, javascript: and data: URLs, right-to-left overrides, control
 * characters and a 5,000-character name. Every view is browsed over them: no
 * script runs, no dialog opens, nothing navigates, and the layout holds.
 */
import { INSPECT_PAGE_FOR_INJECTION } from './support/browser-scripts.ts';
import { cspViolations, expect, test } from './fixtures.ts';
import { ALL_TABS, addProfile, goTo, syncNow, usersGrid } from './support/ui.ts';

test.use({ serverOptions: { dataset: 'tiny', admin: true, hostile: true } });

interface Inspection {
  active: number;
  inlineScripts: number;
  handlers: number;
  dangerousLinks: string[];
  overflowPx: number;
}

test('every view shows hostile values as plain text', async ({ app, api, fullToken, harness, watch }) => {
  await addProfile(app, { name: 'Hostile site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);

  const expectInert = async (where: string) => {
    const { overflowPx, ...injected } = await app.evaluate<Inspection>(INSPECT_PAGE_FOR_INJECTION);
    // soft: one run lists every view that fails, not just the first
    expect.soft(injected, where).toEqual({ active: 0, inlineScripts: 0, handlers: 0, dangerousLinks: [] });
    expect.soft(overflowPx, `${where}: the page grew wider than the window`).toBeLessThanOrEqual(1);
    expect.soft(new URL(app.url()).origin, where).toBe(harness.origin);
    expect.soft(await cspViolations(app), `${where}: CSP violations`).toEqual([]);
  };

  await goTo(app, 'Users');
  await app.getByLabel('Search users').fill('<script>');
  await expect(
    usersGrid(app).getByText('<script>alert("fieldbook-xss")</script>', { exact: false }).first(),
  ).toBeVisible();
  await expectInert('users, searched for a script tag');
  await usersGrid(app).getByRole('link').first().click();
  await expect(app.getByRole('heading', { level: 1 })).toContainText('<script>');
  await expectInert('the detail of a user named with a script tag');

  await goTo(app, 'Users');
  await app.getByLabel('Search users').fill('long');
  await expect(usersGrid(app).getByRole('row').nth(1)).toBeVisible();
  await expectInert('users, a 5,000-character name');
  await usersGrid(app).getByRole('link').first().click();
  await expectInert('the detail of a user with a 5,000-character name');

  for (const tab of ALL_TABS) {
    await goTo(app, tab);
    await expect(app.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expectInert(tab);
  }

  expect(watch.dialogs).toEqual([]);
  expect(watch.pageErrors).toEqual([]);
  expect(watch.refusedNavigations).toEqual([]);
  expect(watch.refusedWindows).toEqual([]);
});
