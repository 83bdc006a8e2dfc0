/**
 * A profile keeping one site of several: the other sites' usernames and
 * e-mails (main's identity index, for the import's uniqueness checks) are read
 * at the first sync and then only once they are some hours old, and the import's
 * check still answers from them in between. Through dispatch, as the renderer
 * asks, against the reference server's `multi` dataset. The index is keyed
 * with the profile's own secret, kept in the keychain beside the token; an
 * index not keyed with it (an older build's, a lost secret) is never read.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestArg, SyncFinishedEvent } from '../../shared/ipc.ts';
import { OUR_CUSTOMER } from '../../server/datasets.ts';
import { startServer, type RunningServer } from '../../server/index.ts';
import { createHandlers } from '../handlers.ts';
import { testDispatcher } from '../testing/dispatcher.ts';
import { MemoryKeychain } from '../secrets/keychain.ts';
import { IDENTITIES_FRESH_MS } from '../sync/identities.ts';

let server: RunningServer;
let dir: string;
let handlers: ReturnType<typeof createHandlers>;
let requested: string[];
let clock: Date;
let keychain: MemoryKeychain;

const token = () => server.tokens.find((t) => t.access === 'full')!.token;
const { call, value, events } = testDispatcher(() => handlers);
const finishedSyncs = () =>
  events.filter((e) => e.event === 'sync:finished').map((e) => e.payload as SyncFinishedEvent);

/** Runs a sync to its end; the paths of the users lists of the sites it read. */
async function sync(arg: RequestArg<'sync:start'> = {}): Promise<string[]> {
  requested = [];
  const before = finishedSyncs().length;
  // the previous sync announces its end before it has written the identity index: a start meanwhile is "busy"
  for (let i = 0; i < 500; i++) {
    const res = await call('sync:start', arg);
    if (res.ok) break;
    expect(res.error.code).toBe('busy');
    await new Promise((r) => setTimeout(r, 10));
  }
  for (let i = 0; i < 3000 && finishedSyncs().length === before; i++)
    await new Promise((r) => setTimeout(r, 10));
  expect(finishedSyncs().at(-1)?.outcome).toBe('completed');
  return [
    ...new Set(requested.map((u) => new URL(u).pathname).filter((p) => /\/sites\/\d+\/users$/.test(p))),
  ].sort();
}

const sites = () =>
  server
    .query<{ siteid: number }>('SELECT siteid FROM sites WHERE customerid = ? ORDER BY siteid', OUR_CUSTOMER)
    .map((s) => s.siteid);
const usersPath = (siteid: number) =>
  `${new URL(server.baseUrl).pathname.replace(/\/$/, '')}/sites/${siteid}/users`;

beforeAll(async () => {
  server = await startServer({ dataset: 'multi', port: 0 });
});
afterAll(async () => {
  await handlers?.dispose();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await handlers?.dispose();
  dir = await mkdtemp(join(tmpdir(), 'fieldbook-identities-'));
  events.length = 0;
  clock = new Date('2026-11-27T08:00:00Z');
  requested = [];
  keychain = new MemoryKeychain();
  handlers = makeHandlers();
});

/** The app (started again: nothing of the last run in memory), on the same settings folder and keychain. */
function makeHandlers() {
  const fetchLogged: typeof fetch = (input, init) => {
    requested.push(input instanceof Request ? input.url : String(input));
    return globalThis.fetch(input, init);
  };
  return createHandlers({
    settingsDir: dir,
    keychain,
    fetch: fetchLogged,
    now: () => clock,
    api: { maxRetries: 0 },
    demo: { start: () => Promise.reject(new Error('no demo here')) },
  });
}

