/**
 * The import against the coordinator's own queued change: Ana is queued as
 * Inactive (working offline, so it waits), then HR's file says Active. The
 * preview says the row overrides the queued change, and queues it unless it is
 * unticked (the file wins). And an e-mail removal queued offline (an undo of
 * the import that added the address) meets HR's file listing the address
 * again: the row adds it back after the removal, and the platform keeps it.
 * Likewise a person only queued to be created, and a credential queued for
 * removal that the file gives.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { addProfile, goTo, syncNow } from './support/ui.ts';
import { fileDataTransfer } from './support/drop.ts';

const run = promisify(execFile);

/** HR's file as a coordinator saves it: typed as CSV, saved as XLSX by LibreOffice. */
async function libreOfficeXlsx(dir: string, name: string, rows: string[][]): Promise<Buffer> {
  const csv = path.join(dir, `${name}.csv`);
  await writeFile(csv, rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\n'));
  await run(
    'soffice',
    [
      `-env:UserInstallation=file://${dir}/lo-make`,
      '--headless',
      '--infilter=CSV:44,34,76',
      '--convert-to',
      'xlsx:Calc MS Excel 2007 XML',
      '--outdir',
      dir,
      csv,
    ],
    { timeout: 120_000 },
  );
  return readFile(path.join(dir, `${name}.xlsx`));
}

async function dropFile(page: Page, name: string, bytes: Buffer): Promise<void> {
  const dataTransfer = await fileDataTransfer(page, name, bytes);
  await page.locator('.import-view').dispatchEvent('drop', { dataTransfer });
}

test("a row that overrides the coordinator's queued status change says so, and is queued unless unticked", async ({
  app,
  api,
  server,
  fullToken,
}) => {
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const ana = server.query<{ userid: number; username: string; firstname: string; lastname: string }>(
    "SELECT userid, username, firstname, lastname FROM users WHERE status = 'Active' AND siteid = (SELECT MIN(siteid) FROM users) ORDER BY userid LIMIT 1",
  )[0]!;
  // working offline: the queued change waits in the Outbox
  await app.getByRole('banner').getByRole('switch', { name: 'Work offline' }).click();
  await app.goto(`${app.url().split('#')[0]}#/users/${ana.userid}`);
  await app.locator('summary', { hasText: 'Edit this user' }).click();
  const form = app.getByRole('form', { name: 'Edit this user' });
  await form.getByLabel('Status').selectOption('Inactive');
  await form.getByRole('button', { name: 'Queue change' }).click();
  await expect(
    app.getByRole('banner').getByRole('status', { name: 'Connection: Working offline — 1 change waiting' }),
  ).toBeVisible();

  await goTo(app, 'Import');
  await dropFile(app, 'hr.csv', Buffer.from(`Username,Status\r\n${ana.username},Active\r\n`));
  await expect(app.getByRole('status', { name: 'Import summary' })).toContainText('0 to create, 1 to update');
  await expect(
    app.getByText(
      '1 row overrides a change you queued (marked "your queued change"): the file\'s value is sent after it. Untick the row to keep your change instead.',
    ),
  ).toBeVisible();
  const row = app.getByRole('table', { name: 'Rows of the file' }).getByRole('row').nth(1);
  await expect(row).toContainText(`${ana.firstname} ${ana.lastname} (${ana.username}`);
  await expect(row).toContainText('Status: Inactive (your queued change) → Active');
  await expect(app.getByRole('button', { name: 'Queue 1 row' })).toBeEnabled();
  await app.getByRole('checkbox', { name: 'Queue row 2' }).uncheck();
  await expect(app.getByRole('button', { name: 'Queue 0 rows' })).toBeDisabled();
  await app.getByRole('checkbox', { name: 'Queue row 2' }).check();
  await app.screenshot({ path: 'test-results/import-queued-change.png', fullPage: true });
});

test('an e-mail the coordinator queued for removal is added back by a file that lists it, and the platform keeps it', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(300_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const ana = server.query<{ userid: number; username: string; firstname: string; lastname: string }>(
    "SELECT userid, username, firstname, lastname FROM users WHERE status = 'Active' AND siteid = (SELECT MIN(siteid) FROM users) ORDER BY userid LIMIT 1",
  )[0]!;
  const address = `${ana.username}.hr@example.com`;
  // the platform's records of the address for Ana
  const records = () =>
    server
      .query<{ emailid: number }>(
        'SELECT emailid FROM emails WHERE userid = ? AND lower(email) = lower(?)',
        ana.userid,
        address,
      )
      .map((e) => e.emailid);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-import-queued-'));
  try {
    const file = await libreOfficeXlsx(dir, 'hr', [
      ['Username', 'E-mail'],
      [ana.username, address],
    ]);
    // online: the file gives Ana the address, and it is sent
    await goTo(app, 'Import');
    await dropFile(app, 'hr.xlsx', file);
    await expect(app.getByRole('status', { name: 'Import summary' })).toContainText(
      '0 to create, 1 to update',
    );
    await app.getByRole('button', { name: 'Queue 1 row' }).click();
    await expect.poll(records, { timeout: 30_000 }).toHaveLength(1);

    // offline: the coordinator undoes that import, so the address's removal waits in the Outbox
    await app.getByRole('banner').getByRole('switch', { name: 'Work offline' }).click();
    await goTo(app, 'Outbox');
    const batches = app.getByRole('table', { name: 'Batches' });
    await expect(batches.getByText('1 sent')).toBeVisible({ timeout: 30_000 });
    await batches.getByRole('link', { name: /^Undo this batch/ }).click();
    await app.getByRole('button', { name: /^Queue the undo/ }).click();
    await expect(
      app.getByRole('banner').getByRole('status', { name: 'Connection: Working offline — 1 change waiting' }),
    ).toBeVisible();

    // HR's file, dropped again: not "unchanged", but the address added back after the removal
    await goTo(app, 'Import');
    await dropFile(app, 'hr.xlsx', file);
    await expect(app.getByRole('status', { name: 'Import summary' })).toContainText(
      '0 to create, 1 to update, 0 identity changes, 0 unchanged',
    );
    await expect(
      app.getByText(
        '1 row overrides a change you queued (marked "your queued change"): the file\'s value is sent after it. Untick the row to keep your change instead.',
      ),
    ).toBeVisible();
    const row = app.getByRole('table', { name: 'Rows of the file' }).getByRole('row').nth(1);
    await expect(row).toContainText(`${ana.firstname} ${ana.lastname} (${ana.username}`);
    await expect(row).toContainText(`add back e-mail ${address}, which your queued change removes`);
    await app.screenshot({ path: 'test-results/import-queued-email.png', fullPage: true });
    await app.getByRole('button', { name: 'Queue 1 row' }).click();
    await expect(
      app
        .getByRole('banner')
        .getByRole('status', { name: 'Connection: Working offline — 2 changes waiting' }),
    ).toBeVisible();
    expect(records()).toHaveLength(1);

    // back online: the removal, then the file's address; the platform ends as the file says
    await app.getByRole('banner').getByRole('switch', { name: 'Work offline' }).click();
    await expect(app.getByRole('banner').getByRole('status', { name: 'Connection: Online' })).toBeVisible({
      timeout: 30_000,
    });
    await goTo(app, 'Outbox');
    await expect(batches.getByRole('row').filter({ hasText: /^.*Undo:/ })).toContainText('1 sent', {
      timeout: 30_000,
    });
    // the newest batch first: the file's import, sent after the removal
    await expect(batches.getByRole('row').filter({ hasText: 'Import of hr.xlsx' }).first()).toContainText(
      '1 sent',
      { timeout: 30_000 },
    );
    await expect.poll(records, { timeout: 30_000 }).toHaveLength(1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a file that changes a person only queued to be created changes that person once the create is sent, never creating them twice', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const named = () =>
    server.query<{ firstname: string; lastname: string }>(
      "SELECT firstname, lastname FROM users WHERE username = 'cy.new'",
    );
  await app.getByRole('banner').getByRole('switch', { name: 'Work offline' }).click();

  // offline: a first file queues Cy's creation
  await goTo(app, 'Import');
  await dropFile(app, 'new-people.csv', Buffer.from('Username,First name,Last name\r\ncy.new,Cy,Ode\r\n'));
  await expect(app.getByRole('status', { name: 'Import summary' })).toContainText('1 to create, 0 to update');
  await app.getByRole('button', { name: 'Queue 1 row' }).click();
  await expect(
    app.getByRole('banner').getByRole('status', { name: 'Connection: Working offline — 1 change waiting' }),
  ).toBeVisible();

  // HR's corrected file: Cy is found as the queued person, and only the first name changes
  await dropFile(
    app,
    'new-people-fixed.csv',
    Buffer.from('Username,First name,Last name\r\ncy.new,Cyril,Ode\r\n'),
  );
  await expect(app.getByRole('status', { name: 'Import summary' })).toContainText('0 to create, 1 to update');
  const row = app.getByRole('table', { name: 'Rows of the file' }).getByRole('row').nth(1);
  await expect(row).toContainText(
    'Cy Ode (cy.new), waiting in the Outbox to be created: First name: Cy → Cyril',
  );
  await app.screenshot({ path: 'test-results/import-queued-create.png', fullPage: true });
  await app.getByRole('button', { name: 'Queue 1 row' }).click();
  await expect(
    app.getByRole('banner').getByRole('status', { name: 'Connection: Working offline — 2 changes waiting' }),
  ).toBeVisible();

  // back online: one Cy on the platform, named as the corrected file says
  await app.getByRole('banner').getByRole('switch', { name: 'Work offline' }).click();
  await expect.poll(named, { timeout: 30_000 }).toEqual([{ firstname: 'Cyril', lastname: 'Ode' }]);
  await goTo(app, 'Outbox');
  await expect(
    app
      .getByRole('table', { name: 'Batches' })
      .getByRole('row')
      .filter({ hasText: 'Import of new-people-fixed.csv' }),
  ).toContainText('1 sent', { timeout: 30_000 });
  expect(named()).toHaveLength(1);
});

test("a credential the coordinator queued for removal is kept by a file that gives it, with the file's expiration date", async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const held = server.query<{
    userid: number;
    username: string;
    firstname: string;
    lastname: string;
    credentialid: number;
    credentialname: string;
  }>(
    `SELECT u.userid, u.username, u.firstname, u.lastname, c.credentialid, c.credentialname
     FROM credential_assignments a
       JOIN users u ON u.userid = a.userid JOIN credentials c ON c.credentialid = a.credentialid
     WHERE u.siteid = (SELECT MIN(siteid) FROM users) AND c.requiredstartdate = 0 AND c.requiredcredentialnum = 0
       AND (SELECT COUNT(*) FROM credentials d WHERE d.credentialname = c.credentialname) = 1
     ORDER BY u.userid, c.credentialid LIMIT 1`,
  )[0]!;
  const assignment = () =>
    server.query<{ expirationdate: string }>(
      'SELECT expirationdate FROM credential_assignments WHERE userid = ? AND credentialid = ?',
      held.userid,
      held.credentialid,
    );

  // offline, on the person's page: the credential removed (queued)
  await app.getByRole('banner').getByRole('switch', { name: 'Work offline' }).click();
  await app.goto(`${app.url().split('#')[0]}#/users/${held.userid}`);
  await app.locator('summary', { hasText: `Edit ${held.credentialname}` }).click();
  await app
    .getByRole('form', { name: `Edit ${held.credentialname}` })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(
    app.getByRole('banner').getByRole('status', { name: 'Connection: Working offline — 1 change waiting' }),
  ).toBeVisible();

  // HR's file gives that credential, expiring 2027-06-30: the row keeps it
  await goTo(app, 'Import');
  await dropFile(
    app,
    'licences.csv',
    Buffer.from(`Username,Credential expiration date\r\n${held.username},2027-06-30\r\n`),
  );
  await app.getByLabel('The credential').selectOption(String(held.credentialid));
  await expect(app.getByRole('status', { name: 'Import summary' })).toContainText('0 to create, 1 to update');
  const row = app.getByRole('table', { name: 'Rows of the file' }).getByRole('row').nth(1);
  await expect(row).toContainText(
    `keep the credential ${held.credentialname}, which your queued change removes (assigned again after it, with the file's values)`,
  );
  await app.screenshot({ path: 'test-results/import-queued-credential.png', fullPage: true });
  await app.getByRole('button', { name: 'Queue 1 row' }).click();
  await expect(
    app.getByRole('banner').getByRole('status', { name: 'Connection: Working offline — 2 changes waiting' }),
  ).toBeVisible();

  // back online: removed, then assigned again as the file says
  await app.getByRole('banner').getByRole('switch', { name: 'Work offline' }).click();
  await goTo(app, 'Outbox');
  await expect(
    app
      .getByRole('table', { name: 'Batches' })
      .getByRole('row')
      .filter({ hasText: 'Import of licences.csv' }),
  ).toContainText('1 sent', { timeout: 30_000 });
  expect(assignment()).toEqual([
    { expirationdate: expect.stringMatching(/2027-06-30|06\/30\/2027/) as unknown as string },
  ]);
});

test("an import's whole batch discarded in the Outbox: nothing waits, nothing is sent once online", async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  // the import stores its batch packed, a hundred changes to a record: the discard deletes the pack whole
  const people = server.query<{ userid: number; username: string }>(
    "SELECT userid, username FROM users WHERE status = 'Active' AND siteid = (SELECT MIN(siteid) FROM users) ORDER BY userid",
  );
  expect(people.length).toBeGreaterThan(10);
  const banner = app.getByRole('banner');
  await banner.getByRole('switch', { name: 'Work offline' }).click();
  await goTo(app, 'Import');
  const csv = ['Username,Status', ...people.map((p) => `${p.username},Inactive`)].join('\r\n');
  await dropFile(app, 'hr.csv', Buffer.from(`${csv}\r\n`));
  await app.getByRole('button', { name: `Queue ${people.length} rows` }).click();
  const waiting = (what: string) =>
    banner.getByRole('status', { name: `Connection: Working offline — ${what}` });
  await expect(waiting(`${people.length} changes waiting`)).toBeVisible();

  await goTo(app, 'Outbox');
  const batches = app.getByRole('table', { name: 'Batches' });
  await batches.getByRole('button', { name: /^Discard batch/ }).click();
  await batches.getByRole('button', { name: `Discard ${people.length} changes` }).click();
  await expect(app.getByText('Nothing here.')).toBeVisible();
  await expect(waiting('nothing waiting to be sent')).toBeVisible();

  await banner.getByRole('switch', { name: 'Work offline' }).click();
  await expect(banner.getByRole('status', { name: /^Connection: Online/ })).toBeVisible();
  // a sync (online: the engine has had its turn) and the platform still holds every one of them Active
  await syncNow(app);
  const statuses = server.query<{ status: string }>(
    `SELECT DISTINCT status FROM users WHERE userid IN (${people.map((p) => p.userid).join(',')})`,
  );
  expect(statuses).toEqual([{ status: 'Active' }]);
});
