/**
 * The users list on opening the app.
 *  - The screen the coordinator left shows at once, before the cache has
 *    answered (on 7 million records Chromium took 2-3 s to open it), and is
 *    then replaced by the cache's own rows. It is never older than the cache:
 *    a change made since means the list waits for the cache instead.
 *  - Its first screenful is read from the cache before anything that walks
 *    every person (the count, the filters' choices). On a cache of 200,000
 *    people those took IndexedDB 0.4 and 0.5 s, and the first rows waited
 *    behind them (docs/benchmarks.md, scale).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { addProfile, goTo, syncNow, usersCount, usersGrid } from './support/ui.ts';

test.use({ serverOptions: { dataset: 'demo' } });

/**
 * Notes, in order, the page's IndexedDB reads of the users table as asked ("users.count") and as answered ("answered
 * users.count").
 */
const RECORD_USERS_READS = `(() => {
  const asked = (window.__usersReads = []);
  const wrap = (proto, label) => {
    for (const name of ['get', 'getAll', 'getAllKeys', 'count', 'openCursor', 'openKeyCursor']) {
      const original = proto[name];
      proto[name] = function (...args) {
        const what = label(this) + '.' + name;
        const request = original.apply(this, args);
        if (what.startsWith('users')) {
          asked.push(what);
          request.addEventListener('success', () => asked.push('answered ' + what), { once: true });
        }
        return request;
      };
    }
  };
  wrap(IDBObjectStore.prototype, (s) => s.name);
  wrap(IDBIndex.prototype, (i) => i.objectStore.name + '[' + i.name + ']');
})();`;

test('opening the app on the users list reads its first screenful before counting everyone or listing the filters’ choices', async ({
  app,
  api,
  fullToken,
}) => {
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  await app.addInitScript(RECORD_USERS_READS);
  await app.goto(`${app.url().split('#')[0]}#/users`);
  // a new page load, as when the app is opened again (the hash alone changes no document)
  await app.reload();
  // the cache's own rows, not the screen kept from the last visit
  await expect(usersGrid(app).getByRole('row').nth(1)).toBeVisible();
  await expect(usersGrid(app)).not.toHaveAttribute('aria-busy', 'true');
  await expect(app.getByRole('status').filter({ hasText: / users$/ })).toBeVisible();
  const reads = await app.evaluate<string[]>('window.__usersReads');
  // the first screenful's read answered before any walk over everyone is even asked
  const first = reads.indexOf('answered users[sortName].getAll');
  expect(first, reads.join(', ')).toBeGreaterThanOrEqual(0);
  for (const walk of ['users.count', 'users[status].openKeyCursor', 'users[usertype].openKeyCursor']) {
    expect(reads.indexOf(walk), `${walk} in ${reads.join(', ')}`).toBeGreaterThan(first);
  }
});

/**
 * On the next page load, before the app's script runs: opens the cache itself
 * and holds a write transaction on its users table until `window.releaseHold`,
 * so none of the app's reads of people is answered meanwhile (as when Chromium
 * takes seconds to open a large cache).
 */
const holdUsersOnLoad = (dbName: string) => `(() => {
  window.releaseHold = false;
  window.usersHeld = false;
  const open = indexedDB.open(${JSON.stringify(dbName)});
  open.onsuccess = () => {
    const db = open.result;
    const store = db.transaction(['users'], 'readwrite').objectStore('users');
    window.usersHeld = true;
    // a request issued from the last one's callback keeps the transaction open
    const spin = () => {
      if (window.releaseHold) db.close();
      else store.get(-1).onsuccess = spin;
    };
    spin();
  };
})();`;

const cacheName = (page: Page) =>
  page.evaluate<string>(
    `(async () => (await indexedDB.databases()).map((d) => d.name ?? '').find((n) => n.startsWith('fieldbook-')))()`,
  );
const keptScreens = (page: Page) =>
  page.evaluate<number>(
    `Object.keys(localStorage).filter((k) => k.startsWith('fieldbook.firstScreen.')).length`,
  );
