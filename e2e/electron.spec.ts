/**
 * The real Electron app, through a coordinator's core journey: the window opens
 * hardened, "Try the demo", work offline, queue a bulk change, back online and
 * the change is replayed; then a real site's profile is added and its token is
 * stored through keytar in the OS keychain, never in the window. Runs where
 * Electron's binary is installed (the e2e build is unfused: _electron.launch needs
 * the inspect arguments that release fuses switch off); reports itself skipped,
 * with the reason, where it is not. This is the only test of what only a real
 * Electron shows: the window, the preload, app://, keytar loaded in Electron.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, type ElectronApplication, type Page } from '@playwright/test';
import { KEYCHAIN_SERVICE } from '../src/main/secrets/keytar-keychain.ts';
import { DUMP_PAGE_STORAGE } from './support/browser-scripts.ts';
import { findElectronBinary, projectRoot } from './support/electron-binary.ts';
import { addProfile, goTo, queueStatusChangeForSomeActivePeople, tryTheDemo } from './support/ui.ts';
import { expect, test } from './fixtures.ts';

const found = findElectronBinary();
const mainEntry = path.join(projectRoot, 'out/main/index.js');

const header = (page: Page) => page.getByRole('banner');
const offlineSwitch = (page: Page) => header(page).getByRole('switch', { name: 'Work offline' });

test.describe('the Electron app', () => {
  test.skip(found.binary === null, `Electron binary not installed: ${found.reason ?? ''}`);
  test.skip(!existsSync(mainEntry), 'out/main is not built: run `npx electron-vite build` first');

  let app: ElectronApplication;
  let userData: string;

  test.beforeEach(async () => {
    // a throw-away profile folder: the test never touches a real user's settings or cache
    userData = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-electron-'));
    app = await electron.launch({
      executablePath: found.binary ?? undefined,
      args: [projectRoot, `--user-data-dir=${userData}`],
      cwd: projectRoot,
    });
  });

  test.afterEach(async () => {
    await app.close();
    await rm(userData, { recursive: true, force: true });
  });

  test('the demo, offline, a queued bulk change replayed once back online', async () => {
    test.setTimeout(180_000);
    const window = await app.firstWindow();
    expect(new URL(window.url()).protocol).toBe('app:');
    // no Node in the page: the sandboxed, isolated renderer sees only window.fieldbook
    expect(await window.evaluate('[typeof require, typeof process, typeof window.fieldbook]')).toEqual([
      'undefined',
      'undefined',
      'object',
    ]);

    await tryTheDemo(window);
    await offlineSwitch(window).check();
    const queued = await queueStatusChangeForSomeActivePeople(window);
    const waiting = `Connection: Working offline — ${queued} ${queued === 1 ? 'change' : 'changes'} waiting`;
    await expect(header(window).getByRole('status', { name: waiting })).toBeVisible();

    await offlineSwitch(window).uncheck();
    await expect(header(window).getByRole('status', { name: 'Connection: Online' })).toBeVisible({
      timeout: 30_000,
    });
    await goTo(window, 'Outbox');
    await expect(window.getByRole('table', { name: 'Batches' })).toContainText(`${queued} sent`, {
      timeout: 60_000,
    });
  });

  test('a profile’s token goes into the OS keychain through keytar, and never into the window', async ({
    api,
    fullToken,
  }) => {
    const keytar = (await import('keytar')).default;
    const window = await app.firstWindow();
    // only what this test adds is deleted: a developer's own Fieldbook tokens stay
    const before = new Set((await keytar.findCredentials(KEYCHAIN_SERVICE)).map((entry) => entry.account));
    try {
      await addProfile(window, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
      await expect(window.getByText(`••••${fullToken.slice(-4)}`).first()).toBeVisible();

      const stored = await keytar.findCredentials(KEYCHAIN_SERVICE);
      expect(stored.map((entry) => entry.password)).toContain(fullToken);
      const storage = JSON.stringify(await window.evaluate(DUMP_PAGE_STORAGE));
      const page = await window.content();
      expect(
        [storage, page].filter((text) => text.includes(fullToken) || text.includes(fullToken.slice(0, 16))),
      ).toEqual([]);
    } finally {
      const added = (await keytar.findCredentials(KEYCHAIN_SERVICE)).filter(
        (entry) => !before.has(entry.account),
      );
      for (const entry of added) await keytar.deletePassword(KEYCHAIN_SERVICE, entry.account);
    }
  });
});
