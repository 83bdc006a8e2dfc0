/**
 * Sites kept on this laptop, per profile, through dispatch as the renderer
 * asks: listed from the server, kept in the settings file, checked against the
 * sites the token sees.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Channel, ProfileSummary, RequestArg, RequestResults, Result } from '../../shared/ipc.ts';
import { FOREIGN_SITE_ID, OUR_CUSTOMER } from '../../server/datasets.ts';
import { startServer, type RunningServer } from '../../server/index.ts';
import { createHandlers } from '../handlers.ts';
import { dispatch } from '../ipc/dispatch.ts';
import { MemoryKeychain } from '../secrets/keychain.ts';
import { ProfileStore } from '../secrets/profiles.ts';
import { createDemoService } from './demo.ts';
import { createKeptSitesService } from './kept-sites.ts';
import { createProfilesService } from './profiles.ts';

let server: RunningServer;
let dir: string;
let keychain: MemoryKeychain;
let handlers: ReturnType<typeof createHandlers>;

const token = () => server.tokens.find((t) => t.access === 'full')!.token;
const ctx = { emit: () => undefined };

/** the paths of every request main made, in order */
const requested: string[] = [];
const recordingFetch: typeof fetch = (input, init) => {
  requested.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
  return globalThis.fetch(input, init);
};

function makeHandlers() {
  return createHandlers({
    settingsDir: dir,
    keychain,
    fetch: recordingFetch,
    demo: { start: async () => ({ baseUrl: server.baseUrl, token: token() }) },
    api: { maxRetries: 0 },
  });
}

function call<C extends Channel>(
  channel: C,
  ...arg: RequestArg<C> extends undefined ? [] : [RequestArg<C>]
): Promise<Result<RequestResults[C]>> {
  return dispatch(handlers, channel, arg[0], ctx, () => undefined) as Promise<Result<RequestResults[C]>>;
}

async function value<C extends Channel>(
  channel: C,
  ...arg: RequestArg<C> extends undefined ? [] : [RequestArg<C>]
): Promise<RequestResults[C]> {
  const res = await call(channel, ...arg);
  if (!res.ok) throw new Error(`${channel}: ${res.error.code} ${res.error.message}`);
  return res.value;
}

const addProfile = (): Promise<ProfileSummary> =>
  value('profiles:save', { name: 'Plant', baseUrl: `${server.baseUrl}/`, token: token() });
const serverSiteIds = () =>
  server
    .query<{ siteid: number }>('SELECT siteid FROM sites WHERE customerid = ? ORDER BY siteid', OUR_CUSTOMER)
    .map((s) => s.siteid);

beforeAll(async () => {
  server = await startServer({ dataset: 'demo', port: 0 });
});
afterAll(async () => {
  await handlers?.dispose();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  if (handlers) await handlers.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = await mkdtemp(join(tmpdir(), 'fieldbook-kept-'));
  keychain = new MemoryKeychain();
  handlers = makeHandlers();
});

