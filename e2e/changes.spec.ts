/**
 * "Since last sync", end to end: the first sync records nothing; changes made
 * on the server (through the admin API) between two syncs are counted by kind,
 * with the people behind each count, filterable by site, shown offline too;
 * a resync with nothing changed says so; the dashboard sums it up.
 */
import { expect, test } from './fixtures.ts';
import { addProfile, goTo, syncNow } from './support/ui.ts';

test('the changes of a sync are counted by kind, drilled down to the people, and a resync with nothing changed says so', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(120_000);
  // (a new profile syncs as it is added: that is its first sync)
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await goTo(app, 'Since last sync');
  await expect(
    app.getByText('No changes recorded yet: the first sync of a profile has nothing to compare with.', {
      exact: false,
    }),
  ).toBeVisible();

  const [a, b] = server.query<{ userid: number; firstname: string; lastname: string; siteid: number }>(
    "SELECT userid, firstname, lastname, siteid FROM users WHERE status = 'Active' AND siteid < 900 ORDER BY userid LIMIT 2",
  );
  expect(server.mutate({ resource: 'user', id: a!.userid, changes: { status: 'Inactive' } })).toBe(true);
  expect(server.mutate({ resource: 'user', id: b!.userid, changes: { firstname: 'Renamed' } })).toBe(true);
  const site = server.query<{ sitename: string }>(
    'SELECT sitename FROM sites WHERE siteid = ?',
    a!.siteid,
  )[0]!;
  await syncNow(app);

  await goTo(app, 'Since last sync');
  const byKind = app.getByRole('table', { name: 'Changes by kind' });
  await expect(byKind.getByRole('row', { name: /Status changed 1/ })).toBeVisible();
  await expect(byKind.getByRole('row', { name: /Name changed 1/ })).toBeVisible();
  await expect(byKind.getByRole('row')).toHaveCount(2);
  await byKind
    .getByRole('row', { name: /Status changed/ })
    .getByRole('button', { name: 'Show people' })
    .click();
  const people = app.getByRole('grid', { name: 'People: Status changed' });
  await expect(people.getByRole('row').nth(1)).toContainText(`${a!.firstname} ${a!.lastname}`);
  await expect(people.getByRole('row').nth(1)).toContainText('Active → Inactive');
  await expect(people.getByRole('row').nth(1)).toContainText(site.sitename);

  // another site: none of these changes
  const other = server.query<{ sitename: string }>(
    'SELECT sitename FROM sites WHERE siteid NOT IN (?, ?) AND siteid < 900 ORDER BY siteid LIMIT 1',
    a!.siteid,
    b!.siteid,
  )[0];
  if (other) {
    await app.getByRole('combobox', { name: 'Site' }).selectOption({ label: other.sitename });
    await expect(app.getByRole('status').filter({ hasText: '0 of 2 changes (filtered).' })).toBeVisible();
  }

  await goTo(app, 'Dashboard');
  await expect(app.getByLabel('Since last sync')).toContainText('status changed 1, name changed 1.');

  await syncNow(app);
  await goTo(app, 'Since last sync');
  await expect(
    app.getByRole('status').filter({ hasText: /^Nothing changed from .+ to .+\.$/ }),
  ).toBeVisible();
  // the period of the last sync runs from the one before; an earlier start takes both syncs together
  const period = app.getByRole('combobox', { name: 'Period' });
  await expect(period.locator('option').first()).toHaveText(/^from .+ to .+ \(the last sync\)$/);
  await period.selectOption({ index: 1 });
  await expect(period.locator('option').nth(1)).toHaveText(/^from .+ to .+ \(the last 2 syncs\)$/);
  await expect(app.getByRole('table', { name: 'Changes by kind' }).getByRole('row')).toHaveCount(2);
});
