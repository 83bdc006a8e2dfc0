/**
 * Every view tells the truth: work queued offline (a group grant, a credential,
 * a training assignment, an e-mail, a status change, a person to create) shows
 * in the person's detail, the lists, the filters and the counts, marked as
 * pending; after replay each is replaced by the platform's version, side
 * effects included (the grantee became a Supervisor).
 */
import os from 'node:os';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { startServer } from '../src/server/index.ts';
import { expect, test, type ReferenceServer } from './fixtures.ts';
import { addProfile, goTo, syncNow, usersGrid } from './support/ui.ts';

const connection = (page: Page, state: 'Online' | 'Offline') =>
  page.getByRole('status', { name: `Connection: ${state}` });

async function bulk(
  page: Page,
  username: string,
  action: string,
  fill: (page: Page) => Promise<void>,
  opts: { previewed?: boolean } = {},
): Promise<void> {
  await goTo(page, 'Users');
  await page.getByRole('combobox', { name: /^Status/ }).selectOption('');
  await page.getByLabel('Search users').fill(username);
  await page.getByRole('button', { name: /^Select all 1 matching$/ }).click();
  await page.getByLabel('Bulk action').selectOption({ label: action });
  await fill(page);
  if (!opts.previewed) await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByRole('button', { name: 'Queue 1 change' }).click();
}

async function openHash(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, hash);
}

function pick(server: ReferenceServer) {
  const user = server.query<{
    userid: number;
    username: string;
    firstname: string;
    lastname: string;
    siteid: number;
  }>(
    `SELECT userid, username, firstname, lastname, siteid FROM users u
     WHERE status = 'Active' AND usertype = 'User' AND siteid < 900
       AND NOT EXISTS (SELECT 1 FROM group_access a WHERE a.userid = u.userid)
       AND NOT EXISTS (SELECT 1 FROM module_access m WHERE m.userid = u.userid)
     ORDER BY userid LIMIT 1`,
  )[0]!;
  const group = server.query<{ groupid: number; groupname: string; sitename: string }>(
    'SELECT g.groupid, g.groupname, s.sitename FROM profile_groups g JOIN sites s ON s.siteid = g.siteid WHERE g.siteid = ? ORDER BY g.groupid LIMIT 1',
    user.siteid,
  )[0]!;
  const credential = server.query<{ credentialid: number; credentialname: string; categoryname: string }>(
    `SELECT c.credentialid, c.credentialname, k.categoryname
     FROM credentials c JOIN credential_categories k ON k.categoryid = c.categoryid
     WHERE k.siteid = ? AND c.requiredcredentialnum = 0
       AND c.credentialid NOT IN (SELECT credentialid FROM credential_assignments WHERE userid = ?)
     ORDER BY c.credentialid LIMIT 1`,
    user.siteid,
    user.userid,
  )[0]!;
  const course = server.query<{ courseid: number; coursename: string }>(
    'SELECT courseid, coursename FROM courses WHERE siteid = ? AND courseid NOT IN (SELECT courseid FROM training_assignments WHERE userid = ?) ORDER BY courseid LIMIT 1',
    user.siteid,
    user.userid,
  )[0]!;
  return { user, group, credential, course };
}

