/**
 * The real Electron app: start, "Try the demo", sync. Runs where Electron's
 * binary is installed (the e2e build is unfused: _electron.launch needs the
 * inspect arguments that release fuses switch off); reports itself skipped,
 * with the reason, where it is not.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { findElectronBinary, projectRoot } from './support/electron-binary.ts';
import { goTo, syncNow, tryTheDemo, usersCount } from './support/ui.ts';

const found = findElectronBinary();
const mainEntry = path.join(projectRoot, 'out/main/index.js');

test.describe('the Electron app', () => {
  test.skip(found.binary === null, `Electron binary not installed: ${found.reason ?? ''}`);
  test.skip(!existsSync(mainEntry), 'out/main is not built: run `npx electron-vite build` first');

  test('starts hardened, tries the demo and syncs it', async () => {
    // a throw-away profile folder: the test never touches a real user's settings or cache
    const userData = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-electron-'));
    const app = await electron.launch({ executablePath: found.binary ?? undefined, args: [projectRoot, `--user-data-dir=${userData}`], cwd: projectRoot });
    try {
      const window = await app.firstWindow();
      expect(new URL(window.url()).protocol).toBe('app:');
      // no Node in the page: the sandboxed, isolated renderer sees only window.fieldbook
      expect(await window.evaluate('[typeof require, typeof process, typeof window.fieldbook]')).toEqual(['undefined', 'undefined', 'object']);

      await tryTheDemo(window);
      await goTo(window, 'Users');
      await expect(usersCount(window)).toHaveText(/^(\d+) of \1 users$/);
      await syncNow(window);
    } finally {
      await app.close();
      await rm(userData, { recursive: true, force: true });
    }
  });
});
