/**
 * The harness's loopback socket carries every handler (profiles, the token's
 * use, sync, replay). Any local process can connect to 127.0.0.1 and forge the
 * Origin and Host headers, so those prove nothing: only the per-launch key that
 * the harness gives its own page (in the page address it prints) opens the socket.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryKeychain } from '../../src/main/secrets/keychain.ts';
import { openBridge } from '../support/ws-client.ts';
import { HARNESS_KEY_PARAM, startHarness, type Harness } from './host.ts';

let harness: Harness;
let rendererDir: string;

beforeAll(async () => {
  rendererDir = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-harness-test-'));
  await mkdir(rendererDir, { recursive: true });
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><html><head><script type="module" src="/app.js"></script></head><body></body></html>');
  harness = await startHarness({ rendererDir, keychain: new MemoryKeychain(), recordMessages: false, serverUrl: 'http://127.0.0.1:1/api/v1', token: 'demo-token-unused' });
});

afterAll(async () => {
  await harness.close();
  await rm(rendererDir, { recursive: true, force: true });
});

/** the key as the page gets it: from its own address */
function keyOf(h: Harness): string {
  return new URL(h.url).searchParams.get(HARNESS_KEY_PARAM) ?? '';
}

describe('the harness socket', () => {
  it('refuses a local client that forges the page’s Origin and Host but has no launch key', async () => {
    await expect(openBridge(harness.origin, harness.origin)).rejects.toThrow(/403/);
  });

  it('refuses a client with a wrong launch key', async () => {
    const wrong = keyOf(harness).replace(/./, (c) => (c === 'a' ? 'b' : 'a'));
    await expect(openBridge(harness.origin, harness.origin, wrong)).rejects.toThrow(/403/);
  });

  it('answers the page that holds the launch key', async () => {
    const client = await openBridge(harness.origin, harness.origin, keyOf(harness));
    const answer = (await client.call('profiles:list')) as { ok: boolean };
    client.close();
    expect(answer.ok).toBe(true);
  });

  it('uses a key of at least 128 random bits, new at every launch', async () => {
    const other = await startHarness({ rendererDir, keychain: new MemoryKeychain(), recordMessages: false, serverUrl: 'http://127.0.0.1:1/api/v1', token: 'x-unused' });
    try {
      expect(keyOf(harness)).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      expect(keyOf(other)).not.toBe(keyOf(harness));
    } finally {
      await other.close();
    }
  });

  it('does not hand the key to whoever fetches the page, the bridge or any other file', async () => {
    for (const file of ['/', '/index.html', '/__harness/bridge.js', '/__harness/preload-api.js']) {
      const text = await (await fetch(`${harness.origin}${file}`)).text();
      expect(text, file).not.toContain(keyOf(harness));
    }
  });
});
