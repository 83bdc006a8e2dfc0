/**
 * The token stays in main and the keychain. After a sync — and after an API
 * answer that echoes the token back in its error message — it is searched for
 * everywhere the page and the disk can reach: zero hits.
 */
import { readFile } from 'node:fs/promises';
import { DUMP_PAGE_STORAGE } from './support/browser-scripts.ts';
import { statusAnswer } from './support/api-proxy.ts';
import { filesUnder } from './support/files.ts';
import { expect, test } from './fixtures.ts';
import { ALL_TABS, addProfile, goTo, startSync, syncNow, tabName } from './support/ui.ts';

interface PageStorage {
  databases: Record<string, Record<string, string>>;
  localStorage: string;
  sessionStorage: string;
}

interface ReplayAnswer {
  ok: boolean;
  value?: { status: string };
  error?: { code: string };
}

/** One queued edit replayed through the contract, exactly as the outbox sends it. */
function replayStatusChange(userid: number, status: string): string {
  const request = {
    opId: `leak-test-${status}`,
    op: { kind: 'user.update', userid, changes: { status } },
    verifyFirst: false,
  };
  return `window.fieldbook['replay:execute'](${JSON.stringify(request)})`;
}

test('the token is nowhere the page or the disk can reach, only in the keychain', async ({
  app,
  api,
  server,
  fullToken,
  harness,
}) => {
  // what a leak would look like: the whole token, or a long piece of it
  const pieces = [fullToken, fullToken.slice(0, 16), fullToken.slice(-16)];
  const consoleLines: string[] = [];
  app.on('console', (message) => consoleLines.push(message.text()));

  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  await expect(app.getByText(`••••${fullToken.slice(-4)}`).first()).toBeVisible();

  // a bulk edit replayed from the outbox, as a coordinator does it
  const [user] = server.query<{ userid: number; username: string }>(
    "SELECT userid, username FROM users WHERE status = 'Active' AND siteid < 900 ORDER BY userid LIMIT 1",
  );
  if (!user) throw new Error('The dataset has no active user.');
  await goTo(app, 'Users');
  await app.getByLabel('Search users').fill(user.username);
  await app.getByRole('button', { name: /^Select all 1 matching$/ }).click();
  await app.getByLabel('Bulk action').selectOption({ label: 'Change status' });
  await app.getByLabel('New status').selectOption('Inactive');
  await app.getByRole('button', { name: 'Preview' }).click();
  await app.getByRole('button', { name: 'Queue 1 change' }).click();
  await app
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: tabName('Outbox') })
    .click();
  await app.getByRole('button', { name: 'Send now' }).click();
  await expect(app.getByRole('table', { name: 'Batches' }).getByText('1 change: 1 sent')).toHaveCount(1, {
    timeout: 30_000,
  });
  const download = app.waitForEvent('download');
  await app.getByRole('button', { name: 'Export audit log (CSV)' }).click();
  const auditExport = await readFile((await (await download).path()) ?? '', 'utf8');
  expect(auditExport.trim().split('\n').length).toBeGreaterThan(1); // a header and the replayed edit

  // replays through the contract the outbox uses: once accepted, once refused with the token echoed back
  const applied = await app.evaluate<ReplayAnswer>(replayStatusChange(user.userid, 'Offline'));
  expect(applied.ok && applied.value?.status).toBe('done');
  api.setRule((request) =>
    request.method === 'PUT'
      ? statusAnswer(400, 1001, `status invalid for AccessToken ${fullToken}`)
      : undefined,
  );
  const refused = await app.evaluate<ReplayAnswer>(replayStatusChange(user.userid, 'Active'));
  expect(refused.ok && refused.value?.status).toBe('needs-review');

  // an API that echoes the token in its error: the message shown must not carry it
  api.setRule(() => statusAnswer(401, 802, `AccessToken ${fullToken} not valid`));
  await startSync(app);
  await expect(
    app
      .getByRole('alert')
      .filter({ hasText: /rejected the access token/ })
      .first(),
  ).toBeVisible({ timeout: 30_000 });
  api.setRule(null);
  for (const tab of ALL_TABS) await goTo(app, tab);

  const storage = await app.evaluate<PageStorage>(DUMP_PAGE_STORAGE);
  const places: Array<[string, string]> = [
    ['localStorage', storage.localStorage],
    ['sessionStorage', storage.sessionStorage],
    ['the page (text and markup)', await app.content()],
    ['the console', consoleLines.join('\n')],
    ['the exported audit log', auditExport],
    ...Object.entries(storage.databases).flatMap(([db, stores]) =>
      Object.entries(stores).map(([store, text]): [string, string] => [`IndexedDB ${db}/${store}`, text]),
    ),
    ...harness.sentToPage.map((message, index): [string, string] => [
      `message ${index} to the page`,
      message,
    ]),
    ...(await filesUnder(harness.settingsDir)).map(({ file, text }): [string, string] => [file, text]),
  ];
  expect(Object.keys(storage.databases).length).toBeGreaterThan(0);
  expect(harness.sentToPage.length).toBeGreaterThan(10);
  // the search works: the token did go in (the page sent it to main once, to be stored)...
  expect(harness.receivedFromPage.some((message) => message.includes(fullToken))).toBe(true);
  // ...and never came back out
  const leaks = places
    .filter(([, text]) => pieces.some((piece) => text.includes(piece)))
    .map(([where]) => where);
  expect(leaks).toEqual([]);

  // and it is where it belongs
  const stored = await harness.keychainEntries();
  expect(stored.map((entry) => entry.password)).toContain(fullToken);
});
