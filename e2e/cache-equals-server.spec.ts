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
import { cacheTables, COMPARED_TABLES, differences, serverTables, summariseDifferences, type Row } from '../src/server/testing/tables.ts';
import { readTablesScript } from './support/browser-scripts.ts';
import { addProfile, expectSyncOutcome, startSync, syncNow } from './support/ui.ts';

/** small pages: the demo's 300 people make many page boundaries to delete at */
const LIMIT = 100;
test.use({ serverOptions: { dataset: 'demo', admin: true }, harnessOptions: { sync: { limit: LIMIT } } });

async function expectCacheEqualsServer(app: Page, server: RunningServer): Promise<void> {
  const rows = await app.evaluate<Record<string, Row[]>>(readTablesScript(COMPARED_TABLES));
  const { summary, shown } = summariseDifferences(differences(cacheTables(rows), serverTables(server)));
  expect(shown, summary).toEqual([]);
}

test('after a few hundred changes behind its back, a resync leaves every table equal to the server', async ({ app, api, server, fullToken }) => {
  test.setTimeout(180_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  await expectCacheEqualsServer(app, server);

  const made = await randomChanges(server, clientFor(server), { seed: 7, count: 300, pageSize: LIMIT });
  expect(made.applied).toBeGreaterThan(250);
  await startSync(app);
  await expect(app.getByRole('status').filter({ hasText: /^Sync completed\. [\d,]+ records? written, [\d,]+ removed/ })).toBeVisible({ timeout: 60_000 });
  await expectCacheEqualsServer(app, server);

  // and a resync with nothing changed keeps it so
  await startSync(app);
  await expectSyncOutcome(app, 'Sync completed.');
  await expectCacheEqualsServer(app, server);
});
