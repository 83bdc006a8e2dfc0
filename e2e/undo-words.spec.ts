/**
 * The undo of an import that created a person and gave them a course: the
 * preview, the confirmation and the Outbox name the person and the course,
 * never an internal id ("user 10179", "training assignment 1003010").
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { addProfile, goTo, syncNow } from './support/ui.ts';
import { fileDataTransfer } from './support/drop.ts';

async function dropFile(page: Page, name: string, bytes: Buffer): Promise<void> {
  const dataTransfer = await fileDataTransfer(page, name, bytes);
  await page.locator('.import-view').dispatchEvent('drop', { dataTransfer });
}

const INTERNAL_ID = /\b(user|training assignment|credential|course|group) \d+|#\d+/;

test('the undo of a batch that created a person names them and their course, never by id', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const [course] = server.query<{ courseid: number; coursename: string }>(
    'SELECT courseid, coursename FROM courses WHERE siteid = (SELECT MIN(siteid) FROM sites) ORDER BY courseid LIMIT 1',
  );
  if (!course) throw new Error('the dataset has a course on the first site');
  await goTo(app, 'Import');
  await dropFile(app, 'hr.csv', Buffer.from('Username,Forename,Surname\r\nundo.new,Una,Doe\r\n'));
  await app.getByLabel('The course').selectOption({ label: course.coursename });
  await app.getByRole('button', { name: 'Queue 1 row' }).click();
  await expect
    .poll(
      () =>
        server.query(
          `SELECT 1 FROM training_assignments t JOIN users u ON u.userid = t.userid WHERE u.username = 'undo.new'`,
        ),
      { timeout: 30_000 },
    )
    .toHaveLength(1);

  await goTo(app, 'Outbox');
  const batches = app.getByRole('table', { name: 'Batches' });
  await expect(batches.getByText(/2 sent/)).toBeVisible({ timeout: 30_000 });
  await batches.getByRole('link', { name: /^Undo this batch/ }).click();
  const preview = app.getByRole('table', { name: 'Undo preview' });
  await expect(preview).toContainText(`Remove Una Doe's ${course.coursename}`, { timeout: 30_000 });
  // the person cannot be deleted: their line says they stay, until the offer (set them Inactive) is chosen
  const created = preview.getByRole('row').filter({ has: app.getByRole('checkbox') });
  await expect(created).toContainText('Stays as it is: the platform cannot undo this');
  await expect(created).not.toContainText('Will be put back');
  await preview.getByRole('checkbox').first().check();
  await expect(created).toContainText('Will get the change offered instead');
  // in words: no "API", and the offer sets the status rather than moving it from "—"
  await expect(created).toContainText(
    'Fieldbook cannot delete a person on the platform: they stay on the site. ' +
      'Offered instead: Una Doe: set status to Inactive.',
  );
  await expect(created).not.toContainText('API');
  await expect(created).not.toContainText('—');
  expect(await preview.innerText()).not.toMatch(INTERNAL_ID);
  await app.getByRole('button', { name: /^Queue the undo/ }).click();
  await expect(app.getByText(/^The undo is queued/)).toBeVisible();
  expect(await app.locator('main').innerText()).not.toMatch(INTERNAL_ID);

  await goTo(app, 'Outbox');
  await expect(batches.getByRole('row').filter({ hasText: /^.*Undo:/ })).toContainText('sent', {
    timeout: 30_000,
  });
  await batches.getByRole('button', { name: /^Show \d+ changes of Undo:/ }).click();
  await expect(app.getByText("Undo: Remove Una Doe's", { exact: false }).first()).toBeVisible();
  await app.screenshot({ path: 'test-results/undo-words-outbox.png', fullPage: true });
  expect(await app.locator('main').innerText()).not.toMatch(INTERNAL_ID);
});
