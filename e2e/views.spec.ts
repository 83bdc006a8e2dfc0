/**
 * The review views tell the truth: search finds people however their names are
 * typed, and same-named groups can be told apart where they are picked.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test, type ReferenceServer } from './fixtures.ts';
import {
  ALL_TABS,
  addProfile,
  expectSyncOutcome,
  goTo,
  startSync,
  syncNow,
  usersCount,
  usersGrid,
} from './support/ui.ts';
import { countedIn } from './support/count-line.ts';
import { downloadExport } from './support/exports.ts';
import { addDaysIso, todayIso } from '../src/shared/dates.ts';

test.use({ serverOptions: { dataset: 'demo', admin: true } });

/** Gives three users of the site names a coordinator would have trouble finding. */
function renamePeople(server: ReferenceServer): void {
  const ids = server
    .query<{ userid: number }>('SELECT userid FROM users WHERE siteid < 900 ORDER BY userid LIMIT 3')
    .map((u) => u.userid);
  const people = [
    { firstname: 'María', lastname: 'Bäilerton', username: 'mbailerton' },
    { firstname: 'Lucy', lastname: 'Ferris', username: 'lucia.fernandez' },
    { firstname: 'Zoë', lastname: 'Ñandúbay', username: 'zoe_n' },
  ];
  people.forEach((changes, i) =>
    expect(server.mutate({ resource: 'user', id: ids[i]!, changes })).toBe(true),
  );
}

/** The renamed people on the server, then a profile synced from it. */
async function syncRenamedSite({
  app,
  api,
  server,
  fullToken,
}: {
  app: Page;
  api: { baseUrl: string };
  server: ReferenceServer;
  fullToken: string;
}): Promise<void> {
  test.setTimeout(120_000);
  renamePeople(server);
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
}

