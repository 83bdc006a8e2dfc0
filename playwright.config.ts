import { defineConfig } from '@playwright/test';

/**
 * e2e: the real renderer (built), real IndexedDB, real main-process handlers and
 * the real reference server, in Debian's Chromium through the browser mode
 * (src/browser-mode, wrapped by e2e/support/harness.ts). Run inside a D-Bus
 * session with an unlocked gnome-keyring: it stores tokens with keytar, as the app does.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // no name resolves but 127.0.0.1: hostile links and planted URLs can never reach the network, not even DNS
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  // two cores: two workers, each with its own harness, server and browser
  workers: 2,
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
