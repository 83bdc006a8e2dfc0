/**
 * The cache equals the server, through the real renderer in Chromium: a full sync,
 * then a few hundred random changes behind the client's back (names, statuses,
 * dates, deletions at page boundaries, e-mails, access, new people), then a resync;
 * every table read from IndexedDB must equal the server's own data, read with SQL.
 */
import { expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';
import type { RunningServer } from '../src/server/index.ts';
import { clientFor } from '../src/server/testing/testkit.ts';
import { randomChanges } from '../src/server/testing/random-changes.ts';
import {
  cacheTables,
  COMPARED_TABLES,
  differences,
  serverTables,
  summariseDifferences,
  type Row,
} from '../src/server/testing/tables.ts';
import { readTablesScript } from './support/browser-scripts.ts';
import { addProfile, expectSyncOutcome, goTo, startSync, syncNow } from './support/ui.ts';
import { OUR_CUSTOMER } from '../src/server/datasets.ts';

/** small pages: the demo's 300 people make many page boundaries to delete at */
const LIMIT = 100;
test.use({ serverOptions: { dataset: 'demo', admin: true }, harnessOptions: { sync: { limit: LIMIT } } });

async function expectCacheEqualsServer(
  app: Page,
  server: RunningServer,
  keptSites?: readonly number[],
): Promise<void> {
  const rows = await app.evaluate<Record<string, Row[]>>(readTablesScript(COMPARED_TABLES));
  const { summary, shown } = summariseDifferences(
    differences(cacheTables(rows), serverTables(server, keptSites)),
  );
  expect(shown, summary).toEqual([]);
}

test('after a few hundred changes behind its back, a resync leaves every table equal to the server', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(180_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  await expectCacheEqualsServer(app, server);

  const made = await randomChanges(server, clientFor(server), { seed: 7, count: 300, pageSize: LIMIT });
  expect(made.applied).toBeGreaterThan(250);
  await startSync(app);
  await expect(
    app.getByRole('status').filter({ hasText: /^Sync completed\. [\d,]+ records? written, [\d,]+ removed/ }),
  ).toBeVisible({ timeout: 60_000 });
  await expectCacheEqualsServer(app, server);

  // and a resync with nothing changed keeps it so
  await startSync(app);
  await expectSyncOutcome(app, 'Sync completed.');
  await expectCacheEqualsServer(app, server);
});

test("keeping one site of two: after a few hundred changes behind its back, a resync leaves every table equal to that site's records on the server", async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(180_000);
  const [kept, other] = server.query<{ siteid: number; sitename: string }>(
    'SELECT siteid, sitename FROM sites WHERE customerid = ? ORDER BY siteid',
    OUR_CUSTOMER,
  );
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await goTo(app, 'Connection & sync');
  const panel = app.getByRole('region', { name: 'Sites kept on this laptop' });
  await panel.getByRole('checkbox', { name: other!.sitename }).uncheck();
  await panel.getByRole('button', { name: 'Save sites' }).click();
  await expect(panel).toContainText(`${other!.sitename}: removed from this laptop.`, { timeout: 30_000 });
  await syncNow(app);
  await expectCacheEqualsServer(app, server, [kept!.siteid]);

  const made = await randomChanges(server, clientFor(server), { seed: 11, count: 300, pageSize: LIMIT });
  expect(made.applied).toBeGreaterThan(250);
  await startSync(app);
  await expectSyncOutcome(app, 'Sync completed.');
  await expectCacheEqualsServer(app, server, [kept!.siteid]);

  // and a resync with nothing changed (every page skipped by its fingerprint) keeps it so
  await startSync(app);
  await expectSyncOutcome(app, 'Sync completed.');
  await expectCacheEqualsServer(app, server, [kept!.siteid]);
});