describe('sites kept on this laptop', () => {
  it('a new profile keeps every site the token sees, and lists them by name', async () => {
    const profile = await addProfile();
    expect(profile.keptSites).toBeUndefined();
    const sites = await value('profiles:sites', { id: profile.id });
    expect(sites.sites.map((s) => s.siteid)).toEqual(serverSiteIds());
    expect(sites.sites.every((s) => s.name.length > 0)).toBe(true);
    expect(sites.keptSites).toBeNull();
    // the demo's few hundred people fit any laptop
    expect(sites.manyRecords).toBe(false);
  });

  it('keeps the chosen sites, in the settings file: a restart still keeps them', async () => {
    const profile = await addProfile();
    const [first] = serverSiteIds();
    const saved = await value('profiles:setKeptSites', { id: profile.id, siteids: [first!] });
    expect(saved.keptSites).toEqual([first]);
    handlers = makeHandlers();
    const state = await value('profiles:list');
    expect(state.profiles.find((p) => p.id === profile.id)?.keptSites).toEqual([first]);
    expect((await value('profiles:sites', { id: profile.id })).keptSites).toEqual([first]);
  });

  it('keeps every site again when asked for all (null)', async () => {
    const profile = await addProfile();
    await value('profiles:setKeptSites', { id: profile.id, siteids: [serverSiteIds()[0]!] });
    const all = await value('profiles:setKeptSites', { id: profile.id, siteids: null });
    expect(all.keptSites).toBeUndefined();
  });

  it('refuses a site the token does not see, in words (never its id), and keeps the sites as they were', async () => {
    const profile = await addProfile();
    const [first] = serverSiteIds();
    await value('profiles:setKeptSites', { id: profile.id, siteids: [first!] });
    const res = await call('profiles:setKeptSites', { id: profile.id, siteids: [first!, FOREIGN_SITE_ID] });
    expect(res.ok).toBe(false);
    if (!res.ok)
      expect(res.error.message).toBe(
        "One of the chosen sites is not seen by this profile's token any more, so the kept sites were not changed. Choose among the sites listed.",
      );
    expect((await value('profiles:list')).profiles[0]?.keptSites).toEqual([first]);
  });

  describe('with Work offline on', () => {
    const sitesAsked = () => requested.filter((p) => p === '/v1/sites').length;

    // the sites kept before (null: every site), the choice saved offline: [first, second] stand for the server's first
    // two sites
    it.each([
      ['takes a site off', [0, 1], [0]],
      ['adds a site (the sync that brings it in runs once Work offline is off)', [0], [0, 1]],
      ['keeps some of every site (the choice was made among the sites the token listed)', null, [0]],
    ] as const)('%s without asking the platform anything', async (_what, before, chosen) => {
      const profile = await addProfile();
      const ids = serverSiteIds();
      const pick = (picks: readonly number[]) => picks.map((i) => ids[i]!);
      if (before) await value('profiles:setKeptSites', { id: profile.id, siteids: pick(before) });
      await value('profiles:setWorkOffline', { id: profile.id, offline: true });
      const asked = sitesAsked();
      expect(
        (await value('profiles:setKeptSites', { id: profile.id, siteids: pick(chosen) })).keptSites,
      ).toEqual(pick(chosen));
      expect(sitesAsked()).toBe(asked);
    });

    it('refuses to list the sites, in the offline words, and sends the platform no request', async () => {
      const profile = await addProfile();
      await value('profiles:setWorkOffline', { id: profile.id, offline: true });
      const before = requested.length;
      const res = await call('profiles:sites', { id: profile.id });
      expect(res.ok ? null : res.error).toEqual({
        code: 'working-offline',
        message: expect.stringContaining('nothing is fetched or sent'),
      });
      expect(requested.slice(before)).toEqual([]);
    });
  });

  it('refuses an empty choice or a profile that does not exist', async () => {
    const profile = await addProfile();
    const empty = await call('profiles:setKeptSites', { id: profile.id, siteids: [] });
    expect(empty.ok ? null : empty.error.code).toBe('invalid-argument');
    const gone = await call('profiles:sites', { id: 'no-such-profile' });
    expect(gone.ok ? null : gone.error.code).toBe('no-profile');
  });

  it('editing the profile keeps its sites; a new address starts again from every site', async () => {
    const profile = await addProfile();
    await value('profiles:setKeptSites', { id: profile.id, siteids: [serverSiteIds()[0]!] });
    const renamed = await value('profiles:save', {
      id: profile.id,
      name: 'Renamed',
      baseUrl: `${server.baseUrl}/`,
    });
    expect(renamed.keptSites).toEqual([serverSiteIds()[0]]);
    const moved = await value('profiles:save', {
      id: profile.id,
      name: 'Renamed',
      baseUrl: server.baseUrl.replace('127.0.0.1', 'localhost'),
    });
    expect(moved.keptSites).toBeUndefined();
  });
});

describe('how many people the token sees', () => {
  it('counts one row past the limit: more people than it, and the app asks which sites to keep', async () => {
    const store = new ProfileStore(dir, keychain);
    const profile = await store.save({ name: 'Plant', baseUrl: server.baseUrl, token: token() });
    const session = createProfilesService(
      store,
      createDemoService({ start: async () => ({ baseUrl: server.baseUrl, token: token() }) }),
      { fetch: globalThis.fetch, api: { maxRetries: 0 } },
    );
    const people = server.query(
      'SELECT userid FROM users u JOIN sites s ON s.siteid = u.siteid WHERE s.customerid = ?',
      OUR_CUSTOMER,
    ).length;
    expect(
      (await createKeptSitesService(store, session, people - 1).sites({ id: profile.id })).manyRecords,
    ).toBe(true);
    expect((await createKeptSitesService(store, session, people).sites({ id: profile.id })).manyRecords).toBe(
      false,
    );
  });

  it.each([
    ['one site: nothing to choose, every site kept', 'tiny', false],
    ['several sites: the coordinator chooses', 'multi', true],
  ] as const)(
    'a person’s record the app cannot read still lists the sites; not knowing how many people there are, with %s',
    async (_what, dataset, asks) => {
      const other = await startServer({ dataset, port: 0 });
      try {
        const store = new ProfileStore(dir, keychain);
        const profile = await store.save({
          name: 'Plant',
          baseUrl: other.baseUrl,
          token: other.tokens.find((t) => t.access === 'full')!.token,
        });
        const unreadablePeople: typeof fetch = (input, init) =>
          new URL(input instanceof Request ? input.url : String(input)).pathname.endsWith('/users')
            ? Promise.resolve(
                new Response(JSON.stringify({ users: [{ userid: 'not a number' }] }), {
                  status: 200,
                  headers: { 'content-type': 'application/json' },
                }),
              )
            : globalThis.fetch(input, init);
        const session = createProfilesService(
          store,
          createDemoService({ start: async () => ({ baseUrl: other.baseUrl, token: token() }) }),
          { fetch: unreadablePeople, api: { maxRetries: 0 } },
        );
        const sites = await createKeptSitesService(store, session, 10).sites({ id: profile.id });
        const seen = other
          .query<{ siteid: number }>(
            'SELECT siteid FROM sites WHERE customerid = ? ORDER BY siteid',
            OUR_CUSTOMER,
          )
          .map((s) => s.siteid);
        expect(sites.sites.map((s) => s.siteid).sort((a, b) => a - b)).toEqual(seen);
        expect(sites.manyRecords).toBe(asks);
      } finally {
        await other.close();
      }
    },
  );
});
