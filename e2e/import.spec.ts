/**
 * The import in Chromium under the app's real CSP (the only place a blob:
 * worker is refused): a large workbook made by LibreOffice reaches the preview;
 * a row that would overwrite another person's identity is a conflict, not an
 * update; the last file dropped wins and a refused file clears the preview.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { makeBig } from '../scripts/make-import-fixtures.mjs';
import { cspViolations, expect, test, type ReferenceServer } from './fixtures.ts';
import { addProfile, goTo, syncNow } from './support/ui.ts';
import { fileDataTransfer } from './support/drop.ts';
import { axeViolations } from './support/axe.ts';

/** Drops a file on the import view, as a user dragging it from the desktop would. */
async function dropFile(page: Page, name: string, bytes: Buffer): Promise<void> {
  const dataTransfer = await fileDataTransfer(page, name, bytes);
  await page.locator('.import-view').dispatchEvent('drop', { dataTransfer });
}

const summary = (page: Page) => page.getByRole('status', { name: 'Import summary' });

/**
 * Resolves when the next reader the page starts (a worker) has stopped: stopped by a later file, or ended with its
 * answer.
 */
function readerStopped(page: Page): Promise<void> {
  return new Promise((resolve) => page.once('worker', (reader) => reader.once('close', () => resolve())));
}

function twoPeople(server: ReferenceServer) {
  return server.query<{
    userid: number;
    username: string;
    firstname: string;
    lastname: string;
    employeeid: string;
    siteid: number;
  }>(
    "SELECT userid, username, firstname, lastname, employeeid, siteid FROM users WHERE siteid = (SELECT MIN(siteid) FROM users) AND employeeid <> '' ORDER BY userid LIMIT 2",
  );
}

test('a 50,000-row workbook saved by LibreOffice reaches the preview, read in a worker the CSP allows', async ({
  app,
  api,
  fullToken,
}) => {
  test.setTimeout(180_000);
  const workbook = await readFile(makeBig(50_000));
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await goTo(app, 'Import');
  await dropFile(app, 'people-50000.xlsx', workbook);
  await expect(app.getByText('50,000 rows of people below the header')).toBeVisible({ timeout: 60_000 });
  await expect(summary(app)).toContainText('50,000 to create');
  expect(await cspViolations(app)).toEqual([]);
});

test("a row whose username is one person's and employee id another's is a conflict showing both, and is not queued", async ({
  app,
  api,
  server,
  fullToken,
}) => {
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const [a, b] = twoPeople(server);
  if (!a || !b) throw new Error('the dataset has two people with employee ids');
  await goTo(app, 'Import');
  const csv = ['Username,Forename,Surname,Employee No.', `${a.username},Tom,Novak,${b.employeeid}`].join(
    '\r\n',
  );
  await dropFile(app, 'hr.csv', Buffer.from(csv));
  await expect(summary(app)).toContainText(
    '0 to create, 0 to update, 0 identity changes, 0 unchanged, 0 skipped, 1 conflict',
  );
  const people = app.getByRole('list', { name: 'People of row 2' });
  await expect(people.getByText(`${a.firstname} ${a.lastname} (${a.username}`)).toBeVisible();
  await expect(people.getByText(`${b.firstname} ${b.lastname} (${b.username}`)).toBeVisible();
  await expect(app.getByRole('button', { name: 'Queue 0 rows' })).toBeDisabled();
});

