/**
 * HR files as they come (issue 35): HR's export, saved by LibreOffice, with
 * German headers, no usernames, and HR's own status words. The coordinator
 * chooses once how usernames are made and what "On leave" means; the new hires
 * are created with the derived usernames (numbered past one the platform
 * holds) and the leaver is deactivated, on the reference server itself.
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
async function libreOfficeXlsx(rows: string[][]): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hr-file-'));
  try {
    const csv = path.join(dir, 'personal.csv');
    await writeFile(csv, rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\n'));
    await run(
      'soffice',
      [
        `-env:UserInstallation=file://${dir}/lo`,
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
    return await readFile(path.join(dir, 'personal.xlsx'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function dropFile(page: Page, name: string, bytes: Buffer): Promise<void> {
  const dataTransfer = await fileDataTransfer(page, name, bytes);
  await page.locator('.import-view').dispatchEvent('drop', { dataTransfer });
}

type Person = {
  userid: number;
  username: string;
  firstname: string;
  lastname: string;
  employeeid: string;
  siteid: number;
};

test('HR\'s file with no usernames and "Terminated" creates its new hires and deactivates the leaver', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(180_000);
  await app.setViewportSize({ width: 1280, height: 800 });
  const site = server.query<{ siteid: number }>('SELECT MIN(siteid) AS siteid FROM users')[0]!.siteid;
  const people = server.query<Person>(
    "SELECT userid, username, firstname, lastname, employeeid, siteid FROM users WHERE siteid = ? AND status = 'Active' AND employeeid <> '' ORDER BY userid LIMIT 2",
    site,
  );
  const [leaver, namesake] = people as [Person, Person];
  // a new hire with the name of someone the platform holds: the username is numbered past theirs
  const takenName = `${namesake.firstname}.${namesake.lastname}`.toLowerCase();
  server.mutate({ resource: 'user', id: namesake.userid, changes: { username: takenName } });
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);

  const file = await libreOfficeXlsx([
    ['Personalnummer', 'Vorname', 'Nachname', 'E-Mail', 'Status'],
    [leaver.employeeid, leaver.firstname, leaver.lastname, '', 'Terminated'],
    ['HR-9001', 'Jürgen', 'Groß', 'j.gross@example.com', 'Active employee'],
    ['HR-9002', namesake.firstname, namesake.lastname, '', 'On leave'],
  ]);
  await app.getByRole('banner').getByRole('switch', { name: 'Work offline' }).click();
  await goTo(app, 'Import');
  await dropFile(app, 'Personal.xlsx', file);
  await expect(app.getByLabel('Find people by')).toHaveValue('employeeid');

  // asked once: how usernames are made, and what "On leave" means ("Terminated" is plain)
  await app.getByRole('radio', { name: /^First name\.last name/ }).check();
  const words = app.getByRole('table', { name: 'Status words' });
  await expect(words.getByRole('combobox', { name: 'Platform status for "Terminated"' })).toHaveValue(
    'Inactive',
  );
  await words.getByRole('combobox', { name: 'Platform status for "On leave"' }).selectOption('Active');
  await expect(app.getByText('Offline: The account is active but has never been signed in to')).toBeVisible();

  const summary = app.getByRole('status', { name: 'Import summary' });
  await expect(summary).toContainText('2 to create, 1 to update');
  const rows = app.getByRole('table', { name: 'Rows of the file' });
  await expect(rows).toContainText('jurgen.gross (username derived from first and last name): Jürgen Groß');
  await expect(rows).toContainText(`${takenName}2 (username derived from first and last name)`);
  await app.screenshot({ path: 'test-results/import-hr-choices.png' });
  await summary.scrollIntoViewIfNeeded();
  await app.screenshot({ path: 'test-results/import-hr-preview.png' });
  await app.getByRole('button', { name: /^To update/ }).click();
  await expect(rows).toContainText('Status: Active → Inactive');
  await app.getByRole('button', { name: 'Queue 3 rows' }).click();
  // rows counted as the button counted them, changes as the header does (Jürgen and his e-mail are two)
  await expect(
    app.getByText('Queued 3 rows from Personal.xlsx as 4 changes. See them in the Outbox.'),
  ).toBeVisible();
  await expect(
    app.getByRole('banner').getByRole('status', { name: 'Connection: Working offline — 4 changes waiting' }),
  ).toBeVisible();

  // back online: the queue replays, and the platform holds the new people with the derived usernames
  await app.getByRole('banner').getByRole('switch', { name: 'Work offline' }).click();
  const created = () =>
    server.query<{ username: string; status: string }>(
      "SELECT username, status FROM users WHERE employeeid IN ('HR-9001', 'HR-9002') ORDER BY employeeid",
    );
  await expect.poll(created, { timeout: 30_000 }).toEqual([
    { username: 'jurgen.gross', status: 'Active' },
    { username: `${takenName}2`, status: 'Active' },
  ]);
  await expect
    .poll(
      () => server.query<{ status: string }>('SELECT status FROM users WHERE userid = ?', leaver.userid),
      { timeout: 30_000 },
    )
    .toEqual([{ status: 'Inactive' }]);

  // remembered for the profile: the next HR file is not asked again
  await goTo(app, 'Import');
  await dropFile(app, 'Personal.xlsx', file);
  await expect(app.getByRole('radio', { name: /^First name\.last name/ })).toBeChecked();
  await expect(
    app
      .getByRole('table', { name: 'Status words' })
      .getByRole('combobox', { name: 'Platform status for "On leave"' }),
  ).toHaveValue('Active');
});
