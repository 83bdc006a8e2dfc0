/**
 * Never create against an unknown cache (issue 37): while no sync has read
 * everyone at the kept sites (here a first sync whose list of people came
 * back cut off), an HR file naming someone already on the platform plans no create;
 * the import says why and offers a Sync, after which the preview is made again.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { addProfile, goTo } from './support/ui.ts';
import { fileDataTransfer } from './support/drop.ts';

async function dropCsv(page: Page, csv: string): Promise<void> {
  const dataTransfer = await fileDataTransfer(page, 'hr.csv', Buffer.from(csv));
  await page.locator('.import-view').dispatchEvent('drop', { dataTransfer });
}

test('a first sync cut short: a file naming someone already on the platform creates nobody, says why and offers Sync', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  // two syncs of the dataset: on a loaded machine more than the default minute
  test.setTimeout(150_000);
  const [someone] = server.query<{
    username: string;
    firstname: string;
    lastname: string;
    employeeid: string;
  }>(
    "SELECT username, firstname, lastname, employeeid FROM users WHERE employeeid <> '' ORDER BY userid LIMIT 1",
  );
  if (!someone) throw new Error('the dataset has someone with an employee id');
  // the people's list answers a page cut off (the count of "many records" is answered): the first sync reads no one
  api.setRule((request) =>
    /^\/v1\/users\?/.test(request.url) && !request.url.includes('startrow=20001')
      ? { status: 200, body: '{"users": [' }
      : undefined,
  );
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  api.setRule(null);

  await goTo(app, 'Import');
  await dropCsv(
    app,
    [
      'Username,First name,Last name,Employee ID',
      `${someone.username},${someone.firstname},${someone.lastname},${someone.employeeid}`,
    ].join('\r\n'),
  );
  const summary = app.getByRole('status', { name: 'Import summary' });
  await expect(summary).toContainText('0 to create');
  await expect(summary).toContainText('1 skipped');
  const notice = app
    .getByRole('alert')
    .filter({ hasText: 'Nobody is created until a sync has read everyone' });
  await expect(notice).toContainText(
    'The first sync of this laptop stopped before it had read everyone on the site',
  );
  await expect(app.getByRole('table', { name: 'Rows of the file' })).toContainText(
    `Not created: the first sync of this laptop stopped before it had read everyone on the site, so it does not know who is already there, and ${someone.firstname} ${someone.lastname} may already be there.`,
  );
  await expect(app.getByRole('button', { name: 'Queue 0 rows' })).toBeDisabled();
  const sync = notice.getByRole('button', { name: 'Sync' });
  await expect(sync).toBeEnabled();
  await app.setViewportSize({ width: 1280, height: 800 });
  await app.screenshot({ path: 'test-results/import-unknown-cache.png' });

  // the sync reads everyone; the preview is made again: the person is found, not created
  await sync.click();
  await expect(summary).toContainText('0 to create, 0 to update, 0 identity changes, 1 unchanged', {
    timeout: 45_000,
  });
  await expect(notice).toBeHidden();
});
