/**
 * When the API says no, or says something malformed: a clear message, and the
 * cache as it was. The proxy in front of the reference server answers the
 * chosen requests itself.
 */
import { statusAnswer } from './support/api-proxy.ts';
import { IDB_REQUEST } from './support/browser-scripts.ts';
import { OUR_CUSTOMER } from '../src/server/datasets.ts';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  addProfile,
  cachedCounts,
  expectSyncOutcome,
  goTo,
  startSync,
  syncNow,
  usersCount,
} from './support/ui.ts';

/** Each collection's last sync time as the cache holds it (to the millisecond). */
const SYNC_TIMES = `(async () => {
  const name = (await indexedDB.databases()).map((d) => d.name ?? '').find((n) => n.startsWith('fieldbook-'));
  ${IDB_REQUEST}
  const db = await request(indexedDB.open(name));
  const rows = await request(db.transaction('syncCollections').objectStore('syncCollections').getAll());
  db.close();
  return Object.fromEntries(rows.map((row) => [row.collection, row.lastSyncedAt]));
})()`;

// a new profile syncs as it is added: the tests of a first sync that goes wrong set their rule before adding it
const connect = (app: Page, baseUrl: string, token: string) =>
  addProfile(app, { name: 'Riverside site', baseUrl, token });

for (const [statuscode, what, message] of [
  [802, 'revoked', /rejected the access token/],
  [801, 'missing', /received no access token/],
] as const) {
  test(`a token ${what} mid-sync (${statuscode}) is explained and the cache stays intact`, async ({
    app,
    api,
    fullToken,
  }) => {
    await connect(app, api.baseUrl, fullToken);
    await syncNow(app);
    const before = await cachedCounts(app);

    let answered = 0;
    api.setRule(() => (++answered > 3 ? statusAnswer(401, statuscode, 'AccessToken not valid') : undefined));
    await startSync(app);
    await expect(app.getByRole('alert').filter({ hasText: message }).first()).toBeVisible({
      timeout: 30_000,
    });
    await expect(app.getByRole('button', { name: /^(Sync now|Resume sync)$/ })).toBeVisible({
      timeout: 30_000,
    });

    const after = await cachedCounts(app);
    for (const collection of ['users', 'credentials', 'credentialAssignments', 'trainingAssignments']) {
      expect(after[collection], collection).toBe(before[collection]);
    }
    await goTo(app, 'Users');
    await expect(usersCount(app)).toHaveText(`${before['users']} of ${before['users']} users`);
  });
}

test('a sync a network sign-in page stops leaves the cache its old sync time: what it cut short is not called up to date', async ({
  app,
  api,
  fullToken,
}) => {
  await connect(app, api.baseUrl, fullToken);
  await syncNow(app);
  const before = await app.evaluate<Record<string, string | null>>(SYNC_TIMES);
  const dataAsOf = await app.locator('.data-as-of').innerText();
  api.setRule((request) =>
    /^\/v1\/sites(\?|$)/.test(request.url)
      ? {
          status: 200,
          body: '<html><body>Sign in to the guest network</body></html>',
          contentType: 'text/html',
        }
      : undefined,
  );
  await startSync(app);
  await expectSyncOutcome(app, 'Sync failed.');
  const after = await app.evaluate<Record<string, string | null>>(SYNC_TIMES);
  // the list the page stood in for keeps its time, so "Data as of" (the oldest) does not move
  expect(after['sites']).toBe(before['sites']);
  expect((await app.locator('.data-as-of').innerText()).split(' · ')[0]).toBe(dataAsOf.split(' · ')[0]);
  await goTo(app, 'Connection & sync');
  // the list cut short says so in Collections, in words, and is not called up to date
  await expect(app.getByRole('row', { name: /^Sites / })).toContainText(
    'Not synced: the sync stopped before this list was read to its end.',
  );
  await app.screenshot({ path: test.info().outputPath('stopped-by-sign-in-page.png'), fullPage: true });
});

