/**
 * A profile's state never outlives the profile: what the coordinator chose in one
 * profile (the people selected in Users, the search and filters, the last import's
 * results, the report's choices) is not carried into the next profile the window
 * shows, whether that profile was just added or picked in the header.
 */
import type { Page } from '@playwright/test';
import { expect, test, type ReferenceServer } from './fixtures.ts';
import { fileDataTransfer } from './support/drop.ts';
import { addProfile, goTo, usersCount, withWindowText } from './support/ui.ts';

const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search users' });
const statusFilter = (page: Page) => page.getByRole('combobox', { name: 'Status', exact: true });
const selectedLine = (page: Page) => page.getByRole('status').filter({ hasText: / selected/ });
const dueSoonFinding = (page: Page) =>
  page.getByRole('group', { name: 'Findings' }).getByRole('checkbox', { name: 'Training due soon' });
const importResults = (page: Page) => page.getByRole('heading', { name: /^Results of / });

function firstActivePerson(server: ReferenceServer) {
  const [person] = server.query<{ username: string; lastname: string }>(
    "SELECT username, lastname FROM users WHERE status = 'Active' ORDER BY userid LIMIT 1",
  );
  if (!person) throw new Error('the dataset has an Active person');
  return person;
}

/** In the active profile: a search, a filter and a selection in Users; an import queued; a report choice. */
async function leaveStateBehind(page: Page, server: ReferenceServer, firstName: string): Promise<void> {
  const person = firstActivePerson(server);
  await goTo(page, 'Users');
  await searchBox(page).fill(person.lastname);
  await statusFilter(page).selectOption('Active');
  await expect(usersCount(page)).toHaveText(/^[\d,]+ of [\d,]+ users$/);
  await page.getByRole('button', { name: /^Select all [\d,]+ matching$/ }).click();
  await expect(selectedLine(page)).toBeVisible();

  await goTo(page, 'Import');
  const csv = `Username,First name\r\n${person.username},${firstName}\r\n`;
  const dataTransfer = await fileDataTransfer(page, 'hr.csv', Buffer.from(csv));
  await page.locator('.import-view').dispatchEvent('drop', { dataTransfer });
  await page.getByRole('button', { name: 'Queue 1 row' }).click();
  await expect(importResults(page)).toHaveText('Results of hr.csv');

  await goTo(page, 'Report');
  await dueSoonFinding(page).uncheck();
}

/** Each thing is checked on its own (a soft expectation): a failure names every one carried over. */
async function expectNothingCarried(page: Page): Promise<void> {
  await goTo(page, 'Users');
  await withWindowText(page, () => expect(usersCount(page)).toBeVisible());
  await expect.soft(searchBox(page)).toHaveValue('');
  await expect.soft(statusFilter(page)).toHaveValue('');
  await expect.soft(selectedLine(page)).toHaveCount(0);
  await goTo(page, 'Import');
  await expect(page.getByRole('heading', { name: 'Import employees' })).toBeVisible();
  await expect.soft(importResults(page)).toHaveCount(0);
  await goTo(page, 'Report');
  await expect.soft(dueSoonFinding(page)).toBeChecked();
}

test('a profile switch carries no selection, search, filter, import result or report choice into the other profile', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(240_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await leaveStateBehind(app, server, 'Riverside');

  // adding a profile makes it the active one
  await goTo(app, 'Connection & sync');
  await app.getByRole('button', { name: 'New profile…' }).click();
  await addProfile(app, { name: 'Northgate site', baseUrl: api.baseUrl, token: fullToken });
  await expectNothingCarried(app);

  // and so does picking the other profile in the header
  await leaveStateBehind(app, server, 'Northgate');
  await app.getByRole('banner').getByRole('combobox', { name: 'Profile' }).selectOption('Riverside site');
  await expectNothingCarried(app);
});
