/**
 * The review views tell the truth: search finds people however their names are
 * typed, and same-named groups can be told apart where they are picked.
 */
import { expect, test, type ReferenceServer } from './fixtures.ts';
import { addProfile, goTo, syncNow, usersCount, usersGrid } from './support/ui.ts';

test.use({ serverOptions: { dataset: 'demo', admin: true } });

/** Gives three users of the site names a coordinator would have trouble finding. */
function renamePeople(server: ReferenceServer): void {
  const ids = server.query<{ userid: number }>('SELECT userid FROM users WHERE siteid < 900 ORDER BY userid LIMIT 3').map((u) => u.userid);
  const people = [
    { firstname: 'María', lastname: 'Bäilerton', username: 'mbailerton' },
    { firstname: 'Lucy', lastname: 'Ferris', username: 'lucia.fernandez' },
    { firstname: 'Zoë', lastname: 'Ñandúbay', username: 'zoe_n' },
  ];
  people.forEach((changes, i) => expect(server.mutate({ resource: 'user', id: ids[i]!, changes })).toBe(true));
}

test.describe('with a synced site', () => {
  test.beforeEach(async ({ app, api, server, fullToken }) => {
    test.setTimeout(120_000);
    renamePeople(server);
    await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
    await syncNow(app);
    await goTo(app, 'Users');
  });

  test('search ignores accents and case, whichever side has them', async ({ app }) => {
    const search = app.getByLabel('Search users');
    for (const typed of ['nandubay', 'ÑANDÚ', 'zoe nan']) {
      await search.fill(typed);
      await expect(usersCount(app)).toHaveText(/^1 of \d+ users$/);
      await expect(usersGrid(app).getByRole('link', { name: 'Ñandúbay, Zoë' })).toBeVisible();
    }
  });

  test('search finds a word inside a username', async ({ app }) => {
    await app.getByLabel('Search users').fill('fernandez');
    await expect(usersGrid(app).getByRole('link', { name: 'Ferris, Lucy' })).toBeVisible();
    await expect(usersCount(app)).toHaveText(/^1 of \d+ users$/);
  });

  test('search finds a name typed in either order, with or without a comma', async ({ app }) => {
    for (const typed of ['maria bailerton', 'bailerton, maria', 'Bäilerton MARÍA']) {
      await app.getByLabel('Search users').fill(typed);
      await expect(usersGrid(app).getByRole('link', { name: 'Bäilerton, María' })).toBeVisible();
      await expect(usersCount(app)).toHaveText(/^1 of \d+ users$/);
    }
  });

  test('the bulk group picker and the group filter put each site’s same-named groups under that site', async ({ app, server }) => {
    const sites = server.query<{ sitename: string }>('SELECT sitename FROM sites WHERE siteid < 900 ORDER BY sitename').map((s) => s.sitename);
    expect(sites.length).toBeGreaterThan(1);
    await app.getByRole('button', { name: /^Select all/ }).click();
    await app.getByLabel('Bulk action').selectOption({ label: 'Group access' });
    const picker = app.getByLabel('Group access', { exact: true });
    for (const picks of [picker, app.getByLabel('Profile group')]) {
      for (const site of sites) {
        const heading = picks.locator(`optgroup[label="${site} · Department"]`);
        await expect(heading.locator('option', { hasText: /^Operations$/ })).toHaveCount(1);
      }
    }
    // the option chosen is the one under that site's heading
    const [, second] = sites;
    const value = await picker.locator(`optgroup[label="${second} · Department"] option`, { hasText: /^Operations$/ }).getAttribute('value');
    await picker.selectOption(value!);
    await app.getByRole('button', { name: 'Preview' }).click();
    // the other site's people cannot get a group of this site: the picked group is this site's
    await expect(app.getByRole('region', { name: 'Preview' }).getByText(/^Cannot be done \(\d+\)$/)).toBeVisible();
  });
});
