/**
 * Bulk edits and the outbox, end to end: changes queued offline show as
 * pending and are applied when the API is back; a read-only token's edits are
 * refused before anything is queued; a conflict made behind the client's back
 * is resolved in the conflict view.
 */
import os from 'node:os';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { startServer } from '../src/server/index.ts';
import { expect, test, tokenOf, type ReferenceServer } from './fixtures.ts';
import { addProfile, goTo, syncNow, usersGrid } from './support/ui.ts';
import { parkedOpsScript } from './support/browser-scripts.ts';

async function openTab(page: Page, tab: 'Outbox' | 'Conflicts'): Promise<void> {
  await goTo(page, tab);
}

async function selectUser(page: Page, username: string): Promise<void> {
  await goTo(page, 'Users');
  await page.getByLabel('Search users').fill(username);
  await page.getByRole('button', { name: /^Select all 1 matching$/ }).click();
}

async function bulkStatus(page: Page, status: string): Promise<void> {
  await page.getByLabel('Bulk action').selectOption({ label: 'Change status' });
  await page.getByLabel('New status').selectOption(status);
  await page.getByRole('button', { name: 'Preview' }).click();
}

function someActiveUser(server: ReferenceServer) {
  return server.query<{ userid: number; username: string; siteid: number }>(
    "SELECT userid, username, siteid FROM users WHERE status = 'Active' AND siteid < 900 ORDER BY userid LIMIT 1",
  )[0]!;
}

const connection = (page: Page, state: 'Online' | 'Offline') =>
  page.getByRole('status', { name: `Connection: ${state}` });

test.describe('offline, then back online', () => {
  const dbPath = path.join(os.tmpdir(), `fieldbook-outbox-e2e-${process.pid}-${Date.now()}.db`);
  test.use({ serverOptions: { dataset: 'tiny', admin: true, dbPath } });
  test.afterAll(async () => rm(dbPath, { force: true }));

  test('a status change and a credential assignment queued offline show as pending, then are applied on reconnect', async ({
    app,
    api,
    server,
    fullToken,
  }) => {
    test.setTimeout(120_000);
    await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
    await syncNow(app);
    const user = someActiveUser(server);
    const credential = server.query<{ credentialid: number; credentialname: string }>(
      `SELECT c.credentialid, c.credentialname
       FROM credentials c JOIN credential_categories k ON k.categoryid = c.categoryid
       WHERE k.siteid = ?
         AND c.credentialid NOT IN (SELECT credentialid FROM credential_assignments WHERE userid = ?)
       ORDER BY c.credentialid LIMIT 1`,
      user.siteid,
      user.userid,
    )[0]!;

    await server.close(); // the API is unreachable: the proxy in front of it drops every connection
    await expect(connection(app, 'Offline')).toBeVisible({ timeout: 30_000 });

    await selectUser(app, user.username);
    await bulkStatus(app, 'Inactive');
    await expect(app.getByText('1 change to queue.')).toBeVisible();
    await app.getByRole('button', { name: 'Queue 1 change' }).click();
    await expect(usersGrid(app).getByText('Pending')).toBeVisible();
    await expect(usersGrid(app).getByText('Inactive')).toBeVisible();

    // queueing spent the selection: the same person is selected again for the next change
    await app.getByRole('button', { name: /^Select all 1 matching$/ }).click();
    await app.getByLabel('Bulk action').selectOption({ label: 'Assign a credential' });
    await app
      .getByLabel('Assign a credential', { exact: true })
      .selectOption(String(credential.credentialid));
    await app.getByLabel(/^Start date/).fill('2026-01-15');
    await app.getByLabel(/^Expiration date/).fill('2028-06-30');
    await app.getByLabel(/^Number/).fill('E2E-1');
    await app.getByRole('button', { name: 'Preview' }).click();
    await app.getByRole('button', { name: 'Queue 1 change' }).click();

    await openTab(app, 'Outbox');
    // two batches of one change each, waiting
    await expect(app.getByRole('table', { name: 'Batches' }).getByText('1 change: 1 waiting')).toHaveCount(2);

    // the API comes back on the same address, with its data
    const back = await startServer({ port: server.port, dataset: 'tiny', admin: true, dbPath });
    try {
      await expect(connection(app, 'Online')).toBeVisible({ timeout: 30_000 });
      await expect(app.getByRole('table', { name: 'Batches' }).getByText('1 change: 1 sent')).toHaveCount(2, {
        timeout: 30_000,
      });
      expect(
        back.query<{ status: string }>('SELECT status FROM users WHERE userid = ?', user.userid)[0]?.status,
      ).toBe('Inactive');
      expect(
        back.query(
          'SELECT 1 FROM credential_assignments WHERE credentialid = ? AND userid = ?',
          credential.credentialid,
          user.userid,
        ),
      ).toHaveLength(1);
    } finally {
      await back.close();
    }
  });
});