test.describe('with a synced site', () => {
  test.beforeEach(async ({ app, api, server, fullToken }) => {
    await syncRenamedSite({ app, api, server, fullToken });
    await goTo(app, 'Users');
  });

  test('search ignores accents and case, whichever side has them', async ({ app }) => {
    const search = app.getByLabel('Search users');
    for (const typed of ['nandubay', 'ÑANDÚ', 'zoe nan']) {
      await search.fill(typed);
      await expect(usersCount(app)).toHaveText(/^1 of \d+ users$/);
      await expect(usersGrid(app).getByRole('link', { name: 'Ñandúbay, Zoë' })).toBeVisible();
    }
  });

  test('search finds a word inside a username', async ({ app }) => {
    await app.getByLabel('Search users').fill('fernandez');
    await expect(usersGrid(app).getByRole('link', { name: 'Ferris, Lucy' })).toBeVisible();
    await expect(usersCount(app)).toHaveText(/^1 of \d+ users$/);
  });

  test('search finds a name typed in either order, with or without a comma', async ({ app }) => {
    for (const typed of ['maria bailerton', 'bailerton, maria', 'Bäilerton MARÍA']) {
      await app.getByLabel('Search users').fill(typed);
      await expect(usersGrid(app).getByRole('link', { name: 'Bäilerton, María' })).toBeVisible();
      await expect(usersCount(app)).toHaveText(/^1 of \d+ users$/);
    }
  });

  test('the bulk group picker and the group filter put each site’s same-named groups under that site', async ({
    app,
    server,
  }) => {
    const sites = server
      .query<{ sitename: string }>('SELECT sitename FROM sites WHERE siteid < 900 ORDER BY sitename')
      .map((s) => s.sitename);
    expect(sites.length).toBeGreaterThan(1);
    await app.getByRole('button', { name: /^Select all/ }).click();
    await app.getByLabel('Bulk action').selectOption({ label: 'Group access' });
    const picker = app.getByLabel('Group access', { exact: true });
    for (const picks of [picker, app.getByLabel('Profile group')]) {
      for (const site of sites) {
        const heading = picks.locator(`optgroup[label="${site} · Department"]`);
        // each option names its site too: the chosen one reads alone in the closed picker
        await expect(heading.locator('option', { hasText: `Operations (${site})` })).toHaveCount(1);
      }
    }
    // the option chosen is the one under that site's heading
    const [, second] = sites;
    const value = await picker
      .locator(`optgroup[label="${second} · Department"] option`, { hasText: /^Operations \(/ })
      .getAttribute('value');
    await picker.selectOption(value!);
    await app.getByRole('button', { name: 'Preview' }).click();
    // the other site's people cannot get a group of this site: the picked group is this site's
    await expect(
      app.getByRole('region', { name: 'Preview' }).getByText(/^Cannot be done \(\d+\)$/),
    ).toBeVisible();
  });
});

/**
 * The total a list's count line gives ("500 of 1,234 credentials held (scroll for more)" or "1,234 holders"), once
 * loaded.
 */
async function assignmentsCounted(list: Locator): Promise<number> {
  return (await countedIn(list)).total;
}

test.describe('exports of what the views show', () => {
  test.beforeEach(syncRenamedSite);

  test('the users list exports the people the search and filters show, in CSV and XLSX', async ({ app }) => {
    await goTo(app, 'Users');
    await app.getByLabel('Search users').fill('nandubay');
    await expect(usersCount(app)).toHaveText(/^1 of \d+ users$/);
    for (const format of ['CSV', 'XLSX']) {
      const file = await downloadExport(app, app.getByRole('button', { name: `Export users as ${format}` }));
      expect(file.fileName).toMatch(
        new RegExp(`^fieldbook-users-\\d{4}-\\d{2}-\\d{2}\\.${format.toLowerCase()}$`),
      );
      expect(file.rows).toHaveLength(2);
      expect(file.rows[0]).toEqual([
        'Last name',
        'First name',
        'Username',
        'Employee ID',
        'Status',
        'User type',
        'Site',
        'Pending change',
      ]);
      expect(file.rows[1]!.slice(0, 3)).toEqual(['Ñandúbay', 'Zoë', 'zoe_n']);
    }
  });

  test('a credential’s holders and the expiring credentials export every row the view counts', async ({
    app,
    server,
  }) => {
    const credential = server.query<{ credentialid: number; credentialname: string; holders: number }>(
      'SELECT c.credentialid, c.credentialname, COUNT(*) AS holders FROM credentials c JOIN credential_assignments a ON a.credentialid = c.credentialid GROUP BY c.credentialid ORDER BY holders DESC LIMIT 1',
    )[0]!;
    await app.goto(`${app.url().split('#')[0]}#/credentials/${credential.credentialid}`);
    const holders = app.getByRole('region', { name: `Holders: ${credential.credentialname}` });
    await expect(holders.getByRole('status')).toHaveText(`${credential.holders} holders`);
    const file = await downloadExport(app, holders.getByRole('button', { name: /as XLSX$/ }));
    expect(file.rows).toHaveLength(credential.holders + 1);
    expect(file.rows[0]!.slice(0, 5)).toEqual([
      'Last name',
      'First name',
      'Username',
      'Employee ID',
      'Credential',
    ]);
    expect(new Set(file.rows.slice(1).map((r) => r[4]))).toEqual(
      new Set([
        expect.stringMatching(
          new RegExp(`^${credential.credentialname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(.+\\)$`),
        ),
      ]),
    );

    await goTo(app, 'Credentials');
    const all = app.getByRole('region', { name: 'Holders: All credentials' });
    await all.getByLabel('Show').selectOption({ label: 'Expiring within 90 days' });
    const expiring = await downloadExport(
      app,
      all.getByRole('button', { name: 'Export credentials expiring within 90 days as CSV' }),
    );
    // the count line follows the window a moment after the picker (its query is read anew): it settles on the rows
    // exported
    await expect.poll(() => assignmentsCounted(all)).toBe(expiring.rows.length - 1);
    expect(expiring.rows.length).toBeGreaterThan(1);
    expect(expiring.rows[0]![7]).toBe('State');
    // the state of the one "soon" window (30 days), whatever list it is exported from
    const soon = addDaysIso(todayIso(), 30);
    expect(expiring.rows.slice(1).map((r) => r[7])).toEqual(
      expiring.rows.slice(1).map((r) => (r[6]! <= soon ? 'Expiring soon' : 'Valid')),
    );
  });

  test('overdue training over all courses is a list of its own, and exports', async ({ app }) => {
    const today = new Date().toISOString().slice(0, 10);
    await goTo(app, 'Training');
    const list = app.getByRole('region', { name: 'All courses' });
    await expect(list.getByLabel('Show')).toHaveValue('overdue');
    const counted = await assignmentsCounted(list);
    expect(counted).toBeGreaterThan(0);
    const file = await downloadExport(
      app,
      list.getByRole('button', { name: 'Export overdue training all courses as CSV' }),
    );
    expect(file.rows).toHaveLength(counted + 1);
    expect(file.rows[0]!.slice(4, 7)).toEqual(['Course', 'Due', 'State']);
    expect(file.rows.slice(1).every((r) => r[6] === 'Overdue' && r[5]! < today)).toBe(true);
  });

  test('access exports each group with its site, category and supervisors', async ({ app }) => {
    await goTo(app, 'Access');
    const file = await downloadExport(app, app.getByRole('button', { name: 'Export group access as XLSX' }));
    expect(file.rows[0]).toEqual(['Group', 'Site · category', 'Members', 'With access', 'Supervisors']);
    const operations = file.rows.filter((r) => r[0] === 'Operations');
    expect(operations.length).toBeGreaterThan(1);
    expect(new Set(operations.map((r) => r[1])).size).toBe(operations.length);
  });
});

test.describe('sync status', () => {
  test.use({ serverOptions: { dataset: 'tiny', admin: true } });

  test('the header shows progress as N of M with a Cancel, and a cancelled sync says what it kept', async ({
    app,
    api,
    server,
    fullToken,
  }) => {
    await addProfile(app, { name: 'Tiny site', baseUrl: api.baseUrl, token: fullToken });
    await syncNow(app); // the next sync knows the totals
    server.setFaults({ latencyMs: 150 });
    await startSync(app);
    const header = app.getByRole('banner');
    await expect(header.getByRole('link', { name: /^Syncing… [\d,]+ of [\d,]+ records$/ })).toBeVisible();
    await header.getByRole('button', { name: 'Cancel the sync in progress' }).click();
    await expectSyncOutcome(app, 'Sync paused:');
    await expect(
      app.getByRole('status').filter({ hasText: /written and kept; Resume sync continues from there\./ }),
    ).toBeVisible();
    await expect(header.getByRole('button', { name: 'Cancel the sync in progress' })).toHaveCount(0);
  });

  test('the end of a sync never shows "completed" beside "Resume sync" or "Nothing synced yet", and every view has its "data as of" stamp', async ({
    app,
    api,
    fullToken,
  }) => {
    await addProfile(app, { name: 'Tiny site', baseUrl: api.baseUrl, token: fullToken });
    await goTo(app, 'Connection & sync');
    await app.evaluate(RECORD_CONTRADICTIONS);
    await startSync(app);
    await expectSyncOutcome(app, 'Sync completed.');
    expect(await app.evaluate<string[]>('window.__contradictions')).toEqual([]);
    for (const tab of ALL_TABS) {
      await goTo(app, tab);
      await expect(app.getByText(/^Data as of /)).toBeVisible();
    }
  });
});

/** Notes, on every change of the page, any moment at which the sync panel contradicts itself. */
const RECORD_CONTRADICTIONS = `(() => {
  const seen = [];
  window.__contradictions = seen;
  const check = () => {
    const text = document.body.innerText;
    const resume = [...document.querySelectorAll('button')].some((b) => b.textContent === 'Resume sync');
    if (text.includes('Sync completed.') && (resume || text.includes('Nothing synced yet'))) seen.push(text.slice(0, 400));
  };
  new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;