test('the last file dropped wins, and a refused file clears the preview and its Queue button', async ({
  app,
  api,
  fullToken,
}) => {
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await goTo(app, 'Import');
  const big = await readFile(makeBig(50_000));
  const slowReader = readerStopped(app);
  await dropFile(app, 'slow.xlsx', big);
  await dropFile(app, 'quick.csv', Buffer.from('username,first name,last name\nnew.one,New,One\n'));
  await expect(summary(app)).toContainText('1 to create');
  // the slow one could show 50,000 only while its reader runs: once that has stopped (stopped by the
  // quick file, or ended with its rows read), whatever it could do is done
  await slowReader;
  await expect(summary(app)).toContainText('1 to create');
  await expect(app.getByRole('button', { name: 'Queue 1 row' })).toBeEnabled();

  await dropFile(app, 'photo.xlsx', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
  await expect(
    app.getByRole('alert').filter({ hasText: 'photo.xlsx: This file is a PNG image' }),
  ).toBeVisible();
  await expect(summary(app)).toHaveCount(0);
  await expect(app.getByRole('button', { name: /^Queue/ })).toHaveCount(0);
});

test('reading can be cancelled, and the cancelled file never shows up later', async ({
  app,
  context,
  api,
  fullToken,
}) => {
  // The reader's script is held back until Cancel was clicked: on a fast machine a
  // 50,000-row workbook is read in half a second, too quick to click reliably.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let served = () => {};
  const workerServed = new Promise<void>((resolve) => (served = resolve));
  await context.route(/parse\.worker/, async (route) => {
    await held;
    // the worker was terminated while its script was held: its request may be gone
    await route.continue().catch(() => {});
    served();
  });
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await goTo(app, 'Import');
  await dropFile(app, 'people.xlsx', await readFile(makeBig(50_000)));
  const reading = app.getByRole('status', { name: 'Reading the file' });
  await expect(reading).toContainText('Reading people.xlsx');
  await reading.getByRole('button', { name: 'Cancel' }).click();
  await expect(reading).toHaveCount(0);
  release();
  await workerServed;
  // the reader, had it gone on, would have shown the preview within this time. (Not an event: a reader whose
  // script was held is never seen by Playwright, so its stop cannot be waited for; docs/decisions.md)
  await app.waitForTimeout(2000);
  await expect(summary(app)).toHaveCount(0);
  await expect(app.getByRole('alert')).toHaveCount(0);
});

test('the results file, fixed and dropped in again, imports only what is left to do', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  await goTo(app, 'Import');
  await dropFile(
    app,
    'hr.csv',
    Buffer.from('Username,Forename,Surname\r\nres.new,Rae,Sult\r\nres.bad,=cmd(),Fixme\r\n'),
  );
  await expect(summary(app)).toContainText(
    '1 to create, 0 to update, 0 identity changes, 0 unchanged, 0 skipped, 0 conflicts, 0 ambiguous, 1 invalid.',
  );
  await app.getByRole('button', { name: 'Queue 1 row' }).click();
  await expect
    .poll(() => server.query("SELECT 1 FROM users WHERE username = 'res.new'"), { timeout: 30_000 })
    .toHaveLength(1);

  const results = app.getByRole('status', { name: 'Import results' });
  await expect(async () => {
    await app.getByRole('button', { name: 'Refresh' }).click();
    await expect(results).toHaveText('1 done, 1 invalid.', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const [download] = await Promise.all([
    app.waitForEvent('download'),
    app.getByRole('button', { name: 'Download results (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('hr-results.csv');
  const text = (await readFile(await download.path())).toString('utf8');
  expect(text.split('\r\n').slice(0, 3)).toEqual([
    '\ufeff"Username","Forename","Surname","status","statuscode","message"',
    expect.stringMatching(/^"res\.new","Rae","Sult","done","\d*",/),
    expect.stringMatching(
      /^"res\.bad","'=cmd\(\)","Fixme","invalid","","First name .* looks like a spreadsheet formula/,
    ),
  ]);

  // the coordinator fixes the refused row and drops the results file back in
  await dropFile(app, 'hr-results.csv', Buffer.from(text.replace("'=cmd()", 'Fixed')));
  await expect(
    app.getByText(
      'The last three columns (status, statuscode, message) are the results of an earlier import: they are ignored.',
    ),
  ).toBeVisible();
  await expect(summary(app)).toContainText(
    '1 to create, 0 to update, 0 identity changes, 1 unchanged, 0 skipped, 0 conflicts, 0 ambiguous, 0 invalid.',
  );
});

test('new people get the group their row names and the course chosen for the file, after their create; an unknown group is refused', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const [group] = server.query<{ groupid: number; groupname: string }>(
    'SELECT groupid, groupname FROM profile_groups WHERE siteid = (SELECT MIN(siteid) FROM sites) ORDER BY groupid LIMIT 1',
  );
  const [course] = server.query<{ courseid: number; coursename: string }>(
    'SELECT courseid, coursename FROM courses WHERE siteid = (SELECT MIN(siteid) FROM sites) ORDER BY courseid LIMIT 1',
  );
  if (!group || !course) throw new Error('the dataset has a group and a course on the first site');
  await goTo(app, 'Import');
  const csv = [
    'Username,Forename,Surname,Profile group',
    `grp.new,Gwen,Roupe,${group.groupname}`,
    'grp.bad,Ned,Nowhere,No Such Group',
  ].join('\r\n');
  await dropFile(app, 'hr.csv', Buffer.from(csv));
  await expect(summary(app)).toContainText(
    '1 to create, 0 to update, 0 identity changes, 0 unchanged, 0 skipped, 0 conflicts, 0 ambiguous, 1 invalid.',
  );
  await expect(app.getByText('Group access makes a User a Supervisor')).toBeVisible();
  await app.getByLabel('The course').selectOption({ label: course.coursename });
  await app.getByLabel('Due date', { exact: true }).fill('2027-03-04');
  await app.getByRole('button', { name: 'Invalid (not queued): 1' }).click();
  await expect(app.getByText('Profile group "No Such Group" is not a group on this site.')).toBeVisible();
  await app.getByRole('button', { name: 'Queue 1 row' }).click();
  await expect
    .poll(() => server.query("SELECT usertype FROM users WHERE username = 'grp.new'"), { timeout: 30_000 })
    .toEqual([{ usertype: 'Supervisor' }]);
  await expect
    .poll(
      () =>
        server.query(
          `SELECT due_date FROM training_assignments t JOIN users u ON u.userid = t.userid WHERE u.username = 'grp.new' AND t.courseid = ${course.courseid}`,
        ),
      { timeout: 30_000 },
    )
    .toEqual([{ due_date: expect.stringContaining('2027-03-04') }]);
  expect(
    server.query(
      `SELECT 1 FROM group_access a JOIN users u ON u.userid = a.userid WHERE u.username = 'grp.new' AND a.groupid = ${group.groupid}`,
    ),
  ).toHaveLength(1);
  expect(server.query("SELECT 1 FROM users WHERE username = 'grp.bad'")).toHaveLength(0);
});

test.describe('a token that sees two sites', () => {
  test.use({ serverOptions: { dataset: 'demo', admin: true } });

  test('the import asks for the site, queues nothing before, and creates the person on the site chosen', async ({
    app,
    api,
    server,
    fullToken,
  }) => {
    test.setTimeout(120_000);
    await addProfile(app, { name: 'Two sites', baseUrl: api.baseUrl, token: fullToken });
    await syncNow(app);
    const sites = server.query<{ siteid: number; sitename: string }>(
      'SELECT siteid, sitename FROM sites WHERE customerid = (SELECT customerid FROM sites ORDER BY siteid LIMIT 1) ORDER BY siteid',
    );
    expect(sites.length).toBeGreaterThan(1);
    const second = sites[1]!;
    await goTo(app, 'Import');
    await dropFile(
      app,
      'second-site.csv',
      Buffer.from('Username,Forename,Surname\r\nsecond.site,Sec,Ond\r\n'),
    );
    await expect(app.getByRole('status', { name: 'Choose the site' })).toBeVisible();
    await expect(app.getByLabel('Site of these people')).toHaveValue('');
    await expect(summary(app)).toHaveCount(0);
    await expect(app.getByRole('button', { name: /^Queue/ })).toBeDisabled();

    await app.getByLabel('Site of these people').selectOption({ label: second.sitename });
    await expect(summary(app)).toContainText('1 to create');
    await app.getByRole('button', { name: 'Queue 1 row' }).click();
    await expect
      .poll(() => server.query("SELECT siteid FROM users WHERE username = 'second.site'"), {
        timeout: 30_000,
      })
      .toEqual([{ siteid: second.siteid }]);
  });
});

test('a file saved as Windows-1250 is read as such, and nothing is queued until the user confirms the encoding', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  await goTo(app, 'Import');
  // saved by LibreOffice (scripts/make-import-fixtures.mjs)
  await dropFile(
    app,
    'polish.csv',
    await readFile(
      new URL('../src/renderer/features/import/fixtures/people-windows1250.csv', import.meta.url),
    ),
  );
  const encoding = app.getByRole('group', { name: 'Encoding of the file' });
  await expect(encoding.getByRole('alert')).toContainText('The file is not UTF-8');
  await expect(
    encoding.getByRole('radio', { name: /^Central European \(Windows-1250\): Łukasz, Żółć/ }),
  ).not.toBeChecked();
  await expect(summary(app)).toContainText('6 to create');
  await expect(app.getByText('lukasz.zolc: Łukasz Żółć')).toBeVisible();
  const queue = app.getByRole('button', { name: 'Queue 6 rows' });
  await expect(queue).toBeDisabled();
  await app.screenshot({ path: test.info().outputPath('encoding-question.png'), fullPage: true });
  expect(await axeViolations(app)).toEqual([]);

  // the user tries Windows-1252: the file is read again that way, and the names show what it would do
  await encoding.getByRole('radio', { name: /^Western European \(Windows-1252\)/ }).check();
  await expect(app.getByText('lukasz.zolc: £ukasz ¯ó³æ')).toBeVisible();
  await encoding.getByRole('radio', { name: /^Central European \(Windows-1250\)/ }).check();
  await expect(app.getByText('lukasz.zolc: Łukasz Żółć')).toBeVisible();

  // LibreOffice's CSV import also made numbers of the ids (004711 → 4711): shorter than the site's
  const [{ width }] = server.query<{ width: number }>(
    "SELECT MAX(LENGTH(employeeid)) AS width FROM users WHERE employeeid <> ''",
  ) as [{ width: number }];
  const zeros = app.getByRole('group', { name: 'Employee IDs without their leading zeros' });
  await expect(zeros.getByRole('alert')).toContainText(
    `6 employee IDs are shorter than the usual ${width} digits`,
  );
  await expect(queue).toBeDisabled();
  await zeros
    .getByRole('radio', {
      name: `Pad them with zeros to ${width} digits (4711 → ${'4711'.padStart(width, '0')})`,
    })
    .check();
  await expect(
    app.getByText(`lukasz.zolc: Łukasz Żółć, employee ID ${'4711'.padStart(width, '0')}`),
  ).toBeVisible();
  await expect(queue).toBeEnabled();
  await app.screenshot({ path: test.info().outputPath('encoding-answered.png'), fullPage: true });
  await queue.click();
  await expect
    .poll(
      () => server.query("SELECT firstname, lastname, employeeid FROM users WHERE username = 'lukasz.zolc'"),
      { timeout: 30_000 },
    )
    .toEqual([{ firstname: 'Łukasz', lastname: 'Żółć', employeeid: '4711'.padStart(width, '0') }]);
});

test('a French staff file saved as Windows-1252 is shown read as Windows-1252 first, euro sign and accents intact', async ({
  app,
  api,
  fullToken,
}) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  await goTo(app, 'Import');
  // saved by LibreOffice (scripts/make-import-fixtures.mjs corpus): "12,50 €", Hélène, Gérard
  await dropFile(
    app,
    'french.csv',
    await readFile(
      new URL('../src/renderer/features/import/fixtures/encodings/windows-1252/short-2.csv', import.meta.url),
    ),
  );
  const encoding = app.getByRole('group', { name: 'Encoding of the file' });
  await expect(encoding.getByRole('alert')).toContainText('read as Western European (Windows-1252)');
  await expect(encoding.getByRole('radio').first()).toHaveAccessibleName(
    /^Western European \(Windows-1252\): Hélène, €, .*Gérard/,
  );
  await expect(app.getByText('helene.dubois: Hélène Dubois')).toBeVisible();
  await expect(app.getByText('gerard.lefevre: Gérard Lefèvre')).toBeVisible();
  await app.screenshot({ path: test.info().outputPath('encoding-windows-1252-french.png'), fullPage: true });
});

test('a UTF-8 file with one stray byte names its row, and skipping it queues the others', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  await goTo(app, 'Import');
  const csv = Buffer.concat([
    Buffer.from('Username,First name,Last name\nstray.ok,Łukasz,Żółć\n'),
    Buffer.from('stray.bad,Ren\xe9,Dupont\n', 'latin1'),
  ]);
  await dropFile(app, 'stray.csv', csv);
  const encoding = app.getByRole('group', { name: 'Encoding of the file' });
  await expect(encoding.getByRole('alert')).toContainText(
    '1 row (3) holds characters saved in another encoding',
  );
  await expect(summary(app)).toContainText(
    '1 to create, 0 to update, 0 identity changes, 0 unchanged, 0 skipped, 0 conflicts, 0 ambiguous, 1 invalid.',
  );
  await expect(app.getByRole('button', { name: 'Queue 1 row' })).toBeDisabled();
  await encoding.getByRole('radio', { name: 'Skip row 3; read the rest as UTF-8' }).check();
  await expect(summary(app)).toContainText(
    '1 to create, 0 to update, 0 identity changes, 0 unchanged, 0 skipped, 0 conflicts, 0 ambiguous, 0 invalid.',
  );
  await app.getByRole('button', { name: 'Queue 1 row' }).click();
  await expect
    .poll(() => server.query("SELECT firstname FROM users WHERE username LIKE 'stray.%'"), {
      timeout: 30_000,
    })
    .toEqual([{ firstname: 'Łukasz' }]);
});
