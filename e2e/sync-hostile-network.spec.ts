/**
 * A laptop on a hotel or hospital network: a sign-in page or a redirect answers
 * instead of the API. The sync stops as a whole with one message that says what
 * it saw, the token goes nowhere else, and the cache stays as it was (nothing pruned).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures.ts';
import { addProfile, cachedCounts, startSync, syncNow } from './support/ui.ts';

test.beforeEach(async ({ app, api, fullToken }) => {
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
});

test('a network sign-in page answering with 200 and HTML stops the sync with one clear message and prunes nothing', async ({
  app,
  api,
}) => {
  const before = await cachedCounts(app);
  api.setRule(() => ({
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: '<!doctype html><title>Guest Wi-Fi</title><form>Accept the terms</form>',
  }));
  await startSync(app);
  const portal = app.getByText(/a web page answered instead of the API: a network sign-in page or a proxy\?/);
  await expect(portal.first()).toBeVisible({ timeout: 30_000 });
  await expect(app.getByRole('button', { name: /^(Sync now|Resume sync)$/ })).toBeVisible({
    timeout: 30_000,
  });
  expect(await cachedCounts(app)).toEqual(before);
});

test('a redirect to another host is not followed: the token never reaches it, the message names it, nothing is pruned', async ({
  app,
  api,
}) => {
  const tokens: (string | undefined)[] = [];
  const elsewhere = http.createServer((request, response) => {
    tokens.push(request.headers['accesstoken'] as string | undefined);
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"users": []}');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', () => resolve()));
  const host = `127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  try {
    const before = await cachedCounts(app);
    api.setRule((request) => ({
      status: 302,
      body: '',
      headers: { Location: `http://${host}${request.url}` },
    }));
    await startSync(app);
    await expect(
      app.getByText(new RegExp(`redirect to http://${host.replace(/\./g, '\\.')}`)).first(),
    ).toBeVisible({ timeout: 30_000 });
    await expect(app.getByRole('button', { name: /^(Sync now|Resume sync)$/ })).toBeVisible({
      timeout: 30_000,
    });
    expect(tokens).toEqual([]);
    expect(await cachedCounts(app)).toEqual(before);
  } finally {
    elsewhere.closeAllConnections();
    elsewhere.close();
  }
});

test('an answer over 32 MB is refused while it is read: its list is named, the others sync, nothing is stored or pruned', async ({
  app,
  api,
}) => {
  const before = await cachedCounts(app);
  // a proxy gone wrong: the users list comes back as a 40 MB body (JSON, even)
  const huge = `{"users": [${' '.repeat(40 * 1024 * 1024)}]}`;
  api.setRule((request) =>
    /^\/v1\/users(\?|$)/.test(request.url) ? { status: 200, body: huge } : undefined,
  );
  await startSync(app);
  const refused = app.getByText(/larger than 32 MB.*used nothing of it/).first();
  await expect(refused).toBeVisible({ timeout: 30_000 });
  await expect(app.getByRole('button', { name: /^(Sync now|Resume sync)$/ })).toBeVisible({
    timeout: 30_000,
  });
  await expect(refused).toContainText('the list of users');
  await app.screenshot({ path: test.info().outputPath('answer-over-cap.png'), fullPage: true });
  // every table as it was; the log of syncs has this one more (a pass that changed nothing)
  const { syncChanges, ...after } = await cachedCounts(app);
  const { syncChanges: logged, ...expected } = before;
  expect(after).toEqual(expected);
  expect(syncChanges).toBe((logged ?? 0) + 1);
});
