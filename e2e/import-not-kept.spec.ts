/**
 * The import with one site of two kept (issue 28): a row whose username belongs
 * to someone at the site not kept is a conflict naming that site, in words;
 * before any sync has read that site, new people are not queued and the
 * preview says why.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { OUR_CUSTOMER } from '../src/server/datasets.ts';
import { addProfile, goTo, syncNow } from './support/ui.ts';
import { fileDataTransfer } from './support/drop.ts';

test.use({ serverOptions: { dataset: 'demo' } });

async function dropCsv(page: Page, csv: string): Promise<void> {
  const dataTransfer = await fileDataTransfer(page, 'hr.csv', Buffer.from(csv));
  await page.locator('.import-view').dispatchEvent('drop', { dataTransfer });
}

async function keepOnly(page: Page, kept: string, other: string): Promise<void> {
  await goTo(page, 'Connection & sync');
  const panel = page.getByRole('region', { name: 'Sites kept on this laptop' });
  await expect(panel.getByRole('checkbox', { name: kept })).toBeChecked();
  await panel.getByRole('checkbox', { name: other }).uncheck();
  await panel.getByRole('button', { name: 'Save sites' }).click();
  await expect(panel).toContainText(`${other}: removed from this laptop.`, { timeout: 30_000 });
}

test("a new person whose username is someone's at a site not kept is a conflict naming that site, and is not queued", async ({
  app,
  api,
  fullToken,
  server,
}) => {
  const [kept, other] = server.query<{ siteid: number; sitename: string }>(
    'SELECT siteid, sitename FROM sites WHERE customerid = ? ORDER BY siteid',
    OUR_CUSTOMER,
  );
  const elsewhere = server.query<{ username: string }>(
    'SELECT username FROM users WHERE siteid = ? ORDER BY userid LIMIT 1',
    other!.siteid,
  )[0]!;
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await keepOnly(app, kept!.sitename, other!.sitename);

  // before a sync has read the other site: nobody new is queued, and the preview says why
  await goTo(app, 'Import');
  await dropCsv(app, ['Username,First name,Last name', 'brand.new.28,Ana,Silva'].join('\r\n'));
  await expect(
    app.getByRole('alert').filter({ hasText: 'not known here until a sync has read them' }),
  ).toBeVisible();
  await expect(app.getByRole('status', { name: 'Import summary' })).toContainText('0 to create');
  await expect(app.getByRole('status', { name: 'Import summary' })).toContainText('1 skipped');
  await app.screenshot({ path: 'test-results/import-not-kept-unknown.png', fullPage: true });

  await syncNow(app);
  await goTo(app, 'Import');
  await dropCsv(
    app,
    ['Username,First name,Last name', `${elsewhere.username},Ana,Silva`, 'brand.new.28,Ana,Silva'].join(
      '\r\n',
    ),
  );
  const summary = app.getByRole('status', { name: 'Import summary' });
  await expect(summary).toContainText('1 to create');
  await expect(summary).toContainText('1 conflict');
  await app.getByRole('button', { name: /^Conflicts \(not queued\)/ }).click();
  await expect(app.getByRole('table', { name: 'Rows of the file' })).toContainText(
    `${elsewhere.username} is already a user at ${other!.sitename}, a site not kept on this laptop`,
  );
  await expect(app.getByRole('button', { name: 'Queue 1 row' })).toBeEnabled();
  await app.screenshot({ path: 'test-results/import-not-kept-conflict.png', fullPage: true });
});

test('a username freed at a site not kept since the last reading is free once the coordinator has those sites read again', async ({
  app,
  api,
  fullToken,
  server,
}) => {
  const [kept, other] = server.query<{ siteid: number; sitename: string }>(
    'SELECT siteid, sitename FROM sites WHERE customerid = ? ORDER BY siteid',
    OUR_CUSTOMER,
  );
  const elsewhere = server.query<{ userid: number; username: string }>(
    'SELECT userid, username FROM users WHERE siteid = ? ORDER BY userid LIMIT 1',
    other!.siteid,
  )[0]!;
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await keepOnly(app, kept!.sitename, other!.sitename);
  await syncNow(app);

  // the person at the other site is renamed there: their old username is free on the platform, not yet in the laptop's
  // reading
  expect(
    server.mutate({
      resource: 'user',
      id: elsewhere.userid,
      changes: { username: `${elsewhere.username}.moved` },
    }),
  ).toBe(true);
  await goTo(app, 'Import');
  await dropCsv(app, ['Username,First name,Last name', `${elsewhere.username},Ana,Silva`].join('\r\n'));
  const summary = app.getByRole('status', { name: 'Import summary' });
  await expect(summary).toContainText('1 conflict');
  const reading = app.getByRole('status').filter({ hasText: 'as a sync read them on' });
  await expect(reading).toContainText('read again every 12 hours');
  await app.screenshot({ path: 'test-results/import-not-kept-reading.png', fullPage: true });
  await reading.getByRole('button', { name: 'Read them again now' }).click();
  // the sync reads the other site's people again; the preview is made again: the username is free
  await expect(summary).toContainText('1 to create', { timeout: 45_000 });
  await expect(summary).toContainText('0 conflicts');
  await expect(app.getByRole('button', { name: 'Queue 1 row' })).toBeEnabled();
});
