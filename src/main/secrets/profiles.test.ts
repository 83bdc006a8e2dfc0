import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from './base-url.ts';
import { MemoryKeychain } from './keychain.ts';
import { ProfileStore, SETTINGS_FILE } from './profiles.ts';
import { scrub, tokenHint } from './scrub.ts';

const TOKEN = 'abcdefghijklmnop3kQ=';
let dir: string;
let keychain: MemoryKeychain;
let store: ProfileStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldbook-profiles-'));
  keychain = new MemoryKeychain();
  store = new ProfileStore(dir, keychain);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function settingsText() {
  return readFile(join(dir, SETTINGS_FILE), 'utf8');
}

describe('profiles', () => {
  it('keeps the token in the keychain and never in the settings file', async () => {
    const p = await store.save({ name: 'North', baseUrl: 'https://api.example.com/v1', token: TOKEN });
    expect(keychain.entries.get(p.id)).toBe(TOKEN);
    expect(await settingsText()).not.toContain(TOKEN);
    expect(await settingsText()).not.toContain('3kQ=');
  });

  it('shows the renderer only that a token exists and its masked tail', async () => {
    const p = await store.save({ name: 'North', baseUrl: 'https://api.example.com/v1', token: TOKEN });
    const summary = store.summary(p);
    expect(summary).toMatchObject({ hasToken: true, tokenHint: '••••3kQ=' });
    expect(JSON.stringify(await store.state())).not.toContain(TOKEN);
  });

  it('makes a new profile the active one and survives a restart', async () => {
    const p = await store.save({ name: 'North', baseUrl: 'https://api.example.com/v1/', token: TOKEN });
    const reopened = new ProfileStore(dir, keychain);
    const state = await reopened.state();
    expect(state.activeId).toBe(p.id);
    expect(state.profiles[0]).toMatchObject({
      name: 'North',
      baseUrl: 'https://api.example.com/v1',
      tokenHint: '••••3kQ=',
    });
    expect(await reopened.token(p.id)).toBe(TOKEN);
  });

  it('says the keychain holds an empty entry for a profile saved with a token, and to add the token again', async () => {
    const p = await store.save({ name: 'North', baseUrl: 'https://api.example.com/v1', token: TOKEN });
    keychain.entries.set(p.id, '');
    const reopened = new ProfileStore(dir, keychain);
    await expect(reopened.token(p.id)).rejects.toMatchObject({
      appError: {
        code: 'token-missing',
        message: expect.stringMatching(/empty entry for this profile.*add its API token again/),
      },
    });
  });

  it('says a token the keychain no longer gives may be locked away or removed, rather than "no token yet"', async () => {
    const p = await store.save({ name: 'North', baseUrl: 'https://api.example.com/v1', token: TOKEN });
    keychain.entries.delete(p.id);
    const reopened = new ProfileStore(dir, keychain);
    await expect(reopened.token(p.id)).rejects.toMatchObject({
      appError: {
        code: 'token-missing',
        message: expect.stringMatching(/locked.*unlock it.*add its API token again/),
      },
    });
  });

  it('keeps the stored token when a profile is edited without one', async () => {
    const p = await store.save({ name: 'North', baseUrl: 'https://api.example.com/v1', token: TOKEN });
    await store.save({ id: p.id, name: 'North site', baseUrl: 'https://api.example.com/v1' });
    expect(await store.token(p.id)).toBe(TOKEN);
    expect((await store.get(p.id))?.name).toBe('North site');
  });

  it('forgets the learnt access level when the token changes', async () => {
    const p = await store.save({ name: 'North', baseUrl: 'https://api.example.com/v1', token: TOKEN });
    await store.setAccess(p.id, 'readonly');
    await store.save({
      id: p.id,
      name: 'North',
      baseUrl: 'https://api.example.com/v1',
      token: 'another-token-0000',
    });
    expect((await store.get(p.id))?.access).toBe('unknown');
  });

  it('deletes the keychain entry with the profile and activates another', async () => {
    const a = await store.save({ name: 'A', baseUrl: 'https://a.example.com/v1', token: TOKEN });
    const b = await store.save({ name: 'B', baseUrl: 'https://b.example.com/v1', token: 'token-of-b-12345' });
    await store.delete(b.id);
    expect(keychain.entries.has(b.id)).toBe(false);
    expect(await store.activeId()).toBe(a.id);
  });

  it('refuses to store a token when no keychain is reachable, and stores it nowhere else', async () => {
    keychain.unavailableMessage = 'No Secret Service.';
    await expect(
      store.save({ name: 'North', baseUrl: 'https://api.example.com/v1', token: TOKEN }),
    ).rejects.toMatchObject({
      appError: { code: 'keychain-unavailable', message: 'No Secret Service.' },
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses an address that is not an http(s) /v1 URL', async () => {
    await expect(
      store.save({ name: 'X', baseUrl: 'ftp://api.example.com/v1', token: TOKEN }),
    ).rejects.toMatchObject({ appError: { code: 'invalid-argument' } });
  });

  it('keeps an unreadable settings file aside instead of overwriting it', async () => {
    await writeFile(join(dir, SETTINGS_FILE), '{not json');
    const state = await store.state();
    expect(state.profiles).toEqual([]);
    expect((await readdir(dir)).some((f) => f.startsWith(`${SETTINGS_FILE}.unreadable-`))).toBe(true);
  });

  it('writes the settings atomically, leaving no temporary file behind', async () => {
    await Promise.all([
      store.save({ name: 'A', baseUrl: 'https://a.example.com/v1', token: TOKEN }),
      store.save({ name: 'B', baseUrl: 'https://b.example.com/v1', token: TOKEN }),
    ]);
    expect(await readdir(dir)).toEqual([SETTINGS_FILE]);
    expect(JSON.parse(await settingsText()).profiles).toHaveLength(2);
  });

  it('keeps the demo token in memory only, so the demo works without a keychain', async () => {
    keychain.unavailableMessage = 'No Secret Service.';
    const demo = await store.saveDemo('http://127.0.0.1:4010/v1', 'demo-token-full-0001');
    expect(store.summary(demo)).toMatchObject({ isDemo: true, hasToken: true, access: 'full' });
    expect(await settingsText()).not.toContain('demo-token-full-0001');
  });

  it('registers tokens for scrubbing as soon as they are known', async () => {
    await store.save({ name: 'North', baseUrl: 'https://api.example.com/v1', token: TOKEN });
    expect(scrub(`answer echoed ${TOKEN}`)).toBe('answer echoed ••••');
  });
});

describe('base URL', () => {
  it('accepts http and https addresses ending in /v1, with or without a trailing slash', () => {
    expect(normalizeBaseUrl('https://api.example.com/v1/')).toEqual({
      ok: true,
      baseUrl: 'https://api.example.com/v1',
    });
    expect(normalizeBaseUrl(' http://127.0.0.1:4010/v1 ')).toEqual({
      ok: true,
      baseUrl: 'http://127.0.0.1:4010/v1',
    });
  });

  it.each([
    'javascript:alert(1)//v1',
    'file:///etc/v1',
    'https://api.example.com/v2',
    'https://user:pw@api.example.com/v1',
    'https://api.example.com/v1?x=1',
    'not a url',
  ])('refuses %s', (input) => {
    expect(normalizeBaseUrl(input).ok).toBe(false);
  });
});

describe('token hint', () => {
  it('shows only the last four characters of a long token', () => {
    expect(tokenHint('abcdefghijklmnop3kQ=')).toBe('••••3kQ=');
  });

  it('shows no tail at all for a short token', () => {
    expect(tokenHint('short')).toBe('••••');
  });
});
