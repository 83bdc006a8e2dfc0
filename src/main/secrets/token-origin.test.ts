/**
 * The token belongs to the address it was entered for: a profile whose scheme,
 * host or port changes loses its stored token and asks for it again, so nothing
 * that can call `profiles:save` can send the token to a host of its choosing.
 * Cleartext `http:` is for this machine only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from './base-url.ts';
import { MemoryKeychain } from './keychain.ts';
import { ProfileStore } from './profiles.ts';

const TOKEN = 'origin-bound-token-JqJ8';
let dir: string;
let keychain: MemoryKeychain;
let store: ProfileStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldbook-origin-'));
  keychain = new MemoryKeychain();
  store = new ProfileStore(dir, keychain);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a profile whose address changes', () => {
  for (const [what, baseUrl] of [
    ['host', 'https://attacker.example.net/api/v1'],
    ['port', 'https://api.example.com:8443/api/v1'],
    ['scheme', 'http://127.0.0.1/api/v1'],
  ] as const) {
    it(`drops the stored token when its ${what} changes and no new token is given`, async () => {
      const p = await store.save({ name: 'North', baseUrl: 'https://api.example.com/api/v1', token: TOKEN });
      const moved = await store.save({ id: p.id, name: 'North', baseUrl });
      expect(moved.hasToken).toBe(false);
      expect(await store.token(p.id)).toBeNull();
      expect(keychain.entries.has(p.id)).toBe(false);
      expect(store.summary(moved)).toMatchObject({ hasToken: false, tokenHint: null });
    });
  }

  it('keeps the token when only the name or the path changes', async () => {
    const p = await store.save({ name: 'North', baseUrl: 'https://api.example.com/api/v1', token: TOKEN });
    const renamed = await store.save({
      id: p.id,
      name: 'North site',
      baseUrl: 'https://API.example.com:443/other/v1',
    });
    expect(renamed.hasToken).toBe(true);
    expect(await store.token(p.id)).toBe(TOKEN);
  });

  it('takes a new token given with the new address', async () => {
    const p = await store.save({ name: 'North', baseUrl: 'https://api.example.com/api/v1', token: TOKEN });
    await store.save({
      id: p.id,
      name: 'North',
      baseUrl: 'https://api2.example.com/api/v1',
      token: 'a-new-token-for-api2',
    });
    expect(await store.token(p.id)).toBe('a-new-token-for-api2');
  });
});

describe('cleartext http', () => {
  it('is accepted for loopback hosts only', () => {
    for (const url of [
      'http://127.0.0.1:4010/v1',
      'http://localhost:4010/v1',
      'http://[::1]:4010/v1',
      'http://127.8.9.10/v1',
    ]) {
      expect(normalizeBaseUrl(url).ok, url).toBe(true);
    }
  });

  it('is refused for any other host, with a message asking for https', () => {
    for (const url of [
      'http://api.example.com/v1',
      'http://10.0.0.5/v1',
      'http://127.0.0.1.nip.io/v1',
      'http://localhost.example.com/v1',
    ]) {
      const check = normalizeBaseUrl(url);
      expect(check.ok, url).toBe(false);
      if (!check.ok) expect(check.message).toMatch(/https:\/\//);
    }
  });

  it('refuses a profile saved with such an address', async () => {
    await expect(
      store.save({ name: 'x', baseUrl: 'http://api.example.com/v1', token: TOKEN }),
    ).rejects.toMatchObject({ appError: { code: 'invalid-argument' } });
    expect(keychain.entries.size).toBe(0);
  });
});

describe('a profile stored with http:// to another host (an older build, a hand-edited profiles.json)', () => {
  it('is refused when the client is built: probe, sync and user detail send nothing and say to use https://', async () => {
    const { writeFile } = await import('node:fs/promises');
    const { createHandlers } = await import('../handlers.ts');
    const { dispatch } = await import('../ipc/dispatch.ts');
    const profile = {
      id: 'old',
      name: 'Old build',
      baseUrl: 'http://api.example.com/v1',
      isDemo: false,
      access: 'unknown',
      hasToken: true,
    };
    await writeFile(
      join(dir, 'profiles.json'),
      JSON.stringify({ version: 1, activeId: 'old', profiles: [profile] }),
    );
    await keychain.set('old', TOKEN);
    const requests: string[] = [];
    const fetch = (async (input: string | URL | Request) => {
      requests.push(String(input));
      return new Response('{"sites":[]}', { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    const handlers = createHandlers({
      settingsDir: dir,
      keychain,
      fetch,
      demo: { start: () => Promise.reject(new Error('no demo')) },
      api: { maxRetries: 0 },
    });
    const ctx = { emit: () => undefined };
    const call = (channel: string, arg?: unknown) =>
      dispatch(handlers, channel, arg, ctx, () => undefined) as Promise<{
        ok: boolean;
        value?: unknown;
        error?: { code: string; message: string };
      }>;
    try {
      const probe = (await call('connection:probe')) as {
        ok: true;
        value: { online: boolean; error?: { code: string; message: string } };
      };
      expect(probe.value).toMatchObject({ online: false, error: { code: 'token-missing' } });
      expect(probe.value.error?.message).toMatch(/https:\/\//);
      expect(probe.value.error?.message).toContain('api.example.com');
      const sync = await call('sync:start', {});
      expect(sync).toMatchObject({ ok: false, error: { code: 'token-missing' } });
      expect(await call('users:detail', { userid: 1 })).toMatchObject({
        ok: false,
        error: { code: 'token-missing' },
      });
      expect(requests).toEqual([]);
    } finally {
      await handlers.dispose();
    }
  });
});

describe('profiles:save through the handlers (the issue’s reproduction)', () => {
  it('cannot point a profile at another listener and have connection:probe send it the token', async () => {
    const http = await import('node:http');
    const { createHandlers } = await import('../handlers.ts');
    const { dispatch } = await import('../ipc/dispatch.ts');
    const received: (string | undefined)[] = [];
    const listener = http.createServer((req, res) => {
      received.push(req.headers['accesstoken'] as string | undefined);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"sites":[]}');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
    const port = (listener.address() as { port: number }).port;
    const handlers = createHandlers({
      settingsDir: dir,
      keychain,
      fetch: globalThis.fetch,
      demo: { start: () => Promise.reject(new Error('no demo')) },
      api: { maxRetries: 0 },
    });
    const ctx = { emit: () => undefined };
    try {
      const saved = await store.save({
        name: 'North',
        baseUrl: 'https://api.example.com/api/v1',
        token: TOKEN,
      });
      const call = (channel: string, arg?: unknown) =>
        dispatch(handlers, channel, arg, ctx, () => undefined) as Promise<{
          ok: boolean;
          value?: unknown;
          error?: { code: string };
        }>;
      const moved = await call('profiles:save', {
        id: saved.id,
        name: 'North',
        baseUrl: `http://127.0.0.1:${port}/v1`,
      });
      expect(moved).toMatchObject({ ok: true, value: { hasToken: false, tokenHint: null } });
      const probe = await call('connection:probe');
      expect(probe).toMatchObject({ ok: true, value: { online: false, error: { code: 'token-missing' } } });
      expect(received).toEqual([]);
    } finally {
      await handlers.dispose();
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});
