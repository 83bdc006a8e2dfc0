/**
 * A coordinator working offline changes the sites kept on this laptop, then
 * turns "Work offline" off while the save is still running: the sync the app
 * starts by itself waits for the save, says so, and then brings the cache up
 * to date, with nobody pressing "Sync now".
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { OUR_CUSTOMER } from '../src/server/datasets.ts';
import { addProfile, goTo, usersGrid } from './support/ui.ts';

test.use({ serverOptions: { dataset: 'demo' } });

const offlineSwitch = (page: Page) => page.getByRole('banner').getByRole('switch', { name: 'Work offline' });

test('back online while the kept sites are saved: the sync waits for the save, says so, and runs by itself', async ({ app, api, fullToken, server }) => {
  const [kept, other] = server.query<{ siteid: number; sitename: string }>('SELECT siteid, sitename FROM sites WHERE customerid = ? ORDER BY siteid', OUR_CUSTOMER);
  const person = server.query<{ userid: number; username: string }>('SELECT userid, username FROM users WHERE siteid = ? ORDER BY userid LIMIT 1', kept!.siteid)[0]!;
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await goTo(app, 'Connection & sync');
  const panel = app.getByRole('region', { name: 'Sites kept on this laptop' });
  await expect(panel.getByRole('checkbox', { name: other!.sitename })).toBeChecked();
  await offlineSwitch(app).check();
  await expect(app.getByRole('banner')).toContainText('Working offline');

  // meanwhile, at head office
  expect(server.mutate({ resource: 'user', id: person.userid, changes: { firstname: 'Headoffice' } })).toBe(true);

  // the save checks the new list against the platform's sites: that answer is slow to come (it times out once, then comes)
  let held = false;
  api.setRule((request) => (!held && request.method === 'GET' && /^\/v1\/sites(\?|$)/.test(request.url) ? ((held = true), 'hang') : undefined));
  await panel.getByRole('checkbox', { name: other!.sitename }).uncheck();
  await panel.getByRole('button', { name: 'Save sites' }).click();
  await expect.poll(() => held, { timeout: 30_000 }).toBe(true);

  await offlineSwitch(app).uncheck();
  await expect(app.getByRole('region', { name: 'Sync', exact: true })).toContainText('The sites kept on this laptop are being saved: the sync starts when that is done.');
  await expect(app.getByRole('banner')).toContainText('Sync starts when the kept sites are saved');
  await app.screenshot({ path: test.info().outputPath('sync-waits-for-save.png'), fullPage: true });

  await expect(panel).toContainText(`${other!.sitename}: removed from this laptop.`, { timeout: 45_000 });
  // (one record changed at head office: "1 record written")
  await expect(app.getByRole('status').filter({ hasText: /^Sync completed\. / })).toBeVisible({ timeout: 45_000 });
  await goTo(app, 'Users');
  await app.getByLabel('Search users').fill(person.username);
  await expect(usersGrid(app)).toContainText('Headoffice');
});
