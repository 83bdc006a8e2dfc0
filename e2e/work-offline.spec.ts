/**
 * The demo tells the whole story, on a machine with no keychain at all: work
 * offline, queue a bulk edit, let "another admin" rename two people and change
 * the one with a pending edit, go back online: the queue is sent, the conflict
 * is shown, "Since last sync" lists the other admin's edits. The switch holds
 * across a reload, and nothing reaches the API while it is on.
 */
import type { Locator, Page } from '@playwright/test';
import { MemoryKeychain } from '../src/main/secrets/keychain.ts';
import { expect, test } from './fixtures.ts';
import { addProfile, goTo, queueStatusChangeForSomeActivePeople, tryTheDemo } from './support/ui.ts';

const noKeychain = new MemoryKeychain();
noKeychain.unavailableMessage = 'No Secret Service is running on this machine.';

// the app's own demo (the reference server in-process), and no keychain
test.use({ harnessOptions: { serverUrl: undefined, token: undefined, keychain: noKeychain } });

const header = (page: Page) => page.getByRole('banner');
const offlineSwitch = (page: Page) => header(page).getByRole('switch', { name: 'Work offline' });
const waiting = (page: Page, n: number) =>
  header(page).getByRole('status', {
    name: `Connection: Working offline — ${n} ${n === 1 ? 'change' : 'changes'} waiting`,
  });

async function shot(target: Page | Locator, name: string): Promise<void> {
  await target.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

test('with no keychain, the demo goes offline, meets another admin’s edits, and comes back online', async ({
  app,
  harness,
}) => {
  test.setTimeout(240_000);
  // the welcome screen: no connection state before a site exists; the keychain's message can be tried again; the tour
  await expect(app.getByRole('heading', { name: 'Welcome to Fieldbook' })).toBeVisible();
  await expect(app.getByRole('status', { name: /^Connection:/ })).toHaveCount(0);
  const keychainNotice = app.getByRole('status').filter({ hasText: 'keychain is not available' });
  await keychainNotice.getByRole('button', { name: 'Try again' }).click();
  await expect(keychainNotice.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(app.getByRole('heading', { name: 'A tour of the demo' })).toBeVisible();
  await shot(app, 'welcome');

  await tryTheDemo(app);
  await expect(header(app).getByText('Demo site')).toHaveCount(1);
  await goTo(app, 'Users');
  await expect(app.getByText(/Synced .+ — [\d,]+ records/)).toBeVisible();

  await offlineSwitch(app).check();
  await expect(
    header(app).getByRole('status', { name: 'Connection: Working offline — nothing waiting to be sent' }),
  ).toBeVisible();
  const requestsWhileOffline = harness.apiRequests();
  const queued = await queueStatusChangeForSomeActivePeople(app);
  await expect(waiting(app, queued)).toBeVisible();
  await shot(header(app), 'header-offline');
  await goTo(app, 'Outbox');
  await expect(
    app
      .getByRole('note')
      .filter({ hasText: `Working offline — ${queued} ${queued === 1 ? 'change' : 'changes'} waiting.` }),
  ).toBeVisible();
  await shot(app, 'outbox-offline');

  // another admin, on the demo's server
  await goTo(app, 'Connection & sync');
  await app.getByRole('button', { name: 'Rename two people' }).click();
  await app
    .getByRole('button', { name: 'Change the status of someone you have a pending change for' })
    .click();
  const made = app.getByRole('list', { name: 'Changes made on the server' }).getByRole('listitem');
  await expect(made).toHaveCount(3);
  const renamedTo = (await made.allInnerTexts())
    .slice(0, 2)
    .map((line) => line.match(/^Renamed .+ to (.+)\.$/)![1]!);
  await expect(made.nth(2)).toHaveText(/^Changed the status of .+ from Active to Offline\.$/);
  await shot(
    app.getByRole('region', { name: 'Make changes on the server as another admin would' }),
    'another-admin',
  );

  // the switch holds across a reload, and nothing reached the API while it was on
  await app.reload();
  await expect(offlineSwitch(app)).toBeChecked();
  await expect(waiting(app, queued)).toBeVisible();
  expect(harness.apiRequests()).toBe(requestsWhileOffline);

  // back online: the queue is sent, the other admin's status change meets ours, and a sync brings in the rest
  await offlineSwitch(app).uncheck();
  await expect(header(app).getByRole('status', { name: 'Connection: Online' })).toBeVisible({
    timeout: 30_000,
  });
  await goTo(app, 'Conflicts');
  await expect(
    app
      .getByRole('table', { name: 'Values in conflict' })
      .getByRole('row', { name: /^Status Active .*Inactive .*Offline \(never signed in\)$/ }),
  ).toBeVisible({ timeout: 60_000 });
  if (queued > 1) {
    await goTo(app, 'Outbox');
    // the batch's row says what went: all but the one in conflict
    await expect(app.getByRole('table', { name: 'Batches' })).toContainText(`${queued - 1} sent`, {
      timeout: 60_000,
    });
  }
  await goTo(app, 'Since last sync');
  const byKind = app.getByRole('table', { name: 'Changes by kind' });
  await expect(byKind.getByRole('row', { name: /Name changed 2/ })).toBeVisible({ timeout: 60_000 });
  await byKind
    .getByRole('row', { name: /Name changed/ })
    .getByRole('button', { name: 'Show people' })
    .click();
  const people = app.getByRole('grid', { name: 'People: Name changed' });
  for (const name of renamedTo) await expect(people).toContainText(name);

  // the tour, once hidden, stays hidden
  await goTo(app, 'Connection & sync');
  await app.getByRole('button', { name: 'Hide the tour' }).click();
  await app.reload();
  await expect(
    app.getByRole('heading', { name: 'Make changes on the server as another admin would' }),
  ).toBeVisible();
  await expect(app.getByRole('heading', { name: 'A tour of the demo' })).toHaveCount(0);
});

test.describe('with a keychain', () => {
  test.use({ harnessOptions: {} });

  test('a new profile syncs as it is added, and the header names the active profile once', async ({
    app,
    api,
    fullToken,
  }) => {
    // (addProfile waits for the first sync that adding it starts)
    await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
    await expect(app.getByText(/Synced .+ — [\d,]+ records/)).toBeVisible();
    await expect(header(app).getByText('Riverside site', { exact: true })).toHaveCount(1);
    await goTo(app, 'Connection & sync');
    await app.getByRole('button', { name: 'New profile…' }).click();
    await addProfile(app, { name: 'Northgate site', baseUrl: api.baseUrl, token: fullToken });
    const switcher = header(app).getByRole('combobox', { name: 'Profile' });
    await expect(switcher.locator('option:checked')).toHaveText('Northgate site');
    expect((await header(app).innerText()).split('Northgate site').length - 1).toBe(1);
  });
});