/**
 * Page-side: the laptop's storage refuses every write to the outbox while `window.__diskFull` is set, as a full
 * disk does (IndexedDB's own QuotaExceededError); reads go on.
 */
const REFUSE_OUTBOX_WRITES_WHEN_FULL = `(() => {
  for (const method of ['put', 'add', 'delete']) {
    const real = IDBObjectStore.prototype[method];
    IDBObjectStore.prototype[method] = function (...args) {
      if (window.__diskFull && this.name === 'outbox') {
        throw new DOMException('The disk is full.', 'QuotaExceededError');
      }
      return real.apply(this, args);
    };
  }
})()`;

test.describe('the laptop storage full while sending', () => {
  const dbPath = path.join(os.tmpdir(), `fieldbook-outbox-full-e2e-${process.pid}-${Date.now()}.db`);
  test.use({ serverOptions: { dataset: 'tiny', admin: true, dbPath } });
  test.afterAll(async () => rm(dbPath, { force: true }));

  test('sending pauses with words about the disk, keeps the change, and sends it once after Send now', async ({
    app,
    api,
    server,
    fullToken,
  }, testInfo) => {
    test.setTimeout(120_000);
    await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
    await syncNow(app);
    const user = someActiveUser(server);
    await server.close();
    await expect(connection(app, 'Offline')).toBeVisible({ timeout: 30_000 });
    await selectUser(app, user.username);
    await bulkStatus(app, 'Inactive');
    await app.getByRole('button', { name: 'Queue 1 change' }).click();
    await openTab(app, 'Outbox');
    const batches = app.getByRole('table', { name: 'Batches' });
    await expect(batches.getByText('1 change: 1 waiting')).toBeVisible();

    await app.evaluate(REFUSE_OUTBOX_WRITES_WHEN_FULL);
    await app.evaluate('window.__diskFull = true');
    const back = await startServer({ port: server.port, dataset: 'tiny', admin: true, dbPath });
    try {
      const paused = app.getByText(/^Paused: Fieldbook could not save to this laptop's storage/);
      await expect(paused).toBeVisible({ timeout: 30_000 });
      await expect(batches.getByText('1 change: 1 waiting')).toBeVisible();
      await app.screenshot({ path: testInfo.outputPath('outbox-disk-full.png'), fullPage: true });
      // elsewhere in the app, a line says that the changes wait, and leads to the Outbox
      await goTo(app, 'Users');
      const notice = app.getByRole('alert').filter({ hasText: 'Your changes are not being sent.' });
      await expect(notice).toContainText("could not save to this laptop's storage");
      await app.screenshot({ path: testInfo.outputPath('users-disk-full.png'), fullPage: true });
      await notice.getByRole('link', { name: 'Open the Outbox' }).click();
      await expect(paused).toBeVisible();
      await expect(notice).toHaveCount(0);

      await app.evaluate('window.__diskFull = false');
      await app.getByRole('button', { name: 'Send now' }).click();
      await expect(batches.getByText('1 change: 1 sent')).toBeVisible({ timeout: 30_000 });
      await expect(paused).toHaveCount(0);
      const status = back.query<{ status: string }>('SELECT status FROM users WHERE userid = ?', user.userid);
      expect(status[0]?.status).toBe('Inactive');
    } finally {
      await back.close();
    }
  });
});

test('a read-only token: the preview refuses the edits and nothing is queued', async ({
  app,
  api,
  server,
}) => {
  await addProfile(app, { name: 'Read only', baseUrl: api.baseUrl, token: tokenOf(server, 'readonly') });
  await syncNow(app);
  const user = someActiveUser(server);
  await selectUser(app, user.username);
  await bulkStatus(app, 'Inactive');
  await expect(app.getByText('0 changes to queue; 1 person cannot be changed (not queued).')).toBeVisible();
  await expect(app.getByRole('button', { name: 'Queue 0 changes' })).toBeDisabled();
  await openTab(app, 'Outbox');
  await expect(app.getByText('Nothing here.')).toBeVisible();
});

test('a long outbox lists 500 operations at a time, and the rest on "Show more"', async ({
  app,
  api,
  fullToken,
}) => {
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await openTab(app, 'Outbox');
  await expect(app.getByText('Nothing here.')).toBeVisible();
  expect(await app.evaluate(parkedOpsScript(520))).toBe(520);
  await app.reload();
  await openTab(app, 'Outbox');
  await app.getByRole('button', { name: /^Show 520 changes/ }).click();
  const rows = app.getByRole('table', { name: /^Changes of / }).locator('tbody tr');
  await expect(app.getByText('Showing 500 of 520.')).toBeVisible();
  await expect(rows).toHaveCount(500);
  await app.getByRole('button', { name: 'Show 20 more' }).click();
  await expect(rows).toHaveCount(520);
  await expect(app.getByText(/^Showing/)).toHaveCount(0);
});

test('a change made on the server meanwhile becomes a conflict, resolved by keeping mine (checked against the server again)', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const user = someActiveUser(server);
  // behind the client's back, after its sync
  expect(server.mutate({ resource: 'user', id: user.userid, changes: { status: 'Offline' } })).toBe(true);

  await selectUser(app, user.username);
  await bulkStatus(app, 'Inactive');
  await app.getByRole('button', { name: 'Queue 1 change' }).click();

  await openTab(app, 'Conflicts');
  const values = app.getByRole('table', { name: 'Values in conflict' });
  await expect(
    values.getByRole('row', { name: /^Status Active .*Inactive .*Offline \(never signed in\)$/ }),
  ).toBeVisible({
    timeout: 30_000,
  });
  await app.getByRole('button', { name: 'All mine' }).click();
  await app.getByRole('button', { name: 'Send mine' }).click();
  await expect(app.getByText('No conflicts.')).toBeVisible();
  await expect
    .poll(
      () =>
        server.query<{ status: string }>('SELECT status FROM users WHERE userid = ?', user.userid)[0]?.status,
      { timeout: 30_000 },
    )
    .toBe('Inactive');
});

