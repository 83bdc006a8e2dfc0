/**
 * Fixtures shared by the specs: a reference server (tiny dataset unless a spec
 * says otherwise), a counting proxy in front of it, a browser harness whose
 * "Try the demo" points at that proxy, and the app page with watchers for
 * anything that must never happen (a script from data, a dialog, an uncaught
 * error, a CSP violation, a navigation away).
 *
 * The harness emulates the Electron shell's rules where a browser lets it, with
 * the shell's own functions: navigations are judged by `guardNavigation` (the
 * harness origin standing where the dev-server origin would), new windows by
 * `createWindowOpenHandler`, and nothing leaves 127.0.0.1.
 */
import {
  test as base,
  expect,
  type BrowserContext,
  type Frame,
  type Page,
  type Request,
} from '@playwright/test';
import { startServer } from '../src/server/index.ts';
import type { KeychainStatus } from '../src/shared/ipc.ts';
import { KeytarKeychain } from '../src/main/secrets/keytar-keychain.ts';
import { createWindowOpenHandler, guardNavigation } from '../src/main/security/window-rules.ts';
import { startHarness, type Harness, type HarnessOptions } from './support/harness.ts';
import { startApiProxy, type ApiProxy } from './support/api-proxy.ts';
import { RECORD_CSP_VIOLATIONS } from './support/browser-scripts.ts';

export type ReferenceServer = Awaited<ReturnType<typeof startServer>>;
export type ServerOptions = Omit<Parameters<typeof startServer>[0], 'port'>;

export interface PageWatch {
  consoleErrors: string[];
  pageErrors: string[];
  dialogs: string[];
  /** every URL the page tried to navigate its own window to, recorded before any rule judged it */
  navigationAttempts: string[];
  /** URLs the emulated shell refused to navigate to */
  refusedNavigations: string[];
  /** URLs of windows the emulated shell refused to open */
  refusedWindows: string[];
  /** windows the browser created anyway (middle-click tabs) and the emulated shell closed at once */
  closedWindows: number;
  /** URLs the window-open handler handed to the (stubbed) system browser */
  externalOpens: string[];
}

interface Fixtures {
  serverOptions: ServerOptions;
  harnessOptions: HarnessOptions;
  server: ReferenceServer;
  api: ApiProxy;
  fullToken: string;
  harness: Harness;
  watch: PageWatch;
  app: Page;
}

export function tokenOf(server: ReferenceServer, access: string): string {
  const entry = server.tokens.find((candidate) => candidate.access === access);
  if (!entry) throw new Error(`The reference server has no ${access} token.`);
  return entry.token;
}

/** Installs the shell's rules on a browser context (the harness's stand-in for Electron's handlers). */
export async function emulateShell(
  context: BrowserContext,
  appPage: Page,
  origin: string,
  watch: PageWatch,
): Promise<void> {
  const openWindow = createWindowOpenHandler((url) => watch.externalOpens.push(url));
  await context.route('**/*', async (route) => {
    const request = route.request();
    const url = request.url();
    if (request.isNavigationRequest()) {
      // a window the page is opening: its frame does not exist yet, or its page has an opener
      const page = frameOf(request)?.page();
      const popup = page === undefined || (await page.opener()) !== null;
      if (popup) {
        watch.refusedWindows.push(url);
        openWindow({ url });
        await route.fulfill({ status: 204 });
        return;
      }
      // A 204 answer ends a navigation and leaves the current page in place, as will-navigate's
      // preventDefault does in Electron (an aborted request would show an error page instead).
      watch.navigationAttempts.push(url);
      if (!guardNavigation({ preventDefault: () => watch.refusedNavigations.push(url) }, url, origin)) {
        await route.fulfill({ status: 204 });
        return;
      }
    }
    // nothing ever leaves this machine: anything not served by the harness is refused
    if (!url.startsWith(`${origin}/`)) {
      await route.abort('blockedbyclient');
      return;
    }
    await route.continue();
  });
  // the app has one window: any other the browser creates is closed at once
  context.on('page', (page) => {
    if (page === appPage) return;
    watch.closedWindows += 1;
    void page.close();
  });
}

let keychainProbe: Promise<KeychainStatus> | null = null;
function keychainStatus(): Promise<KeychainStatus> {
  keychainProbe ??= new KeytarKeychain('Fieldbook-e2e-probe').available();
  return keychainProbe;
}

function frameOf(request: Request): Frame | undefined {
  try {
    return request.frame();
  } catch {
    return undefined; // a navigation issued before its frame exists: a new window
  }
}

export const test = base.extend<Fixtures>({
  serverOptions: [{ dataset: 'tiny', admin: true }, { option: true }],
  harnessOptions: [{}, { option: true }],

  server: async ({ serverOptions }, use) => {
    const server = await startServer({ port: 0, ...serverOptions });
    await use(server);
    await server.close();
  },

  api: async ({ server }, use) => {
    const api = await startApiProxy(server.baseUrl);
    await use(api);
    await api.close();
  },

  // a test that stores a token needs a Secret Service: without one it reports itself skipped, with the reason (in CI,
  // which always has one, it fails)
  fullToken: async ({ server }, use) => {
    const keychain = await keychainStatus();
    const detail = keychain.message ?? '';
    const why = `No Secret Service (run inside dbus-run-session with gnome-keyring unlocked): ${detail}`;
    if (!keychain.available && process.env.CI) throw new Error(why);
    test.skip(!keychain.available, why);
    await use(tokenOf(server, 'full'));
  },

  harness: async ({ api, server, harnessOptions }, use) => {
    const harness = await startHarness({
      serverUrl: api.baseUrl,
      token: tokenOf(server, 'full'),
      ...harnessOptions,
    });
    await use(harness);
    await harness.close();
  },

  watch: async ({ page: _page }, use) => {
    await use({
      consoleErrors: [],
      pageErrors: [],
      dialogs: [],
      navigationAttempts: [],
      refusedNavigations: [],
      refusedWindows: [],
      closedWindows: 0,
      externalOpens: [],
    });
  },

  app: async ({ page, context, harness, watch }, use) => {
    await emulateShell(context, page, harness.origin, watch);
    // Recorded from before the app's first script; Playwright's init scripts are not subject to the page's CSP.
    await page.addInitScript(RECORD_CSP_VIOLATIONS);
    page.on('console', (message) => {
      if (message.type() === 'error') watch.consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => watch.pageErrors.push(error.message));
    page.on('dialog', (dialog) => {
      watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(harness.url);
    await use(page);
  },
});

export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('window.__cspViolations ?? []');
}

export { expect };