test.describe("offline work in every view, then the platform's answer", () => {
  const dbPath = path.join(os.tmpdir(), `fieldbook-effective-e2e-${process.pid}-${Date.now()}.db`);
  test.use({ serverOptions: { dataset: 'tiny', admin: true, dbPath } });
  test.afterAll(async () => rm(dbPath, { force: true }));

  test("a pending grant, credential, training, e-mail and status show everywhere, then the server's version replaces them", async ({
    app,
    api,
    server,
    fullToken,
  }) => {
    test.setTimeout(180_000);
    await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
    await syncNow(app);
    const { user, group, credential, course } = pick(server);
    const fullName = `${user.firstname} ${user.lastname}`;

    await server.close();
    await expect(connection(app, 'Offline')).toBeVisible({ timeout: 30_000 });

    await bulk(app, user.username, 'Group access', async (p) => {
      await p.getByLabel('Group access', { exact: true }).selectOption(String(group.groupid));
    });
    await bulk(app, user.username, 'Assign a credential', async (p) => {
      await p
        .getByLabel('Assign a credential', { exact: true })
        .selectOption(String(credential.credentialid));
      await p.getByLabel(/^Start date/).fill('2026-11-02');
      await p.getByLabel(/^Expiration date/).fill('2027-11-02');
    });
    await bulk(app, user.username, 'Assign training', async (p) => {
      await p.getByLabel('Assign training', { exact: true }).selectOption(String(course.courseid));
      await p.getByLabel('Due date').fill('2027-01-15');
    });
    await bulk(app, user.username, 'Change status', async (p) => {
      await p.getByLabel('New status').selectOption('Inactive');
    });
    // an e-mail for this person and a new person, from a spreadsheet
    await goTo(app, 'Import');
    const csv = [
      'username,first name,last name,email',
      `${user.username},${user.firstname},${user.lastname},pending.e2e@example.test`,
      'e2e-newcomer,Nora,Newcomer,',
      'e2e-undone,Otto,Undone,',
    ].join('\n');
    await app
      .getByLabel('choose a file')
      .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await app.getByRole('button', { name: /^Queue \d+ rows?$/ }).click();

    // the users list, its filters and counts
    await goTo(app, 'Users');
    await app.getByLabel('Search users').fill(user.username);
    await app.getByRole('combobox', { name: /^Status/ }).selectOption('Active');
    await expect(app.getByText('No user matches the search and filters.')).toBeVisible();
    await app.getByRole('combobox', { name: /^Status/ }).selectOption('Inactive');
    await expect(usersGrid(app).getByText('Pending change')).toBeVisible();
    await app.getByRole('combobox', { name: /^Status/ }).selectOption('');
    await app.getByLabel('Search users').fill('nora');
    await expect(usersGrid(app).getByText('Pending addition')).toBeVisible();
    // undone from where it shows: the person goes from the list and is never created
    await app.getByLabel('Search users').fill('otto');
    await usersGrid(app).getByRole('button', { name: 'Undo pending addition of Otto Undone' }).click();
    await expect(app.getByText('No user matches the search and filters.')).toBeVisible();

    // the person's detail
    await openHash(app, `#/users/${user.userid}`);
    const detail = app.getByRole('article');
    const section = (name: string) => detail.getByRole('region', { name, exact: true });
    await expect(section('Access').getByRole('listitem').filter({ hasText: group.groupname })).toContainText(
      'Pending addition',
    );
    await expect(
      section('Credentials').getByRole('row').filter({ hasText: credential.credentialname }),
    ).toContainText('Pending addition');
    await expect(
      section('Credentials').getByRole('row').filter({ hasText: credential.credentialname }),
    ).toContainText('Nov 2, 2027');
    await expect(section('Training').getByRole('row').filter({ hasText: course.coursename })).toContainText(
      'Pending addition',
    );
    await expect(
      section('E-mails').getByRole('listitem').filter({ hasText: 'pending.e2e@example.test' }),
    ).toContainText('Pending addition');
    await expect(section('Profile')).toContainText('Inactive');

    // the credential's holders and the Access view's supervisors
    await openHash(app, `#/credentials/${credential.credentialid}`);
    await expect(
      app
        .getByRole('grid', { name: `Holders of ${credential.credentialname}` })
        .getByRole('row')
        .filter({ hasText: user.lastname }),
    ).toContainText('Pending addition');
    await goTo(app, 'Access');
    await expect(
      app
        .getByRole('grid', { name: 'Groups and their supervisors' })
        .getByRole('row')
        .filter({ hasText: fullName })
        .first(),
    ).toContainText('Pending addition');

    // the Outbox says it in words, with a date picker when editing
    await goTo(app, 'Outbox');
    const batches = app.getByRole('table', { name: 'Batches' });
    // names with their context: the credential's category, the group's site (every group name is on every site)
    const assignWords = `Assign ${credential.credentialname} (${credential.categoryname}) to ${fullName}, Nov 2, 2026 – Nov 2, 2027`;
    const groupLabel = `${group.groupname} \\(${group.sitename}`;
    await expect(
      batches.getByRole('row').filter({
        hasText: new RegExp(
          `Give access over ${groupLabel}.*\\) to 1 person|Give ${fullName} access over ${groupLabel}`,
        ),
      }),
    ).toHaveCount(1);
    await batches
      .getByRole('row')
      .filter({ hasText: assignWords })
      .getByRole('button', { name: /^Show 1 change/ })
      .click();
    const queued = app.getByRole('table', { name: `Changes of ${assignWords}` });
    const assignRow = queued.getByRole('row').filter({ hasText: assignWords });
    await expect(assignRow).toBeVisible();
    // every row's buttons have names of their own (not five "Inspect" and five "Undo")
    const buttonNames = await batches
      .getByRole('button')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent ?? ''));
    expect(buttonNames.length).toBeGreaterThan(4);
    expect(new Set(buttonNames).size).toBe(buttonNames.length);
    await assignRow.getByRole('button', { name: 'Inspect' }).click();
    await expect(queued.getByLabel('Expiration date')).toHaveAttribute('type', 'date');
    await expect(queued.getByLabel('Expiration date')).toHaveValue('2027-11-02');
    await assignRow.getByRole('button', { name: 'Close' }).click();

    // back online: replayed, then the platform's version
    const back = await startServer({ port: server.port, dataset: 'tiny', admin: true, dbPath });
    try {
      await expect(connection(app, 'Online')).toBeVisible({ timeout: 30_000 });
      await expect
        .poll(
          () =>
            back.query<{ usertype: string }>('SELECT usertype FROM users WHERE userid = ?', user.userid)[0]
              ?.usertype,
          { timeout: 60_000 },
        )
        .toBe('Supervisor');
      await openHash(app, `#/users/${user.userid}`);
      await expect(section('Profile')).toContainText('Supervisor', { timeout: 30_000 });
      await expect(section('Profile')).toContainText('Changes saved: read back from the site');
      await expect(detail.getByText(/^Pending/)).toHaveCount(0, { timeout: 30_000 });
      await expect(
        section('Credentials').getByRole('row').filter({ hasText: credential.credentialname }),
      ).toContainText('Nov 2, 2027');
      await expect(section('Training').getByRole('row').filter({ hasText: course.coursename })).toBeVisible();
      await expect(section('E-mails')).toContainText('pending.e2e@example.test');
      expect(back.query('SELECT username FROM users WHERE username = ?', 'e2e-undone')).toEqual([]);
      // the newcomer, as the platform created them: Offline
      await goTo(app, 'Users');
      await app.getByLabel('Search users').fill('nora');
      await expect(usersGrid(app).getByText('Offline')).toBeVisible({ timeout: 30_000 });
    } finally {
      await back.close();
    }
  });
});

