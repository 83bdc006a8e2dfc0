/**
 * A resync in the real renderer: pages the cache already holds are not written
 * again (page fingerprints), yet a change on the server arrives and a record
 * deleted there leaves the cache.
 */
import { expect, test } from './fixtures.ts';
import { addProfile, cachedCounts, startSync, syncNow } from './support/ui.ts';

test('a resync writes exactly what changed on the server and removes what was deleted there', async ({ app, api, server, fullToken }) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const before = await cachedCounts(app);

  await startSync(app);
  await expect(app.getByRole('status').filter({ hasText: /^Sync completed\. 0 records written/ })).toBeVisible({ timeout: 45_000 });

  const [renamed, deleted] = server.query<{ userid: number }>("SELECT userid FROM users WHERE siteid < 900 ORDER BY userid LIMIT 2");
  // a field only the user's own record carries (a name is repeated on their assignments)
  expect(server.mutate({ resource: 'user', id: renamed!.userid, changes: { employeeid: 'RESYNC-1' } })).toBe(true);
  await startSync(app);
  await expect(app.getByRole('status').filter({ hasText: /^Sync completed\. 1 records? written\./ })).toBeVisible({ timeout: 45_000 });

  // a deleted person goes, with their memberships and assignments (their groups' counts change too)
  expect(server.mutate({ resource: 'user', id: deleted!.userid, delete: true })).toBe(true);
  await startSync(app);
  await expect(app.getByRole('status').filter({ hasText: /^Sync completed\. \d+ records? written, \d+ removed/ })).toBeVisible({ timeout: 45_000 });
  expect((await cachedCounts(app))['users']).toBe(before['users']! - 1);
});
