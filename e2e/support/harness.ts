/**
 * The browser mode (src/browser-mode) as the specs use it: the product, plus what
 * a test watches and cleans up. Each harness gets its own settings folder and
 * keychain service (removed on close) so parallel workers never share entries,
 * keeps every message that crossed the socket (token-leak tests), and counts
 * the requests the handlers made and the connections the socket refused.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { MainDeps } from '../../src/main/deps.ts';
import { KeytarKeychain } from '../../src/main/secrets/keytar-keychain.ts';
import { SETTINGS_FILE } from '../../src/main/secrets/profiles.ts';
import type { BrowserModeDemoOptions } from '../../src/browser-mode/demo.ts';
import { startBrowserMode } from '../../src/browser-mode/host.ts';
import { launchKeyOf } from '../../src/browser-mode/launch-key.ts';

export interface HarnessOptions extends BrowserModeDemoOptions {
  /** 0 (default) picks a free port */
  port?: number;
  rendererDir?: string;
  /** kept after close when given; a temp folder (removed on close) otherwise */
  settingsDir?: string;
  /** keychain service name: unique per harness by default so parallel runs never share entries */
  keychainService?: string;
  keychain?: MainDeps['keychain'];
  fetch?: typeof globalThis.fetch;
  /** the launch key of a host this one replaces on the same port (tests that restart the host under an open page) */
  launchKey?: string;
  /** keep every message sent to and received from the page (token-leak tests); on by default */
  recordMessages?: boolean;
  sync?: MainDeps['sync'];
  api?: MainDeps['api'];
  manyPeopleAbove?: MainDeps['manyPeopleAbove'];
}

export interface Harness {
  /** the page address, launch key included */
  url: string;
  /** this launch's key (in `url`); tests use it to speak to the socket as the page does */
  key: string;
  origin: string;
  port: number;
  settingsDir: string;
  keychainService: string;
  /** every message sent to a page, as sent (when recordMessages) */
  sentToPage: string[];
  /** every message received from a page, as received (when recordMessages) */
  receivedFromPage: string[];
  /** requests the handlers made through fetch (to the API) */
  apiRequests(): number;
  /** WebSocket connections refused (no key, a wrong one, a foreign Origin or Host) */
  refusedConnections(): number;
  /** what the profiles stored under keychainService (through keytar, as the app stored it) */
  keychainEntries(): Promise<{ account: string; password: string }[]>;
  close(): Promise<void>;
}

async function loadKeytar(): Promise<Pick<typeof import('keytar'), 'getPassword' | 'deletePassword'>> {
  const imported = await import('keytar');
  return 'default' in imported && imported.default ? imported.default : imported;
}

/**
 * The accounts a harness may have stored under its service: its profiles' ids (the settings file). Read one by
 * one, never with keytar's findCredentials: an entry whose value cannot be read crashes it (keytar-keychain.ts).
 */
async function profileIds(settingsDir: string): Promise<string[]> {
  try {
    const settings = JSON.parse(await readFile(path.join(settingsDir, SETTINGS_FILE), 'utf8')) as {
      profiles?: { id?: unknown }[];
    };
    return (settings.profiles ?? [])
      .map((profile) => profile.id)
      .filter((id): id is string => typeof id === 'string');
  } catch {
    return []; // no settings file: no profile was saved
  }
}

/** Each profile's entry under the harness's keychain service, as stored. */
async function keychainEntries(
  service: string,
  settingsDir: string,
): Promise<{ account: string; password: string }[]> {
  const keytar = await loadKeytar();
  const entries = [];
  for (const account of await profileIds(settingsDir)) {
    const password = await keytar.getPassword(service, account);
    if (password !== null) entries.push({ account, password });
  }
  return entries;
}

/** Removes what a harness stored under its own keychain service (best effort: the keychain may be gone). */
async function forgetKeychainService(service: string, settingsDir: string): Promise<void> {
  try {
    const keytar = await loadKeytar();
    for (const account of await profileIds(settingsDir)) await keytar.deletePassword(service, account);
  } catch {
    // no Secret Service: nothing was stored
  }
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const {
    sync,
    api,
    manyPeopleAbove,
    recordMessages = true,
    keychainService: givenService,
    ...rest
  } = options;
  const settingsDir = options.settingsDir ?? (await mkdtemp(path.join(os.tmpdir(), 'fieldbook-harness-')));
  const keychainService =
    givenService ?? `Fieldbook-harness-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const sentToPage: string[] = [];
  const receivedFromPage: string[] = [];
  let apiRequests = 0;
  let refused = 0;
  const baseFetch = options.fetch ?? globalThis.fetch;
  const browserMode = await startBrowserMode({
    ...rest,
    settingsDir,
    keychain: options.keychain ?? new KeytarKeychain(keychainService),
    fetch: (input, init) => {
      apiRequests += 1;
      return baseFetch(input, init);
    },
    tuning: { sync, api, manyPeopleAbove },
    observe: {
      sent: (text) => void (recordMessages && sentToPage.push(text)),
      received: (text) => void (recordMessages && receivedFromPage.push(text)),
      refused: () => void (refused += 1),
    },
  });
  const close = async () => {
    await browserMode.close();
    if (!options.keychain && givenService === undefined)
      await forgetKeychainService(keychainService, settingsDir);
    if (options.settingsDir === undefined) await rm(settingsDir, { recursive: true, force: true });
  };
  let closing: Promise<void> | null = null;
  return {
    ...browserMode,
    key: launchKeyOf(browserMode.url),
    settingsDir,
    keychainService,
    sentToPage,
    receivedFromPage,
    apiRequests: () => apiRequests,
    refusedConnections: () => refused,
    keychainEntries: () => keychainEntries(keychainService, settingsDir),
    close: () => (closing ??= close()),
  };
}
