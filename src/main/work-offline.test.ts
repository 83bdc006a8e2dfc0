/**
 * "Work offline" as main enforces it, whatever the renderer asks: while it is
 * on, no request leaves for the profile (probe, sync, replay, a person's
 * details, the undo preview's read), queued operations are held rather than
 * failed, and it survives a restart. Turning it off sends again. And the demo's
 * "another admin", which only the demo profile may call.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventPayloads, Result } from '../shared/ipc.ts';
import { startServer, type RunningServer } from '../server/index.ts';
import { applyDemoScenario } from './demo-scenarios.ts';
import { createHandlers } from './handlers.ts';
import { testDispatcher } from './testing/dispatcher.ts';
import { MemoryKeychain } from './secrets/keychain.ts';

let server: RunningServer;
let dir: string;
let handlers: ReturnType<typeof createHandlers>;
let requests: string[];

const fullToken = () => server.tokens.find((t) => t.access === 'full')!.token;

function makeHandlers() {
  return createHandlers({
    settingsDir: dir,
    keychain: new MemoryKeychain(),
    fetch: (input, init) => {
      requests.push(String(input instanceof Request ? input.url : input));
      return globalThis.fetch(input, init);
    },
    demo: {
      start: async () => ({ baseUrl: server.baseUrl, token: fullToken() }),
      change: async (arg) => applyDemoScenario(server, arg),
    },
    sync: { limit: 10, stalledAfterMs: 50 },
    api: { maxRetries: 0 },
  });
}

beforeAll(async () => {
  server = await startServer({ dataset: 'tiny', port: 0 });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  if (handlers) await handlers.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = await mkdtemp(join(tmpdir(), 'fieldbook-offline-'));
  events.length = 0;
  requests = [];
  handlers = makeHandlers();
});

const { call, value, events } = testDispatcher(() => handlers);

const errorCode = async (res: Promise<Result<unknown>>) => {
  const answer = await res;
  return answer.ok ? 'accepted' : answer.error.code;
};

const activePerson = () =>
  server.query<{ userid: number; status: string }>(
    "SELECT userid, status FROM users WHERE status = 'Active' AND siteid = 101 ORDER BY userid LIMIT 1",
  )[0]!;

const statusChange = (userid: number) => ({
  opId: 'op-1',
  op: { kind: 'user.update' as const, userid, changes: { status: 'Inactive' } },
  base: { status: 'Active' },
  verifyFirst: false,
});

async function demoWorkingOffline() {
  const demo = await value('demo:start');
  await value('profiles:setWorkOffline', { id: demo.id, offline: true });
  requests.length = 0;
  return demo;
}

describe('working offline', () => {
  it('is off for a new profile, and on once asked, in the profile the renderer sees', async () => {
    const demo = await value('demo:start');
    expect(demo.workOffline).toBe(false);
    expect(await value('profiles:setWorkOffline', { id: demo.id, offline: true })).toMatchObject({
      id: demo.id,
      workOffline: true,
    });
    expect((await value('profiles:list')).profiles[0]).toMatchObject({ workOffline: true });
  });

  it('answers the connection probe with "offline on purpose" and sends nothing', async () => {
    const demo = await demoWorkingOffline();
    expect(await value('connection:probe')).toMatchObject({
      online: false,
      profileId: demo.id,
      workingOffline: true,
    });
    expect(events.filter((e) => e.event === 'connection:changed').at(-1)?.payload).toMatchObject({
      online: false,
      workingOffline: true,
    });
    expect(requests).toEqual([]);
  });

  it('refuses to start a sync, and fetches nothing', async () => {
    await demoWorkingOffline();
    const res = await call('sync:start', {});
    expect(res.ok ? null : res.error).toEqual({
      code: 'working-offline',
      message: expect.stringContaining('work offline'),
    });
    expect(requests).toEqual([]);
  });

  it('holds every op of a replay batch (paused, not failed) and the server sees no write', async () => {
    const demo = await demoWorkingOffline();
    const person = activePerson();
    const answer = await value('replay:executeBatch', {
      batchId: 'b1',
      profileId: demo.id,
      requests: [statusChange(person.userid)],
    });
    expect(answer.outcomes).toEqual([
      {
        opId: 'op-1',
        outcome: { status: 'paused', error: expect.objectContaining({ code: 'working-offline' }) },
      },
    ]);
    expect(await value('replay:execute', statusChange(person.userid))).toMatchObject({
      status: 'paused',
      error: { code: 'working-offline' },
    });
    expect(requests).toEqual([]);
    expect(activePerson().userid).toBe(person.userid);
  });

  it('refuses a person’s online details and the undo preview’s read', async () => {
    await demoWorkingOffline();
    const { userid } = activePerson();
    expect(await errorCode(call('users:detail', { userid }))).toBe('working-offline');
    expect(await errorCode(call('replay:read', { op: statusChange(userid).op }))).toBe('working-offline');
    expect(requests).toEqual([]);
  });

  it('stops a sync that is running when it is turned on', async () => {
    const demo = await value('demo:start');
    await value('sync:start', {});
    await value('profiles:setWorkOffline', { id: demo.id, offline: true });
    const finished = events.find((e) => e.event === 'sync:finished')?.payload as
      EventPayloads['sync:finished'] | undefined;
    expect(finished?.outcome).toBe('cancelled');
  });

  it('survives a restart of main: still offline, still nothing sent', async () => {
    await demoWorkingOffline();
    await handlers.dispose();
    handlers = makeHandlers();
    expect((await value('profiles:list')).profiles[0]).toMatchObject({ workOffline: true });
    expect(await value('connection:probe')).toMatchObject({ online: false, workingOffline: true });
    expect(await errorCode(call('sync:start', {}))).toBe('working-offline');
    expect(requests).toEqual([]);
  });

  it('when turned off, finds the site again and sends what waited', async () => {
    const demo = await demoWorkingOffline();
    const person = activePerson();
    await value('profiles:setWorkOffline', { id: demo.id, offline: false });
    expect(events.filter((e) => e.event === 'connection:changed').at(-1)?.payload).toMatchObject({
      online: true,
      profileId: demo.id,
    });
    const answer = await value('replay:executeBatch', {
      batchId: 'b2',
      profileId: demo.id,
      requests: [statusChange(person.userid)],
    });
    const outcomes = [
      ...events
        .filter((e) => e.event === 'replay:outcomes')
        .flatMap((e) => (e.payload as EventPayloads['replay:outcomes']).outcomes),
      ...answer.outcomes,
    ];
    expect(outcomes.map((o) => o.outcome.status)).toEqual(['done']);
    expect(
      server.query<{ status: string }>('SELECT status FROM users WHERE userid = ?', person.userid)[0]!.status,
    ).toBe('Inactive');
    server.mutate({ resource: 'user', id: person.userid, changes: { status: 'Active' } });
  });

  it('refuses a profile that does not exist', async () => {
    expect(await errorCode(call('profiles:setWorkOffline', { id: 'nobody', offline: true }))).toBe(
      'no-profile',
    );
  });
});

describe('the demo’s "another admin"', () => {
  it('is refused for any profile but the demo', async () => {
    await value('profiles:save', { name: 'Real site', baseUrl: server.baseUrl, token: fullToken() });
    const res = await call('demo:serverChange', { scenario: 'rename-people' });
    expect(res.ok ? null : res.error).toEqual({
      code: 'invalid-argument',
      message: 'Changes as another admin can be made on the demo site only.',
    });
  });

  it('renames two people on the demo server, even while working offline, and says who', async () => {
    await demoWorkingOffline();
    const before = server.snapshot().users;
    const change = await value('demo:serverChange', { scenario: 'rename-people' });
    const after = server.snapshot().users;
    const renamed = after.filter((u) => before.find((b) => b.userid === u.userid)!.lastname !== u.lastname);
    expect(renamed).toHaveLength(2);
    expect(change.changes).toEqual(
      renamed.map((u) =>
        expect.stringMatching(new RegExp(`^Renamed .+ to ${u.firstname} ${u.lastname}\\.$`)),
      ),
    );
    expect(requests).toEqual([]);
  });
});