test('a spreadsheet of employees is checked row by row, then its creates and updates are queued and applied', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const known = someActiveUser(server);
  await app
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Import', exact: true })
    .click();
  const picker = app.getByLabel('choose a file');

  await picker.setInputFiles({
    name: 'broken.xlsx',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('not a workbook'),
  });
  await expect(app.getByRole('alert').filter({ hasText: 'not a readable Excel workbook' })).toBeVisible();

  const csv = [
    'username,first name,last name,status',
    `${known.username},Renamed,Person,Active`,
    'import-new-1,Nia,Okafor,Active',
    'bad-row,=cmd(),X,Active',
  ].join('\n');
  await picker.setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(
    app.getByText(
      '1 to create, 1 to update, 0 identity changes, 0 unchanged, 0 skipped, 0 conflicts, 0 ambiguous, 1 invalid.',
    ),
  ).toBeVisible();
  await app.getByRole('button', { name: 'Invalid (not queued): 1' }).click();
  await expect(
    app.getByRole('table', { name: 'Rows of the file' }).getByText(/looks like a spreadsheet formula/),
  ).toBeVisible();
  await app.getByRole('button', { name: 'Queue 2 rows' }).click();

  const applied = () =>
    server.query<{ username: string; firstname: string }>(
      "SELECT username, firstname FROM users WHERE userid = ? OR username = 'import-new-1' ORDER BY userid",
      known.userid,
    );
  await expect.poll(applied, { timeout: 30_000 }).toEqual([
    { username: known.username, firstname: 'Renamed' },
    { username: 'import-new-1', firstname: 'Nia' },
  ]);
});

test('a change on its way reads "being sent", with no Undo or Discard, until the platform answers', async ({
  app,
  api,
  server,
  fullToken,
}, testInfo) => {
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const user = someActiveUser(server);
  // the platform reads the record, then never answers the change itself
  api.setRule((request) => (request.method === 'GET' ? undefined : 'hang'));
  await selectUser(app, user.username);
  await bulkStatus(app, 'Inactive');
  await app.getByRole('button', { name: 'Queue 1 change' }).click();
  await openTab(app, 'Outbox');
  const batches = app.getByRole('table', { name: 'Batches' });
  await expect(batches.getByText('1 change: 1 being sent')).toBeVisible({ timeout: 30_000 });
  await expect(app.getByText(/^Sending now: 1 on the way\./)).toBeVisible();
  await expect(batches.getByRole('button', { name: /^Discard batch/ })).toHaveCount(0);
  await batches.getByRole('button', { name: /^Show 1 change/ }).click();
  const row = app
    .getByRole('table', { name: /^Changes of / })
    .locator('tbody tr')
    .first();
  await expect(row).toContainText('Sending');
  await expect(row.getByRole('button', { name: /^(Undo|Discard):/ })).toHaveCount(0);
  await app.screenshot({ path: testInfo.outputPath('outbox-being-sent.png'), fullPage: true });
  api.setRule(null);
});