test('a bulk renewal changes only the dates of the credential people already hold', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  type Held = {
    userid: number;
    username: string;
    credentialid: number;
    credentialname: string;
    startdate: string;
    credentialnumber: string;
    notes: string;
  };
  const held = server.query<Held>(
    `SELECT u.userid, u.username, c.credentialid, c.credentialname, a.startdate, a.credentialnumber, a.notes
     FROM credential_assignments a
     JOIN users u ON u.userid = a.userid JOIN credentials c ON c.credentialid = a.credentialid
     WHERE u.siteid < 900 AND a.expirationdate <> '' AND a.startdate <> '' AND a.expirationdate < '2029-01-01'
     ORDER BY a.userid, a.credentialid LIMIT 1`,
  )[0]!;
  await bulk(
    app,
    held.username,
    'Assign a credential',
    async (p) => {
      await p.getByLabel('Assign a credential', { exact: true }).selectOption(String(held.credentialid));
      await p.getByLabel(/^Expiration date/).fill('2029-03-31');
      const preview = p.getByRole('region', { name: 'Preview' });
      await p.getByRole('button', { name: 'Preview' }).click();
      await expect(preview).toContainText('1 change to queue.');
      await preview.getByText('Will change (1)').click();
      await expect(preview.getByRole('listitem')).toContainText(`renew ${held.credentialname}, expires`);
      await expect(preview.getByRole('listitem')).toContainText('→ Mar 31, 2029');
    },
    { previewed: true },
  );
  const after = () =>
    server.query<
      Omit<Held, 'userid' | 'username' | 'credentialid' | 'credentialname'> & { expirationdate: string }
    >(
      'SELECT startdate, expirationdate, credentialnumber, notes FROM credential_assignments WHERE userid = ? AND credentialid = ?',
      held.userid,
      held.credentialid,
    )[0];
  await expect
    .poll(() => after()?.expirationdate, { timeout: 30_000 })
    .toMatch(/^(2029-03-31|03\/31\/2029)$/);
  expect(after()).toMatchObject({
    startdate: held.startdate,
    credentialnumber: held.credentialnumber,
    notes: held.notes,
  });
});