test('a record of another customer (800) is reported for its collection and the others still sync', async ({
  app,
  api,
  fullToken,
}) => {
  api.setRule((request) =>
    /\/access\/modules\/\d+\/users/.test(request.url)
      ? statusAnswer(401, 800, 'Resource not owned')
      : undefined,
  );
  await connect(app, api.baseUrl, fullToken);
  await expect(app.getByText(/refused access: this record belongs to another customer/).first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(app.getByRole('button', { name: /^(Sync now|Resume sync)$/ })).toBeVisible({
    timeout: 30_000,
  });
  // the outcome line says what was not synced, never "Sync completed." alone
  const outcome = app
    .getByRole('status')
    .filter({ hasText: /^Sync completed with errors: Feature access not synced \(see Collections\)\. / });
  await expect(outcome).toBeVisible();
  // shown as a warning, not as a success
  await expect(outcome).toHaveClass(/warn/);
  // (this account sees one site: said as such, not "All 1 site are kept")
  await expect(app.getByRole('region', { name: 'Sites kept on this laptop' })).toContainText(
    'The only site this account sees is kept.',
  );
  await app.screenshot({ path: test.info().outputPath('completed-with-errors.png'), fullPage: true });
  const cached = await cachedCounts(app);
  expect(cached['users']).toBeGreaterThan(0);
  expect(cached['credentialAssignments']).toBeGreaterThan(0);
  expect(cached['moduleAccess'] ?? 0).toBe(0);
});

test('a malformed page is reported and nothing of it is stored', async ({ app, api, fullToken }) => {
  api.setRule((request) =>
    /^\/v1\/users(\?|$)/.test(request.url)
      ? { status: 200, body: '{"users": [{"userid": {"$gt": 1}, "username": 42}], "pagination": 7' }
      : undefined,
  );
  await connect(app, api.baseUrl, fullToken);
  // in words: which list, what is wrong with the answer, what it means for the cache; no route, no "JSON"
  await expect(
    app
      .getByText(
        'The list of users could not be read: the platform’s answer was not in its data format (it may have been cut off on the way). Nothing was removed from this laptop; the next sync tries again.',
      )
      .first(),
  ).toBeVisible({ timeout: 30_000 });
  await expect(app.getByRole('button', { name: /^(Sync now|Resume sync)$/ })).toBeVisible({
    timeout: 30_000,
  });
  await expect(app.locator('body')).not.toContainText(/JSON|\/users|expected shape/);
  const cached = await cachedCounts(app);
  expect(cached['users'] ?? 0).toBe(0);
  expect(cached['sites']).toBeGreaterThan(0);
  // the sites to keep are still listed: how many people there are is not needed to choose them
  await goTo(app, 'Connection & sync');
  await expect(
    app.getByRole('region', { name: 'Sites kept on this laptop' }).getByRole('checkbox').first(),
  ).toBeVisible();
});

test('a list of sites that cannot be read is said in the kept-sites panel, with a way to ask again', async ({
  app,
  api,
  fullToken,
}) => {
  await connect(app, api.baseUrl, fullToken);
  await syncNow(app);
  api.setRule((request) =>
    /^\/v1\/sites(\?|$)/.test(request.url)
      ? { status: 200, body: JSON.stringify({ places: [] }), contentType: 'application/json' }
      : undefined,
  );
  // the panel asks for the list each time it opens
  await goTo(app, 'Users');
  await goTo(app, 'Connection & sync');
  const panel = app.getByRole('region', { name: 'Sites kept on this laptop' });
  const alert = panel.getByRole('alert');
  await expect(alert).toContainText(
    'The list of sites could not be read. The platform’s answer held no list where it always sends one, so nothing of it was used.',
  );
  await expect(panel).not.toContainText('needs a connection');
  await panel.screenshot({ path: test.info().outputPath('sites-unreadable.png') });
  api.setRule(null);
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(panel.getByRole('checkbox').first()).toBeVisible();
});

test('after a list of sites that could not be read, the panel asks again by itself once the connection is checked again', async ({
  app,
  api,
  fullToken,
}) => {
  await connect(app, api.baseUrl, fullToken);
  await syncNow(app);
  api.setRule((request) =>
    /^\/v1\/sites(\?|$)/.test(request.url)
      ? { status: 200, body: '{"sites": [', contentType: 'application/json' }
      : undefined,
  );
  await goTo(app, 'Users');
  await goTo(app, 'Connection & sync');
  const panel = app.getByRole('region', { name: 'Sites kept on this laptop' });
  await expect(panel.getByRole('alert')).toContainText(
    'The list of sites could not be read. The platform’s answer was not in its data format',
  );
  api.setRule(null);
  // back from working offline: the connection is checked again, and the list asked again, no button pressed
  const offline = app.getByRole('banner').getByRole('switch', { name: 'Work offline' });
  await offline.check();
  await expect(app.getByRole('banner')).toContainText('Working offline');
  await offline.uncheck();
  await expect(panel.getByRole('checkbox').first()).toBeVisible();
  await expect(panel.getByRole('alert')).toHaveCount(0);
});

test('a page with the right syntax but the wrong shape is refused too', async ({ app, api, fullToken }) => {
  api.setRule((request) =>
    /^\/v1\/users(\?|$)/.test(request.url)
      ? { status: 200, body: JSON.stringify({ users: [{ userid: 'not a number', username: ['<b>x</b>'] }] }) }
      : undefined,
  );
  await connect(app, api.baseUrl, fullToken);
  // the record in words: its row, what it is (it has no readable name or id), which field and what is wrong; no API
  // name
  await expect(
    app
      .getByText('The list of users could not be read: row 1, a person: the id is not a number.', {
        exact: false,
      })
      .first(),
  ).toBeVisible({ timeout: 30_000 });
  await expect(app.getByText(/userid|expected shape/)).toHaveCount(0);
  await expect(app.getByRole('button', { name: /^(Sync now|Resume sync)$/ })).toBeVisible({
    timeout: 30_000,
  });
  expect((await cachedCounts(app))['users'] ?? 0).toBe(0);
});

test("a server fault on one site's list is told by the site's name, never its id, and the other sites still sync", async ({
  app,
  api,
  fullToken,
  server,
}) => {
  const [site] = server.query<{ siteid: number; sitename: string }>(
    'SELECT siteid, sitename FROM sites WHERE customerid = ? ORDER BY siteid LIMIT 1',
    OUR_CUSTOMER,
  );
  const groupsOfSite = new RegExp(`^/v1/sites/${site!.siteid}/access/groups(\\?|$)`);
  api.setRule((request) =>
    groupsOfSite.test(request.url) ? statusAnswer(500, 1006, 'Internal error') : undefined,
  );
  await connect(app, api.baseUrl, fullToken);
  await expect(app.getByText(`(while reading the groups of ${site!.sitename})`).first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(app.getByRole('button', { name: /^(Sync now|Resume sync)$/ })).toBeVisible({
    timeout: 30_000,
  });
  await goTo(app, 'Connection & sync');
  await expect(
    app.getByText(`Not synced, because the groups of ${site!.sitename} could not be read`).first(),
  ).toBeVisible();
  await app.screenshot({ path: test.info().outputPath('site-list-fault.png'), fullPage: true });
  await expect(app.locator('body')).not.toContainText(
    new RegExp(`\\bsite ${site!.siteid}\\b|/sites/${site!.siteid}/`),
  );
  expect((await cachedCounts(app))['users']).toBeGreaterThan(0);
});
