/**
 * The browser mode's loopback socket carries every handler (profiles, the token's
 * use, sync, replay). Any local process can connect to 127.0.0.1 and forge the
 * Origin and Host headers, so those prove nothing: only the per-launch key that
 * the browser mode gives its own page (in the page address it prints) opens the socket.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryKeychain } from '../main/secrets/keychain.ts';
import { openBridge } from './testing/ws-client.ts';
import { startBrowserMode, type BrowserMode, type BrowserModeOptions } from './host.ts';
import { launchKeyOf } from './launch-key.ts';

let browserMode: BrowserMode;
let rendererDir: string;
let settingsDir: string;

/** a browser mode whose demo points nowhere, with a keychain in memory */
function offline(): BrowserModeOptions {
  return {
    rendererDir,
    settingsDir,
    keychain: new MemoryKeychain(),
    serverUrl: 'http://127.0.0.1:1/api/v1',
    token: 'demo-token-unused',
  };
}

beforeAll(async () => {
  rendererDir = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-browser-mode-test-'));
  settingsDir = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-browser-mode-settings-'));
  await mkdir(rendererDir, { recursive: true });
  await writeFile(
    path.join(rendererDir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/app.js"></script></head><body></body></html>',
  );
  browserMode = await startBrowserMode(offline());
});

afterAll(async () => {
  await browserMode.close();
  await rm(rendererDir, { recursive: true, force: true });
  await rm(settingsDir, { recursive: true, force: true });
});

/** the key as the page gets it: from its own address */
function keyOf(h: BrowserMode): string {
  return launchKeyOf(h.url);
}

describe('the browser mode socket', () => {
  it('refuses a local client that forges the page’s Origin and Host but has no launch key', async () => {
    await expect(openBridge(browserMode.origin, browserMode.origin)).rejects.toThrow(/403/);
  });

  it('refuses a client with a wrong launch key', async () => {
    const wrong = keyOf(browserMode).replace(/./, (c) => (c === 'a' ? 'b' : 'a'));
    await expect(openBridge(browserMode.origin, browserMode.origin, wrong)).rejects.toThrow(/403/);
  });

  it('answers the page that holds the launch key', async () => {
    const client = await openBridge(browserMode.origin, browserMode.origin, keyOf(browserMode));
    const answer = (await client.call('profiles:list')) as { ok: boolean };
    client.close();
    expect(answer.ok).toBe(true);
  });

  it('uses a key of at least 128 random bits, new at every launch', async () => {
    const other = await startBrowserMode(offline());
    try {
      expect(keyOf(browserMode)).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      expect(keyOf(other)).not.toBe(keyOf(browserMode));
    } finally {
      await other.close();
    }
  });

  it('does not hand the key to whoever fetches the page, the bridge or any other file', async () => {
    for (const file of ['/', '/index.html', '/__browserMode/bridge.js', '/__browserMode/preload-api.js']) {
      const text = await (await fetch(`${browserMode.origin}${file}`)).text();
      expect(text, file).not.toContain(keyOf(browserMode));
    }
  });
});
