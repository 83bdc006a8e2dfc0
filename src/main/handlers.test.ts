/**
 * The handlers end to end through dispatch, as the renderer uses them, with the
 * real reference server as the demo, an in-memory keychain and Node's fetch.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventPayloads, ProfileSummary, RequestArg, SyncFinishedEvent } from '../shared/ipc.ts';
import { startServer, type RunningServer } from '../server/index.ts';
import { createHandlers } from './handlers.ts';
import { dispatch } from './ipc/dispatch.ts';
import { testDispatcher } from './testing/dispatcher.ts';
import { MemoryKeychain } from './secrets/keychain.ts';

let server: RunningServer;
let dir: string;
let keychain: MemoryKeychain;
let handlers: ReturnType<typeof createHandlers>;

const tokenOf = (access: string) => server.tokens.find((t) => t.access === access)!.token;

beforeAll(async () => {
  server = await startServer({ dataset: 'tiny', port: 0 });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  if (handlers) await handlers.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = await mkdtemp(join(tmpdir(), 'fieldbook-handlers-'));
  keychain = new MemoryKeychain();
  events.length = 0;
  handlers = createHandlers({
    settingsDir: dir,
    keychain,
    fetch: globalThis.fetch,
    demo: { start: async () => ({ baseUrl: server.baseUrl, token: tokenOf('full') }) },
    sync: { limit: 10, stalledAfterMs: 50 },
    api: { maxRetries: 0 },
  });
});

const { call, value, events } = testDispatcher(() => handlers);

async function finished(): Promise<SyncFinishedEvent> {
  for (let i = 0; i < 500; i++) {
    const done = events.find((e) => e.event === 'sync:finished');
    if (done) return done.payload as SyncFinishedEvent;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the sync did not finish');
}

async function addProfile(access: string): Promise<ProfileSummary> {
  return value('profiles:save', {
    name: `Site (${access})`,
    baseUrl: `${server.baseUrl}/`,
    token: tokenOf(access),
  });
}

describe('handlers', () => {
  it('tries the demo: a demo profile, active, synced in full', async () => {
    const demo = await value('demo:start');
    expect(demo).toMatchObject({ isDemo: true, hasToken: true, access: 'full' });
    expect((await value('profiles:list')).activeId).toBe(demo.id);
    await value('sync:start', {});
    const end = await finished();
    expect(end.outcome).toBe('completed');
    expect(end.requests).toBe(end.plannedRequests);
  });

  it('starts the demo again on first use after a restart', async () => {
    let starts = 0;
    const options = {
      settingsDir: dir,
      keychain,
      fetch: globalThis.fetch,
      demo: { start: async () => (starts++, { baseUrl: server.baseUrl, token: tokenOf('full') }) },
      sync: { limit: 10 },
    };
    const before = createHandlers(options);
    await testDispatcher(() => before).call('demo:start');
    await before.dispose();
    handlers = createHandlers(options);
    expect((await value('profiles:list')).profiles[0]).toMatchObject({ isDemo: true, hasToken: true });
    expect(await value('connection:probe')).toMatchObject({ online: true });
    expect(starts).toBe(2);
  });

  it('learns from a sync that a token is limited to one feature', async () => {
    await addProfile('feature');
    await value('sync:start', {});
    expect((await finished()).collections.moduleAccess?.state).toBe('failed');
    // the access level is saved just after the sync ends
    let access = (await value('profiles:list')).profiles[0]!.access;
    for (let i = 0; i < 100 && access !== 'feature'; i++) {
      await new Promise((r) => setTimeout(r, 10));
      access = (await value('profiles:list')).profiles[0]!.access;
    }
    expect(access).toBe('feature');
  });

  it('never sends the token to the renderer', async () => {
    await addProfile('full');
    await value('sync:start', {});
    await finished();
    const everything = JSON.stringify([events, await value('profiles:list')]);
    expect(everything).not.toContain(tokenOf('full'));
  });

  it('tells offline, token rejected and online apart', async () => {
    const p = await addProfile('full');
    expect(await value('connection:probe')).toMatchObject({ online: true, profileId: p.id });
    await value('profiles:save', {
      id: p.id,
      name: 'Site',
      baseUrl: server.baseUrl,
      token: 'revoked-token-0000000',
    });
    expect(await value('connection:probe')).toMatchObject({
      online: true,
      error: { code: 'token-rejected' },
    });
    await value('profiles:save', {
      id: p.id,
      name: 'Site',
      baseUrl: 'http://127.0.0.1:9/v1',
      token: tokenOf('full'),
    });
    expect(await value('connection:probe')).toMatchObject({ online: false, error: { code: 'network' } });
    expect(events.filter((e) => e.event === 'connection:changed')).toHaveLength(3);
  });

  it('learns that a read-only token is read-only and says so in the profile', async () => {
    await addProfile('readonly');
    await value('connection:probe');
    expect((await value('profiles:list')).profiles[0]!.access).toBe('readonly');
  });

  it('learns that a full token may write, without changing anything', async () => {
    const before = server.snapshot();
    await addProfile('full');
    await value('connection:probe');
    expect((await value('profiles:list')).profiles[0]!.access).toBe('full');
    expect(server.snapshot()).toEqual(before);
  });

  it('refuses a second sync while one runs', async () => {
    await addProfile('full');
    await value('sync:start', {});
    const second = await call('sync:start', {});
    expect(second.ok ? null : second.error.code).toBe('busy');
    await finished();
  });

  it('lets a new sync replace one whose window went away (nothing acknowledged any more)', async () => {
    await addProfile('full');
    const gone = { emit: () => undefined };
    const first = await dispatch(handlers, 'sync:start', {}, gone, () => undefined);
    // busy until its pages have waited long enough, then replaced
    let second = await call('sync:start', {});
    for (let i = 0; i < 100 && !second.ok; i++) {
      expect(second.ok ? null : second.error.code).toBe('busy');
      await new Promise((r) => setTimeout(r, 50));
      second = await call('sync:start', {});
    }
    if (!first.ok || !second.ok) throw new Error('expected both syncs to start');
    expect(second.value.syncId).not.toBe((first.value as { syncId: string }).syncId);
    expect((await finished()).syncId).toBe(second.value.syncId);
  });

  it('asks for a profile before anything can be synced', async () => {
    const res = await call('sync:start', {});
    expect(res.ok ? null : res.error.code).toBe('no-profile');
  });

  it('fetches a user’s e-mails online', async () => {
    await addProfile('full');
    const userid = server.query<{ userid: number }>('SELECT userid FROM emails LIMIT 1')[0]!.userid;
    const detail = await value('users:detail', { userid });
    expect(detail.userid).toBe(userid);
    expect(detail.emails.length).toBeGreaterThan(0);
  });

  it('deletes a profile together with its keychain entry', async () => {
    const p = await addProfile('full');
    const state = await value('profiles:delete', { id: p.id });
    expect(state.profiles).toEqual([]);
    expect(keychain.entries.size).toBe(0);
  });

  it('says the keychain is missing and stores the token nowhere else', async () => {
    keychain.unavailableMessage = 'No Secret Service is running.';
    const res = await call('profiles:save', {
      name: 'North',
      baseUrl: server.baseUrl,
      token: tokenOf('full'),
    });
    expect(res.ok ? null : res.error).toEqual({
      code: 'keychain-unavailable',
      message: 'No Secret Service is running.',
    });
    const state = await value('profiles:list');
    expect(state.profiles).toEqual([]);
    expect(state.keychain).toEqual({ available: false, message: 'No Secret Service is running.' });
  });

  it('says saving a report as a PDF needs the desktop app when there is no printer (the harness)', async () => {
    const res = await call('report:savePdf', { pageSize: 'A4', fileName: 'Report' });
    expect(res.ok ? null : res.error).toEqual({
      code: 'rejected',
      message: 'Saving a PDF needs the desktop app. Here, use the print command of the browser.',
    });
  });

  it('replays an operation through the replay service', async () => {
    await addProfile('full');
    const user = server.query<{ userid: number; status: string }>(
      "SELECT userid, status FROM users WHERE status = 'Active' LIMIT 1",
    )[0]!;
    const outcome = await value('replay:execute', {
      opId: 'op-1',
      op: { kind: 'user.update', userid: user.userid, changes: { status: 'Inactive' } },
      base: { status: 'Active' },
      verifyFirst: false,
    });
    expect(outcome.status).toBe('done');
    expect(
      server.query<{ status: string }>('SELECT status FROM users WHERE userid = ?', user.userid)[0]!.status,
    ).toBe('Inactive');
  });
});

describe('replay:executeBatch', () => {
  const changeOf = (u: { userid: number }, i: number) => ({
    opId: `op-${i}`,
    op: { kind: 'user.update' as const, userid: u.userid, changes: { status: 'Inactive' } },
    base: { status: 'Active' },
    verifyFirst: false,
  });

  it('gives every op of the batch its outcome exactly once, streamed as replay:outcomes or with the answer', async () => {
    const { id: profileId } = await addProfile('full');
    const users = server.query<{ userid: number }>(
      "SELECT userid FROM users WHERE status = 'Active' AND siteid IN (101, 102) ORDER BY userid LIMIT 12",
    );
    expect(users.length).toBeGreaterThanOrEqual(10);
    const answer = await value('replay:executeBatch', {
      batchId: 'b1',
      profileId,
      requests: users.map(changeOf),
    });
    const streamed = events
      .filter((e) => e.event === 'replay:outcomes')
      .flatMap((e) => (e.payload as EventPayloads['replay:outcomes']).outcomes);
    const all = [...streamed, ...answer.outcomes];
    expect(all.map((o) => o.opId).sort()).toEqual(users.map((_, i) => `op-${i}`).sort());
    expect(all.every((o) => o.outcome.status === 'done')).toBe(true);
    for (const u of users)
      expect(
        server.query<{ status: string }>('SELECT status FROM users WHERE userid = ?', u.userid)[0]!.status,
      ).toBe('Inactive');
  });

  it('refuses a batch that is empty, too large, carries an unknown field or names an op twice, and sends nothing', async () => {
    const { id: profileId } = await addProfile('full');
    const writes = () => [...server.writeCounts().values()].reduce((sum, n) => sum + n, 0);
    const before = writes();
    const one = changeOf({ userid: 1 }, 0);
    const refused = [
      { batchId: 'b', profileId, requests: [] },
      {
        batchId: 'b',
        profileId,
        requests: Array.from({ length: 257 }, (_, i) => changeOf({ userid: 1 }, i)),
      },
      { batchId: 'b', profileId, requests: [one], extra: 1 },
      { batchId: 'b', profileId, requests: [{ ...one, extra: 1 }] },
      { batchId: 'b', profileId, requests: [one, { ...one, op: { ...one.op, userid: 2 } }] },
      { batchId: 'x'.repeat(101), profileId, requests: [one] },
      { batchId: 'b', requests: [one] },
    ];
    for (const arg of refused) {
      const res = await call('replay:executeBatch', arg as unknown as RequestArg<'replay:executeBatch'>);
      expect(res.ok ? 'accepted' : res.error.code, JSON.stringify(arg).slice(0, 80)).toBe('invalid-argument');
    }
    expect(writes()).toBe(before);
  });

  it('sends nothing of a profile that is no longer the active one: its ops wait for their own profile', async () => {
    const first = await addProfile('full');
    await value('profiles:activate', { id: (await addProfile('readonly')).id });
    const writes = () => [...server.writeCounts().values()].reduce((sum, n) => sum + n, 0);
    const before = writes();
    const answer = await value('replay:executeBatch', {
      batchId: 'b1',
      profileId: first.id,
      requests: [changeOf({ userid: 1 }, 0)],
    });
    expect(answer.outcomes).toEqual([
      { opId: 'op-0', outcome: { status: 'paused', error: expect.objectContaining({ code: 'cancelled' }) } },
    ]);
    expect(writes()).toBe(before);
  });
});
