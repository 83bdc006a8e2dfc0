/**
 * A resync in the real renderer: pages the cache already holds are not written
 * again (page fingerprints), yet a change on the server arrives and a record
 * deleted there leaves the cache.
 */
import { expect, test } from './fixtures.ts';
import { addProfile, cachedCounts, startSync } from './support/ui.ts';

test('a resync writes exactly what changed on the server and removes what was deleted there', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(120_000);
  // (a new profile syncs as it is added: that is the first sync)
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  const before = await cachedCounts(app);

  // what main streams to the renderer during the resync, as the page receives it
  await app.evaluate(() => {
    const seen: { records: number; unchanged: number; pages: number }[] = [];
    type Page = { records: unknown[]; unchangedKeys?: unknown[]; fingerprint?: { also?: unknown[] } };
    const api = (
      globalThis as unknown as { fieldbook: { on: Record<string, (listener: (page: Page) => void) => void> } }
    ).fieldbook;
    // one message may stand for a run of unchanged pages (`also`)
    api.on['sync:page']!((page) =>
      seen.push({
        records: page.records.length,
        unchanged: page.unchangedKeys?.length ?? 0,
        pages: 1 + (page.fingerprint?.also?.length ?? 0),
      }),
    );
    (globalThis as unknown as { resyncPages: typeof seen }).resyncPages = seen;
  });
  await startSync(app);
  await expect(
    app.getByRole('status').filter({ hasText: /^Sync completed\. 0 records written/ }),
  ).toBeVisible({ timeout: 45_000 });
  // the fingerprints reached main through the real bridge: pages came back as keys, not records
  const streamed = await app.evaluate(
    () =>
      (globalThis as unknown as { resyncPages: { records: number; unchanged: number; pages: number }[] })
        .resyncPages,
  );
  const pages = (list: typeof streamed) => list.reduce((n, p) => n + p.pages, 0);
  expect(pages(streamed.filter((p) => p.records === 0 && p.unchanged > 0))).toBeGreaterThan(
    pages(streamed) / 2,
  );

  const [renamed, deleted] = server.query<{ userid: number }>(
    'SELECT userid FROM users WHERE siteid < 900 ORDER BY userid LIMIT 2',
  );
  // a field only the user's own record carries (a name is repeated on their assignments)
  expect(server.mutate({ resource: 'user', id: renamed!.userid, changes: { employeeid: 'RESYNC-1' } })).toBe(
    true,
  );
  await startSync(app);
  await expect(
    app.getByRole('status').filter({ hasText: /^Sync completed\. 1 records? written\./ }),
  ).toBeVisible({ timeout: 45_000 });

  // a deleted person goes, with their memberships and assignments (their groups' counts change too)
  expect(server.mutate({ resource: 'user', id: deleted!.userid, delete: true })).toBe(true);
  await startSync(app);
  await expect(
    app.getByRole('status').filter({ hasText: /^Sync completed\. \d+ records? written, \d+ removed/ }),
  ).toBeVisible({ timeout: 45_000 });
  expect((await cachedCounts(app))['users']).toBe(before['users']! - 1);
});
