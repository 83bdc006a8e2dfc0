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
    app.getByRole('status').filter({ hasText: /^Nothing changed (from .+ to .+|at .+)\.$/ }),
  ).toBeVisible();
  // the period of the last sync runs from the one before; an earlier start takes both syncs together
  const period = app.getByRole('combobox', { name: 'Period' });
  await expect(period.locator('option').first()).toHaveText(/^(from .+ to .+|at .+) \(the last sync\)$/);
  await period.selectOption({ index: 1 });
  await expect(period.locator('option').nth(1)).toHaveText(/^(from .+ to .+|at .+) \(the last 2 syncs\)$/);
  await expect(app.getByRole('table', { name: 'Changes by kind' }).getByRole('row')).toHaveCount(2);
});

interface Holder {
  userid: number;
  firstname: string;
  lastname: string;
  siteid: number;
  sitename: string;
  credentialid: number;
  credentialname: string;
}

/**
 * An active person holding a credential of their own site's catalogue, made compliant on the server (nothing
 * expired, training done).
 */
function compliantHolder(server: {
  query<T>(sql: string, ...params: unknown[]): T[];
  mutate(m: object): boolean;
}): Holder {
  const holder = server.query<Holder>(
    `SELECT u.userid, u.firstname, u.lastname, u.siteid, s.sitename, c.credentialid, c.credentialname
     FROM users u JOIN sites s ON s.siteid = u.siteid
     JOIN credential_assignments a ON a.userid = u.userid
     JOIN credentials c ON c.credentialid = a.credentialid
     JOIN credential_categories k ON k.categoryid = c.categoryid AND k.siteid = u.siteid
     WHERE u.status = 'Active' AND u.siteid < 900 ORDER BY u.userid LIMIT 1`,
  )[0]!;
  for (const a of server.query<{ credentialid: number }>(
    'SELECT credentialid FROM credential_assignments WHERE userid = ?',
    holder.userid,
  ))
    server.mutate({
      resource: 'credentialAssignment',
      id: `${a.credentialid}-${holder.userid}`,
      changes: { expirationdate: '2099-12-31' },
    });
  for (const t of server.query<{ transcriptid: number }>(
    'SELECT transcriptid FROM training_assignments WHERE userid = ?',
    holder.userid,
  ))
    server.mutate({
      resource: 'trainingAssignment',
      id: t.transcriptid,
      changes: { coursestatus: 'Completed' },
    });
  return holder;
}

test('a holder of a required credential removed on the platform is reported first as newly non-compliant, and a deleted person is one removal', async ({
  app,
  api,
  server,
  fullToken,
}, testInfo) => {
  test.setTimeout(180_000);
  const holder = compliantHolder(server);
  const name = `${holder.firstname} ${holder.lastname}`;
  const gone = server.query<{ userid: number; firstname: string; lastname: string }>(
    `SELECT userid, firstname, lastname FROM users u WHERE siteid = ? AND userid <> ? AND status = 'Active'
     AND (SELECT COUNT(*) FROM credential_assignments a WHERE a.userid = u.userid) > 1 ORDER BY userid LIMIT 1`,
    holder.siteid,
    holder.userid,
  )[0]!;
  const goneCredentials = server.query<{ n: number }>(
    'SELECT COUNT(*) AS n FROM credential_assignments WHERE userid = ?',
    gone.userid,
  )[0]!.n;
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });

  // the coordinator requires the credential of everyone at the holder's site
  await goTo(app, 'Requirements');
  await app.getByRole('combobox', { name: 'Site' }).selectOption({ label: holder.sitename });
  const box = app.getByRole('checkbox', {
    name: `${holder.credentialname} required of Everyone at ${holder.sitename}`,
    exact: true,
  });
  await box.click();
  await expect(box).toBeChecked();

  // on the platform: the holder's credential is removed, and another person is deleted with their records
  expect(
    server.mutate({
      resource: 'credentialAssignment',
      id: `${holder.credentialid}-${holder.userid}`,
      delete: true,
    }),
  ).toBe(true);
  expect(server.mutate({ resource: 'user', id: gone.userid, delete: true })).toBe(true);
  await syncNow(app);

  await goTo(app, 'Since last sync');
  const impact = app.getByRole('region', { name: 'What it means for compliance' });
  const became = impact.getByRole('list', { name: 'Became non-compliant' });
  await expect(became.getByRole('listitem')).toHaveCount(1);
  await expect(became.getByRole('listitem')).toHaveText(
    `${name} · ${holder.sitename}: ${holder.credentialname} missing`,
  );
  await expect(impact.getByRole('list', { name: 'Removed from the platform' })).toContainText(
    new RegExp(`^${gone.firstname} ${gone.lastname} removed \\(${goneCredentials} credentials[,)]`),
  );
  // the impact comes before the changes by kind, where the deleted person is one removal, not one per record
  const byKind = app.getByRole('table', { name: 'Changes by kind' });
  await expect(byKind.getByRole('row', { name: /People removed 1/ })).toBeVisible();
  await expect(byKind.getByRole('row', { name: /Credentials removed 1/ })).toBeVisible();
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 640 },
  ]) {
    await app.setViewportSize(size);
    await app.screenshot({ path: testInfo.outputPath(`since-last-sync-${size.width}x${size.height}.png`) });
  }

  await goTo(app, 'Dashboard');
  await expect(
    app.getByRole('list', { name: 'Became non-compliant' }).getByRole('link', { name, exact: true }),
  ).toBeVisible();
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 640 },
  ]) {
    await app.setViewportSize(size);
    await app.screenshot({ path: testInfo.outputPath(`dashboard-${size.width}x${size.height}.png`) });
  }
  // each entry opens the person
  await app.getByRole('list', { name: 'Became non-compliant' }).getByRole('link', { name }).click();
  await expect(app.getByRole('heading', { level: 1 })).toContainText(holder.lastname);
});
