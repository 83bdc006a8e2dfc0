/** Connect, sync, and review offline: the coordinator's path from a token to a cache that works with no network. */
import { expect, test } from './fixtures.ts';
import {
  addProfile,
  cachedCounts,
  expectSyncOutcome,
  goTo,
  startSync,
  syncNow,
  usersCount,
  usersGrid,
} from './support/ui.ts';

test.describe('with a profile and a token', () => {
  test.beforeEach(async ({ app, api, fullToken }) => {
    await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  });

  test('a sync fills the cache and the users list shows everyone', async ({ app }) => {
    await syncNow(app);
    const cached = await cachedCounts(app);
    expect(cached['users']).toBeGreaterThan(0);
    await goTo(app, 'Users');
    await expect(usersCount(app)).toHaveText(`${cached['users']} of ${cached['users']} users`);
  });

  test('with the server gone, users can still be browsed, searched, filtered, opened and reloaded', async ({
    app,
    api,
  }) => {
    await syncNow(app);
    await goTo(app, 'Users');
    const firstRow = usersGrid(app).getByRole('row').nth(1);
    const firstName = (await firstRow.getByRole('link').first().textContent()) ?? '';
    const lastname = firstName.split(',')[0]?.trim() ?? '';
    expect(lastname).not.toBe('');

    await api.close(); // the API is unreachable from here on
    const requestsWhileOffline = api.log.length;

    await app.getByLabel('Search users').fill(lastname.toUpperCase());
    await expect(
      usersGrid(app)
        .getByRole('link', { name: new RegExp(`^${lastname},`) })
        .first(),
    ).toBeVisible();

    await app.getByLabel('Search users').fill('');
    const statuses = app.getByLabel('Status');
    const someStatus = (await statuses.locator('option').nth(1).getAttribute('value')) ?? '';
    await statuses.selectOption(someStatus);
    await expect(usersCount(app)).toHaveText(/^\d+ of \d+ users$/);
    await app.getByRole('button', { name: 'Clear filters' }).click();

    await usersGrid(app).getByRole('link', { name: firstName }).click();
    await expect(app.getByRole('heading', { level: 1 })).toContainText(lastname);

    await app.reload();
    await expect(app.getByRole('heading', { level: 1 })).toContainText(lastname);
    await goTo(app, 'Users');
    await expect(usersCount(app)).toHaveText(/^(\d+) of \1 users$/);
    await goTo(app, 'Credentials');
    await expect(app.getByRole('heading', { name: 'Credentials', level: 1 })).toBeVisible();
    await goTo(app, 'Training');
    await expect(app.getByRole('heading', { name: 'Training', level: 1 })).toBeVisible();
    expect(api.log.length).toBe(requestsWhileOffline);
  });

  test('a cancelled sync keeps what it wrote and resumes where it stopped', async ({ app, server, api }) => {
    server.setFaults({ latencyMs: 120 });
    await startSync(app);
    await expect(app.getByRole('status').filter({ hasText: /^Syncing… [1-9]/ })).toBeVisible();
    await app.getByRole('button', { name: 'Cancel sync' }).click();
    await expectSyncOutcome(app, 'Sync paused:');
    await expect(
      app.getByRole('status').filter({
        hasText: /^Sync paused: [\d,]+ records? written and kept; Resume sync continues from there\./,
      }),
    ).toBeVisible();
    const partial = await cachedCounts(app);
    expect(partial['syncCheckpoints']).toBeGreaterThan(0);

    server.setFaults({ latencyMs: 0 });
    const before = api.log.length;
    await app.getByRole('button', { name: 'Resume sync' }).click();
    await expectSyncOutcome(app, 'Sync completed.');
    const resumedRequests = api.log.length - before;

    // a fresh full sync of the same site, for comparison
    const mark = api.log.length;
    await app.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => api.log.length).toBeGreaterThan(mark);
    await expect(app.getByRole('button', { name: 'Sync now' })).toBeVisible({ timeout: 45_000 });
    await expectSyncOutcome(app, 'Sync completed.');
    const fullRequests = api.log.length - mark;
    expect(resumedRequests).toBeLessThan(fullRequests);
    const complete = await cachedCounts(app);
    expect(complete['users']).toBeGreaterThanOrEqual(partial['users'] ?? 0);
    expect(complete['syncCheckpoints']).toBe(0);
  });
});