test('offline, a status only a pending edit has is offered by the filter, a person created offline is found in Training, and Access counts the pending grant', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(150_000);
  // no cached user is Offline: only the pending edit will be
  for (const { userid } of server.query<{ userid: number }>(
    "SELECT userid FROM users WHERE status = 'Offline'",
  ))
    server.mutate({ resource: 'user', id: userid, changes: { status: 'Active' } });
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const { user, group } = pick(server);
  await server.close();
  await expect(connection(app, 'Offline')).toBeVisible({ timeout: 30_000 });

  await goTo(app, 'Users');
  await expect(
    app.getByRole('combobox', { name: /^Status/ }).getByRole('option', { name: 'Offline' }),
  ).toHaveCount(0);
  await bulk(app, user.username, 'Change status', async (p) => {
    await p.getByLabel('New status').selectOption('Offline');
  });
  await bulk(app, user.username, 'Group access', async (p) => {
    await p.getByLabel('Group access', { exact: true }).selectOption(String(group.groupid));
  });
  await goTo(app, 'Import');
  await app.getByLabel('choose a file').setInputFiles({
    name: 'people.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('username,first name,last name\ne2e-offline-new,Zoë,Quintanilla\n'),
  });
  await app.getByRole('button', { name: /^Queue \d+ rows?$/ }).click();

  // the filter offers the pending status, and what it lists agrees with the count
  await goTo(app, 'Users');
  await app.getByLabel('Search users').fill('');
  await app.getByRole('combobox', { name: /^Status/ }).selectOption('Offline');
  await expect(usersGrid(app).getByText('Pending change')).toHaveCount(1);
  await expect(app.getByRole('status').filter({ hasText: /^1 of [\d,]+ users$/ })).toBeVisible();

  // Training → By user finds the person created offline, by the folded name
  await goTo(app, 'Training');
  await app.getByRole('button', { name: 'By user' }).click();
  await app.getByLabel('Find a user').fill('zoe QUINTANILLA');
  await app
    .getByRole('list', { name: 'Matching users' })
    .getByRole('link', { name: 'Quintanilla, Zoë (e2e-offline-new)' })
    .click();
  await expect(app.getByRole('heading', { name: 'Training of Zoë Quintanilla' })).toBeVisible();

  // Access: the group's count includes the pending grant, marked
  await goTo(app, 'Access');
  const row = app
    .getByRole('grid', { name: 'Groups and their supervisors' })
    .getByRole('row')
    .filter({ hasText: `${user.firstname} ${user.lastname}` })
    .filter({ hasText: group.groupname });
  await expect(row).toContainText('+1 pending');
});