const firstNames = (page: Page) =>
  usersGrid(page)
    .getByRole('row')
    .filter({ has: page.getByRole('gridcell') })
    .getByRole('link')
    .allInnerTexts();
const release = (page: Page) => page.evaluate('window.releaseHold = true');
const held = (page: Page) => page.evaluate<boolean>('window.usersHeld');

test('opening the app again shows the list it left at once, before the cache answers, then the cache’s own rows', async ({
  app,
  api,
  fullToken,
}) => {
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  await goTo(app, 'Users');
  await expect(usersCount(app)).toHaveText(/^([\d,]+) of \1 users$/);
  const count = (await usersCount(app).innerText()).replace(/^[\d,]+ of /, '');
  const left = (await firstNames(app)).slice(0, 5);
  await expect.poll(() => keptScreens(app)).toBe(1);

  await app.addInitScript(holdUsersOnLoad(await cacheName(app)));
  await app.reload();
  await expect.poll(() => held(app)).toBe(true);
  // the list it left, with its count, while no read of people has been answered; marked busy for assistive technology
  await expect(usersGrid(app)).toHaveAttribute('aria-busy', 'true');
  expect((await firstNames(app)).slice(0, 5)).toEqual(left);
  await expect(usersCount(app)).toHaveText(count);
  await app.screenshot({ path: test.info().outputPath('kept-first-screen.png') });
  await expect(usersGrid(app)).toHaveAttribute('aria-busy', 'true');

  await release(app);
  await expect(usersGrid(app)).not.toHaveAttribute('aria-busy', 'true');
  await expect(usersCount(app)).toHaveText(new RegExp(`^[\\d,]+ of ${count}$`));
  expect((await firstNames(app)).slice(0, 5)).toEqual(left);
});

test('a change queued since the list was left is never hidden behind it: the list waits for the cache, then is kept with the change', async ({
  app,
  api,
  fullToken,
}) => {
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  await goTo(app, 'Users');
  await expect(usersCount(app)).toHaveText(/^([\d,]+) of \1 users$/);
  await expect.poll(() => keptScreens(app)).toBe(1);
  const [first] = await firstNames(app);

  // working offline, the first person's status changed: the change waits in the outbox
  await app.getByRole('banner').getByRole('switch', { name: 'Work offline' }).check();
  const [last, given] = first!.split(', ');
  await app.getByLabel('Search users').fill(`${given} ${last}`);
  await app.getByRole('button', { name: /^Select all [\d,]+ matching$/ }).click();
  await app.getByLabel('Bulk action').selectOption({ label: 'Change status' });
  await app.getByLabel('New status').selectOption('Inactive');
  await app.getByRole('button', { name: 'Preview' }).click();
  await app.getByRole('button', { name: /^Queue [\d,]+ changes?$/ }).click();
  // the kept screen goes with the change's write, which the click does not wait for
  await expect.poll(() => keptScreens(app)).toBe(0);

  await app.addInitScript(holdUsersOnLoad(await cacheName(app)));
  await app.reload();
  await expect.poll(() => held(app)).toBe(true);
  await expect(app.getByRole('status').filter({ hasText: 'Loading users…' })).toBeVisible();
  await expect(
    usersGrid(app)
      .getByRole('row')
      .filter({ has: app.getByRole('gridcell') }),
  ).toHaveCount(0);
  await release(app);
  const firstRow = usersGrid(app)
    .getByRole('row', { name: new RegExp(first!) })
    .first();
  await expect(firstRow).toContainText('Pending change');

  // kept again, with the change: the next start shows it at once
  await expect.poll(() => keptScreens(app)).toBe(1);
  await app.reload();
  await expect(usersGrid(app)).toHaveAttribute('aria-busy', 'true');
  await expect(firstRow).toContainText('Pending change');
  await release(app);
  await expect(usersGrid(app)).not.toHaveAttribute('aria-busy', 'true');
});
