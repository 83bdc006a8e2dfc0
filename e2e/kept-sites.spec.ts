/** Sites kept on this laptop: a coordinator keeps the one site they look after, then adds the other. */
import { expect, test } from './fixtures.ts';
import { OUR_CUSTOMER } from '../src/server/datasets.ts';
import { addProfile, expectSyncOutcome, goTo, syncNow, usersCount } from './support/ui.ts';
import { statusAnswer } from './support/api-proxy.ts';

test.use({ serverOptions: { dataset: 'demo' } });

test('keep one site of two, sync, see only its people; add the other and it appears', async ({
  app,
  api,
  fullToken,
  server,
}) => {
  const sites = server.query<{ siteid: number; sitename: string }>(
    'SELECT siteid, sitename FROM sites WHERE customerid = ? ORDER BY siteid',
    OUR_CUSTOMER,
  );
  const [kept, other] = sites as [(typeof sites)[0], (typeof sites)[0]];
  const peopleOf = (siteid: number) =>
    server.query('SELECT userid FROM users WHERE siteid = ?', siteid).length;

  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await goTo(app, 'Connection & sync');
  const panel = app.getByRole('region', { name: 'Sites kept on this laptop' });
  // few people: every site is preselected
  await expect(panel.getByRole('checkbox', { name: kept.sitename })).toBeChecked();
  await expect(panel.getByRole('checkbox', { name: other.sitename })).toBeChecked();
  await expect(panel).toContainText(`All ${sites.length} sites are kept.`);

  await panel.getByRole('checkbox', { name: other.sitename }).uncheck();
  await panel.getByRole('button', { name: 'Save sites' }).click();
  await expect(panel).toContainText('1 site of 2 kept.');
  // its records leave the laptop in bounded transactions: done when the panel says so
  await expect(panel).toContainText(`${other.sitename}: removed from this laptop.`, { timeout: 30_000 });
  await app.screenshot({ path: 'test-results/kept-sites-one.png', fullPage: true });

  await syncNow(app);
  await goTo(app, 'Users');
  await expect(usersCount(app)).toHaveText(`${peopleOf(kept.siteid)} of ${peopleOf(kept.siteid)} users`);

  await goTo(app, 'Connection & sync');
  await panel.getByRole('checkbox', { name: other.sitename }).check();
  await panel.getByRole('button', { name: 'Save sites' }).click();
  // adding a site syncs it
  await expectSyncOutcome(app, 'Sync completed.');
  await goTo(app, 'Users');
  const everyone = peopleOf(kept.siteid) + peopleOf(other.siteid);
  await expect(usersCount(app)).toHaveText(`${everyone} of ${everyone} users`);

  // and taking it off again removes its people from this laptop
  await goTo(app, 'Connection & sync');
  await panel.getByRole('checkbox', { name: other.sitename }).uncheck();
  await panel.getByRole('button', { name: 'Save sites' }).click();
  await expect(panel.getByRole('status')).toContainText(`${other.sitename}: removed from this laptop.`);
  await app.screenshot({ path: 'test-results/kept-sites-removed.png', fullPage: true });
  await goTo(app, 'Users');
  await expect(usersCount(app)).toHaveText(`${peopleOf(kept.siteid)} of ${peopleOf(kept.siteid)} users`);
});

