/**
 * A coordinator working offline changes the sites kept on this laptop. Taking a
 * site off is this laptop's business: it asks nothing of the platform. Adding
 * one waits for the connection, and says so. And when "Work offline" is turned
 * off while a big site's removal is still running, the sync the app starts by
 * itself waits for the save, says so, and then brings the cache up to date,
 * with nobody pressing "Sync now".
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { OUR_CUSTOMER } from '../src/server/datasets.ts';
import { addProfile, goTo, usersGrid } from './support/ui.ts';

test.use({ serverOptions: { dataset: 'demo' } });

const offlineSwitch = (page: Page) => page.getByRole('banner').getByRole('switch', { name: 'Work offline' });
const keptPanel = (page: Page) => page.getByRole('region', { name: 'Sites kept on this laptop' });

/**
 * Holds a write transaction on the cache's users table until released, as a
 * big site's removal takes its time (38 s for 5,000 people): the removal's
 * steps queue behind it. Returns the release.
 */
async function holdUsersTable(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(`(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith('fieldbook-'));
    const db = await new Promise((resolve, reject) => {
      const open = indexedDB.open(names[0]);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    window.releaseHold = false;
    const store = db.transaction(['users'], 'readwrite').objectStore('users');
    // a request issued from the last one's callback keeps the transaction open (it commits once none is left)
    const spin = () => {
      if (window.releaseHold) db.close();
      else store.get(-1).onsuccess = spin;
    };
    spin();
  })()`);
  return () => page.evaluate('window.releaseHold = true').then(() => undefined);
}

/** A profile keeping both sites, synced, on Connection & sync with "Work offline" on: the kept-sites panel. */
async function keepingBothThenOffline(app: Page, baseUrl: string, token: string, other: string) {
  await addProfile(app, { name: 'Riverside site', baseUrl, token });
  await goTo(app, 'Connection & sync');
  const panel = keptPanel(app);
  await expect(panel.getByRole('checkbox', { name: other })).toBeChecked();
  await offlineSwitch(app).check();
  await expect(app.getByRole('banner')).toContainText('Working offline');
  return panel;
}

function sites(server: { query<T>(sql: string, ...p: (string | number)[]): T[] }) {
  return server.query<{ siteid: number; sitename: string }>(
    'SELECT siteid, sitename FROM sites WHERE customerid = ? ORDER BY siteid',
    OUR_CUSTOMER,
  );
}

test('working offline: taking a site off or adding it back asks nothing of the platform; the added site comes with the sync once Work offline is off', async ({
  app,
  api,
  fullToken,
  server,
}) => {
  const [, other] = sites(server);
  const person = server.query<{ username: string }>(
    'SELECT username FROM users WHERE siteid = ? ORDER BY userid LIMIT 1',
    other!.siteid,
  )[0]!;
  const panel = await keepingBothThenOffline(app, api.baseUrl, fullToken, other!.sitename);
  const asked = api.log.length;

  await panel.getByRole('checkbox', { name: other!.sitename }).uncheck();
  await panel.getByRole('button', { name: 'Save sites' }).click();
  await expect(panel).toContainText(`${other!.sitename}: removed from this laptop.`);
  // the panel says what is kept now, though the list of sites could not be asked again
  await expect(panel.getByRole('checkbox', { name: other!.sitename })).not.toBeChecked();
  await expect(panel).toContainText('1 site of 2 kept.');
  expect(api.log.slice(asked)).toEqual([]);

  await panel.getByRole('checkbox', { name: other!.sitename }).check();
  await panel.getByRole('button', { name: 'Save sites' }).click();
  await expect(panel).toContainText(`${other!.sitename}: kept, and synced when you turn Work offline off.`);
  await app.screenshot({ path: test.info().outputPath('add-site-offline.png'), fullPage: true });
  expect(api.log.slice(asked)).toEqual([]);
  await goTo(app, 'Users');
  await app.getByLabel('Search users').fill(person.username);
  await expect(usersGrid(app)).not.toContainText(person.username);

  // back online: the outbox has nothing to send, and one sync brings the site back
  await offlineSwitch(app).uncheck();
  await expect(usersGrid(app)).toContainText(person.username, { timeout: 45_000 });
});

test('back online while a site is being removed: the sync waits for the save, says so, and runs by itself', async ({
  app,
  api,
  fullToken,
  server,
}) => {
  const [kept, other] = sites(server);
  const person = server.query<{ userid: number; username: string }>(
    'SELECT userid, username FROM users WHERE siteid = ? ORDER BY userid LIMIT 1',
    kept!.siteid,
  )[0]!;
  const panel = await keepingBothThenOffline(app, api.baseUrl, fullToken, other!.sitename);

  // meanwhile, at head office
  expect(server.mutate({ resource: 'user', id: person.userid, changes: { firstname: 'Headoffice' } })).toBe(
    true,
  );

  const release = await holdUsersTable(app);
  await panel.getByRole('checkbox', { name: other!.sitename }).uncheck();
  await panel.getByRole('button', { name: 'Save sites' }).click();
  // the removal begins by reading the site's people, held back until released
  await expect(panel.getByRole('status').filter({ hasText: /^(Saving…|Removing )/ })).toBeVisible();

  await offlineSwitch(app).uncheck();
  await expect(app.getByRole('region', { name: 'Sync', exact: true })).toContainText(
    'The sites kept on this laptop are being saved: the sync starts when that is done.',
  );
  await expect(app.getByRole('banner')).toContainText('Sync starts when the kept sites are saved');
  await app.screenshot({ path: test.info().outputPath('sync-waits-for-save.png'), fullPage: true });
  await release();

  await expect(panel).toContainText(`${other!.sitename}: removed from this laptop.`, { timeout: 45_000 });
  // (one record changed at head office: "1 record written")
  await expect(app.getByRole('status').filter({ hasText: /^Sync completed\. / })).toBeVisible({
    timeout: 45_000,
  });
  await goTo(app, 'Users');
  await app.getByLabel('Search users').fill(person.username);
  await expect(usersGrid(app)).toContainText('Headoffice');
});