it(
  "reads the other sites' people at the first sync, not again for some hours, then again; the import's check answers in between",
  { timeout: 60_000 },
  async () => {
    const [kept, ...others] = sites();
    const profile = await value('profiles:save', {
      name: 'Plant',
      baseUrl: `${server.baseUrl}/`,
      token: token(),
    });
    await value('profiles:setKeptSites', { id: profile.id, siteids: [kept!] });
    const everySite = [kept!, ...others].map(usersPath).sort();
    expect(await sync()).toEqual(everySite);

    clock = new Date(clock.getTime() + 60 * 60 * 1000);
    expect(await sync(), 'an hour later: the kept site only').toEqual([usersPath(kept!)]);
    const someone = server.query<{ username: string }>(
      'SELECT username FROM users WHERE siteid = ? ORDER BY userid LIMIT 1',
      others[0]!,
    )[0]!.username;
    const check = await value('identities:check', { usernames: [someone], emails: [], cachedSites: [kept!] });
    expect(check.held).toEqual([{ field: 'username', value: someone, sitename: expect.any(String) }]);
    expect(check.syncedAt).toBe('2026-11-27T08:00:00.000Z');

    // the coordinator asks for them again (the import's "Read them again now"): read at once, whatever their age
    expect(await sync({ refreshIdentities: true }), 'asked again: every site').toEqual(everySite);
    expect(
      (await value('identities:check', { usernames: [someone], emails: [], cachedSites: [kept!] })).syncedAt,
    ).toBe(clock.toISOString());

    clock = new Date(clock.getTime() + IDENTITIES_FRESH_MS);
    expect(await sync(), 'once they are older than the window: every site again').toEqual(everySite);
    expect(
      (await value('identities:check', { usernames: [someone], emails: [], cachedSites: [kept!] })).syncedAt,
    ).toBe(clock.toISOString());
  },
);

describe('the index keyed with the profile’s own secret', () => {
  const sha256 = (value: string) =>
    createHash('sha256').update(value.toLowerCase()).digest('base64url').slice(0, 16);
  const usernamesAt = (siteid: number) =>
    server
      .query<{ username: string }>('SELECT username FROM users WHERE siteid = ? ORDER BY userid', siteid)
      .map((u) => u.username);
  const indexFile = async () =>
    join(
      dir,
      'identities',
      (await readdir(join(dir, 'identities'))).find((f) => f.endsWith('.json'))!,
    );

  /** A profile keeping the first site, synced once: the other sites, and someone at one of them. */
  async function syncedProfile() {
    const [kept, ...others] = sites();
    const profile = await value('profiles:save', {
      name: 'Plant',
      baseUrl: `${server.baseUrl}/`,
      token: token(),
    });
    await value('profiles:setKeptSites', { id: profile.id, siteids: [kept!] });
    await sync();
    const ask = () =>
      value('identities:check', {
        usernames: [usernamesAt(others[0]!)[0]!],
        emails: [],
        cachedSites: [kept!],
      });
    // answered once the index is written (after the sync's end)
    expect((await ask()).held).toHaveLength(1);
    return { profile, kept: kept!, others, ask, everySite: [kept!, ...others].map(usersPath).sort() };
  }

  it(
    'keeps its secret in the keychain beside the token; the file holds no plain SHA-256 of any username',
    { timeout: 60_000 },
    async () => {
      const { profile, others } = await syncedProfile();
      expect([...keychain.entries.keys()].sort()).toEqual([profile.id, `${profile.id}#identities`]);
      const file = await readFile(await indexFile(), 'utf8');
      for (const username of usernamesAt(others[0]!)) expect(file).not.toContain(sha256(username));
      await value('profiles:delete', { id: profile.id });
      expect([...keychain.entries.keys()], 'a deleted profile’s secret goes with it').toEqual([]);
    },
  );

  /** After a restart the index is not read (the other sites count as not synced) and the next sync writes it again. */
  async function expectRebuiltAfterRestart(
    ask: () => Promise<{ held: unknown[] }>,
    everySite: unknown,
  ): Promise<void> {
    await handlers.dispose();
    handlers = makeHandlers();
    expect(await ask()).toMatchObject({ held: [], notSynced: true });
    clock = new Date(clock.getTime() + 60 * 60 * 1000);
    expect(await sync(), 'an hour later, every site read again').toEqual(everySite);
    expect((await ask()).held).toHaveLength(1);
  }

  it(
    'does not read an index an older build wrote (unkeyed SHA-256): nothing is answered from it, and the next sync writes it again',
    { timeout: 60_000 },
    async () => {
      const { ask, everySite } = await syncedProfile();
      const keyed = JSON.parse(await readFile(await indexFile(), 'utf8')) as {
        sites: { siteid: number; usernames: string[] | null }[];
      };
      const sites = keyed.sites.map((s) => ({
        ...s,
        usernames: usernamesAt(s.siteid).map(sha256),
        emails: [],
      }));
      await writeFile(await indexFile(), JSON.stringify({ ...keyed, version: 1, keyId: undefined, sites }));
      await expectRebuiltAfterRestart(ask, everySite);
    },
  );

  it(
    'does not read an index whose secret the keychain no longer holds: the next sync writes it again',
    { timeout: 60_000 },
    async () => {
      const { profile, ask, everySite } = await syncedProfile();
      keychain.entries.delete(`${profile.id}#identities`);
      await expectRebuiltAfterRestart(ask, everySite);
    },
  );
});