test('a site with an unsent change stays on the laptop, and says where the change is', async ({
  app,
  api,
  fullToken,
  server,
}) => {
  const [, other] = server.query<{ siteid: number; sitename: string }>(
    'SELECT siteid, sitename FROM sites WHERE customerid = ? ORDER BY siteid',
    OUR_CUSTOMER,
  );
  const person = server.query<{ username: string }>(
    "SELECT username FROM users WHERE siteid = ? AND status = 'Active' ORDER BY userid LIMIT 1",
    other!.siteid,
  )[0]!;
  const everyone = server.query(
    'SELECT userid FROM users u JOIN sites s ON s.siteid = u.siteid WHERE s.customerid = ?',
    OUR_CUSTOMER,
  ).length;
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  // the platform refuses writes for now: the change stays in the Outbox, unsent
  api.setRule((r) => (r.method === 'GET' ? undefined : statusAnswer(503, 1006, 'Service unavailable')));
  await goTo(app, 'Users');
  await app.getByLabel('Search users').fill(person.username);
  await app.getByRole('button', { name: /^Select all 1 matching$/ }).click();
  await app.getByLabel('Bulk action').selectOption({ label: 'Change status' });
  await app.getByLabel('New status').selectOption('Inactive');
  await app.getByRole('button', { name: 'Preview' }).click();
  await app.getByRole('button', { name: 'Queue 1 change' }).click();

  await goTo(app, 'Connection & sync');
  const panel = app.getByRole('region', { name: 'Sites kept on this laptop' });
  await panel.getByRole('checkbox', { name: other!.sitename }).uncheck();
  await panel.getByRole('button', { name: 'Save sites' }).click();
  await expect(panel.getByRole('alert')).toContainText(
    `${other!.sitename} has 1 unsent change in the Outbox: send or discard it before taking the site off this laptop.`,
  );
  await app.screenshot({ path: 'test-results/kept-sites-refused.png', fullPage: true });
  await panel.getByRole('link', { name: 'Open the Outbox' }).click();
  await expect(app.getByRole('heading', { name: 'Outbox', level: 1 })).toBeVisible();
  await goTo(app, 'Users');
  await app.getByLabel('Search users').fill('');
  await expect(usersCount(app)).toHaveText(`${everyone} of ${everyone} users`);
});

test.describe('a token that sees a large organisation', () => {
  // the harness's main counts "many people" from 10 (the app's own line is 20,000)
  test.use({ harnessOptions: { manyPeopleAbove: 10 } });

  test('a new profile asks which sites to keep and syncs nothing until they are chosen', async ({
    app,
    api,
    fullToken,
    server,
  }) => {
    const sites = server.query<{ siteid: number; sitename: string }>(
      'SELECT siteid, sitename FROM sites WHERE customerid = ? ORDER BY siteid',
      OUR_CUSTOMER,
    );
    const [kept, other] = sites as [(typeof sites)[0], (typeof sites)[0]];
    const peopleOf = (siteid: number) =>
      server.query('SELECT userid FROM users WHERE siteid = ?', siteid).length;

    const form = app.getByRole('form', { name: 'Add a profile' });
    await form.getByLabel('Profile name').fill('Whole company');
    await form.getByLabel('Base URL').fill(api.baseUrl);
    await form.getByLabel('API token').fill(fullToken);
    await form.getByRole('button', { name: 'Add profile' }).click();

    const panel = app.getByRole('region', { name: 'Sites kept on this laptop' });
    await expect(panel).toContainText(
      'This account sees a large organisation. Choose the sites you look after',
    );
    await expect(panel.getByRole('checkbox', { name: kept.sitename })).not.toBeChecked();
    await expect(panel.getByRole('checkbox', { name: other.sitename })).not.toBeChecked();
    const keep = panel.getByRole('button', { name: 'Keep these sites and sync' });
    await expect(keep).toBeDisabled();
    // nothing was synced meanwhile: no pass ran, and no person is on this laptop
    await expect(app.getByRole('status').filter({ hasText: /records written/ })).toHaveCount(0);
    await app.screenshot({ path: 'test-results/kept-sites-asked.png', fullPage: true });

    await panel.getByRole('checkbox', { name: kept.sitename }).check();
    await keep.click();
    await expectSyncOutcome(app, 'Sync completed.');
    await goTo(app, 'Users');
    await expect(usersCount(app)).toHaveText(`${peopleOf(kept.siteid)} of ${peopleOf(kept.siteid)} users`);
  });
});
