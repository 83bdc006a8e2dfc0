/**
 * The import against the coordinator's own queued change: Ana is queued as
 * Inactive (working offline, so it waits), then HR's file says Active. The
 * preview says the row overrides the queued change, and queues it unless it is
 * unticked (the file wins).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { addProfile, goTo, syncNow } from './support/ui.ts';
import { fileDataTransfer } from './support/drop.ts';

async function dropFile(page: Page, name: string, bytes: Buffer): Promise<void> {
  const dataTransfer = await fileDataTransfer(page, name, bytes);
  await page.locator('.import-view').dispatchEvent('drop', { dataTransfer });
}

test("a row that overrides the coordinator's queued status change says so, and is queued unless unticked", async ({ app, api, server, fullToken }) => {
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
  await expect(app.getByRole('banner').getByRole('status', { name: 'Connection: Working offline — 1 change waiting' })).toBeVisible();

  await goTo(app, 'Import');
  await dropFile(app, 'hr.csv', Buffer.from(`Username,Status\r\n${ana.username},Active\r\n`));
  await expect(app.getByRole('status', { name: 'Import summary' })).toContainText('0 to create, 1 to update');
  await expect(app.getByText('1 row overrides a change you queued (marked "your queued change"): the file\'s value is sent after it. Untick the row to keep your change instead.')).toBeVisible();
  const row = app.getByRole('table', { name: 'Rows of the file' }).getByRole('row').nth(1);
  await expect(row).toContainText(`${ana.firstname} ${ana.lastname} (${ana.username}`);
  await expect(row).toContainText('Status: Inactive (your queued change) → Active');
  await expect(app.getByRole('button', { name: 'Queue 1 row' })).toBeEnabled();
  await app.getByRole('checkbox', { name: 'Queue row 2' }).uncheck();
  await expect(app.getByRole('button', { name: 'Queue 0 rows' })).toBeDisabled();
  await app.getByRole('checkbox', { name: 'Queue row 2' }).check();
  await app.screenshot({ path: 'test-results/import-queued-change.png', fullPage: true });
});
