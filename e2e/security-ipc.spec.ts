/**
 * IPC fuzzing: every channel of the contract, called with wrong types, missing
 * fields, huge payloads and unknown names, straight at the harness's transport
 * (the page's equivalent of a compromised renderer). Each call is refused with a
 * clear error, and not one request reaches the API. A connection from a foreign
 * origin is refused before it can send anything.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHANNELS, type AppError } from '../src/shared/ipc.ts';
import { expect, test } from './fixtures.ts';
import { openBridge, type BridgeClient } from '../src/browser-mode/testing/ws-client.ts';

/** Not an object at all: wrong for every channel that takes an argument, and for those that take none. */
const WRONG_VALUES: unknown[] = [null, 0, -1, 1e308, 'x', '', true, [], [1, 2], [{}]];
/** An own "__proto__" key, as a hostile JSON message would carry it. */
const POLLUTING = JSON.parse(
  '{"__proto__": {"polluted": true}, "userid": -1, "id": "", "syncId": 7, "url": 7, "opId": ""}',
) as unknown;

/** Arguments that are almost right: each field of a plausible argument broken in turn. */
const ALMOST_RIGHT: Record<string, unknown[]> = {
  'profiles:list': [{}, POLLUTING],
  'demo:start': [{}, { start: true }],
  'connection:probe': [{}, { baseUrl: 'http://127.0.0.1:1/' }],
  'profiles:save': [
    {},
    POLLUTING,
    { name: 'x', token: 't' },
    { name: '', baseUrl: 'http://a', token: 't' },
    { name: 'x', baseUrl: 42, token: 't' },
    { name: 'x', baseUrl: 'http://a', token: 'x'.repeat(5000) },
  ],
  'profiles:delete': [{}, POLLUTING, { id: '' }, { id: 42 }, { id: 'x'.repeat(101) }],
  'profiles:activate': [{}, POLLUTING, { id: null }, { id: ['a'] }],
  'profiles:setWorkOffline': [
    {},
    POLLUTING,
    { id: 'p' },
    { id: 'p', offline: 'yes' },
    { id: '', offline: true },
    { id: 'p', offline: true, extra: 1 },
  ],
  'demo:serverChange': [
    {},
    POLLUTING,
    { scenario: 'drop-tables' },
    { scenario: 'rename-people', pending: [{ userid: -1 }] },
    { scenario: 'rename-people', pending: Array.from({ length: 21 }, (_, i) => ({ userid: i + 1 })) },
    { scenario: 'change-pending', pending: [{ userid: 1, status: 'x'.repeat(51) }] },
  ],
  'profiles:sites': [{}, POLLUTING, { id: '' }, { id: 7 }],
  'profiles:setKeptSites': [
    {},
    POLLUTING,
    { id: 'p' },
    { id: 'p', siteids: [] },
    { id: 'p', siteids: [0] },
    { id: 'p', siteids: ['101'] },
    { id: 'p', siteids: 'all' },
  ],
  // (every field of sync:start is optional and unknown keys are dropped, so only wrong values are wrong)
  'sync:start': [
    { concurrency: 0 },
    { concurrency: 17 },
    { checkpoints: [{ taskId: 't', collection: 'passwords', nextStartrow: 1, done: false }] },
    { checkpoints: 'all' },
    { fingerprintsFollow: false },
    { fingerprintsFollow: 'yes' },
  ],
  'sync:fingerprints': [
    {},
    POLLUTING,
    { syncId: 's', fingerprints: [{ taskId: 't', startrow: 0, hash: null, keys: [], hashes: '' }] },
    {
      syncId: 's',
      fingerprints: [
        { taskId: 't', startrow: 1, hash: null, keys: Array.from({ length: 1001 }, (_, i) => i), hashes: '' },
      ],
    },
    { syncId: 's', fingerprints: [{ taskId: 't', startrow: 1, hash: null, keys: [{}], hashes: 'aaaaaaaa' }] },
    { syncId: 's', fingerprints: [], total: -1 },
    { syncId: 's', fingerprints: [], total: 1.5 },
    // more items in one message than the budget
    {
      syncId: 's',
      fingerprints: Array.from({ length: 101 }, (_, i) => ({
        taskId: 't',
        startrow: i * 1000 + 1,
        hash: null,
        keys: Array.from({ length: 1000 }, (_, k) => k),
        hashes: 'a'.repeat(8000),
      })),
    },
  ],
  'sync:cancel': [{}, POLLUTING, { syncId: 42 }, { syncId: 'x'.repeat(101) }],
  'sync:ack': [
    {},
    POLLUTING,
    { syncId: 's', pageIds: [-1] },
    { syncId: 's', pageIds: [1.5] },
    { syncId: 's', pageIds: [] },
    { syncId: 's', pageIds: Array.from({ length: 1001 }, (_, i) => i) },
    { syncId: 's', pageId: 1 },
  ],
  'users:detail': [
    {},
    POLLUTING,
    { userid: -5 },
    { userid: '1' },
    { userid: 1.5 },
    { userid: Number.MAX_VALUE },
  ],
  'replay:execute': [
    {},
    POLLUTING,
    { opId: 'a', verifyFirst: false, op: { kind: 'user.delete', userid: 1 } },
    {
      opId: 'a',
      verifyFirst: false,
      op: { kind: 'user.update', userid: 1, changes: { status: 'x'.repeat(51) } },
    },
    { opId: '', verifyFirst: false, op: { kind: 'email.remove', userid: 1, emailid: 2 } },
    { opId: 'a', op: { kind: 'email.remove', userid: 1, emailid: 2 } },
  ],
  'replay:executeBatch': [
    {},
    POLLUTING,
    { batchId: 'b', profileId: 'p', requests: [] },
    {
      batchId: '',
      profileId: 'p',
      requests: [{ opId: 'a', verifyFirst: false, op: { kind: 'email.remove', userid: 1, emailid: 2 } }],
    },
    {
      batchId: 'b',
      profileId: 'p',
      requests: [{ opId: 'a', verifyFirst: false, op: { kind: 'email.remove', userid: 1, emailid: 2 } }],
      extra: true,
    },
    {
      batchId: 'b',
      profileId: 'p',
      requests: [{ opId: 'a', verifyFirst: false, op: { kind: 'user.delete', userid: 1 } }],
    },
    {
      batchId: 'b',
      profileId: 'p',
      requests: Array.from({ length: 257 }, (_, i) => ({
        opId: `o${i}`,
        verifyFirst: false,
        op: { kind: 'email.remove', userid: 1, emailid: 2 },
      })),
    },
    {
      batchId: 'b',
      profileId: 'p',
      requests: [0, 1].map(() => ({
        opId: 'same',
        verifyFirst: false,
        op: { kind: 'email.remove', userid: 1, emailid: 2 },
      })),
    },
    // no profile named: main would not know whose outbox the batch comes from
    {
      batchId: 'b',
      requests: [{ opId: 'a', verifyFirst: false, op: { kind: 'email.remove', userid: 1, emailid: 2 } }],
    },
    {
      batchId: 'b',
      profileId: '',
      requests: [{ opId: 'a', verifyFirst: false, op: { kind: 'email.remove', userid: 1, emailid: 2 } }],
    },
  ],
  'replay:read': [
    {},
    POLLUTING,
    { op: { kind: 'user.delete', userid: 1 } },
    { op: { kind: 'user.update', userid: -1, changes: {} } },
  ],
  'report:savePdf': [
    {},
    POLLUTING,
    { pageSize: 'A3', fileName: 'x' },
    { pageSize: 'A4', fileName: '' },
    { pageSize: 'A4', fileName: 'x'.repeat(201) },
  ],
  'identities:check': [
    {},
    POLLUTING,
    { usernames: [], emails: [] },
    { usernames: [''], emails: [], cachedSites: [] },
    { usernames: [], emails: [], cachedSites: [0] },
    { usernames: 'ann', emails: [], cachedSites: [] },
  ],
};

const NO_ARGUMENT = new Set(['profiles:list', 'demo:start', 'connection:probe']);

function expectRefused(result: unknown, codes: AppError['code'][], what: string): void {
  const answer = result as { ok: boolean; error?: AppError };
  expect(answer.ok, what).toBe(false);
  expect(codes, what).toContain(answer.error?.code);
  expect(answer.error?.message.length, what).toBeGreaterThan(10);
  expect(answer.error?.message, what).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/); // no stack trace
}

let client: BridgeClient;

test.beforeEach(async ({ harness, api, fullToken }) => {
  client = await openBridge(harness.origin, harness.origin, harness.key);
  // a real, active profile: a call that got through would reach the API
  const saved = (await client.call('profiles:save', {
    name: 'Fuzzed',
    baseUrl: api.baseUrl,
    token: fullToken,
  })) as { ok: boolean; value: { id: string } };
  expect(saved.ok).toBe(true);
  expect(((await client.call('profiles:activate', { id: saved.value.id })) as { ok: boolean }).ok).toBe(true);
  api.log.length = 0;
});

test.afterEach(() => client.close());

test('every channel refuses arguments of the wrong type or shape, and nothing reaches the API', async ({
  api,
}) => {
  let calls = 0;
  for (const channel of CHANNELS) {
    const cases = [...WRONG_VALUES, ...(ALMOST_RIGHT[channel] ?? [])];
    for (const arg of cases) {
      if (NO_ARGUMENT.has(channel) && arg === undefined) continue;
      expectRefused(
        await client.call(channel, arg),
        ['invalid-argument'],
        `${channel} ${JSON.stringify(arg)?.slice(0, 80)}`,
      );
      calls += 1;
    }
  }
  expect(calls).toBeGreaterThan(CHANNELS.length * WRONG_VALUES.length);
  expect(api.log).toEqual([]);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
});

test('every channel that takes an argument refuses a missing one', async ({ api }) => {
  for (const channel of CHANNELS.filter((name) => !NO_ARGUMENT.has(name))) {
    expectRefused(await client.call(channel), ['invalid-argument'], `${channel} with no argument`);
  }
  expect(api.log).toEqual([]);
});

test('huge payloads are refused whole', async ({ api }) => {
  expectRefused(
    await client.call('profiles:save', { name: 'x', baseUrl: 'http://a', token: 'x'.repeat(2_000_000) }),
    ['invalid-argument'],
    'a 2 MB token',
  );
  expectRefused(
    await client.call('users:detail', { userid: 1, padding: 'x'.repeat(1_500_000) }),
    ['invalid-argument'],
    'a 1.5 MB message',
  );
  const deep = `{"id": 999, "channel": "users:detail", "arg": ${'{"userid":'.repeat(5_000)}1${'}'.repeat(5_000)}}`;
  expectRefused(await client.raw(deep, 999), ['invalid-argument'], '5,000 levels of nesting');
  const manyCheckpoints = Array.from({ length: 100_001 }, (_, i) => ({
    taskId: `t${i}`,
    collection: 'users',
    nextStartrow: 1,
    done: false,
  }));
  expectRefused(
    await client.call('sync:start', { checkpoints: manyCheckpoints }),
    ['invalid-argument'],
    '100,001 checkpoints',
  );
  expect(api.log).toEqual([]);
});

test('unknown channels and unreadable messages are refused', async ({ api }) => {
  for (const channel of [
    'profiles:export',
    'token:get',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    '',
    42,
    null,
    ['sync:start'],
  ]) {
    expectRefused(await client.call(channel, {}), ['unknown-channel'], `channel ${JSON.stringify(channel)}`);
  }
  expectRefused(await client.raw('not json'), ['invalid-argument'], 'a message that is not JSON');
  expectRefused(
    await client.raw('{"channel":"profiles:list"}'),
    ['invalid-argument'],
    'a message without an id',
  );
  expectRefused(
    await client.raw('{"id":"7","channel":"profiles:list"}'),
    ['invalid-argument'],
    'a message with a text id',
  );
  expect(api.log).toEqual([]);
});

test('a connection from another origin is refused before it can send anything, even with the launch key', async ({
  harness,
  api,
}) => {
  for (const origin of [
    'http://evil.invalid',
    `http://127.0.0.1:${harness.port + 1}`,
    `http://localhost:${harness.port}`,
    'null',
    'app://fieldbook',
  ]) {
    await expect(openBridge(harness.origin, origin, harness.key), origin).rejects.toThrow(/403/);
  }
  expect(harness.refusedConnections()).toBe(5);
  expect(api.log).toEqual([]);
});

test('a local process forging the page’s Origin and Host without the launch key is refused', async ({
  harness,
  api,
}) => {
  await expect(openBridge(harness.origin, harness.origin)).rejects.toThrow(/403/);
  await expect(openBridge(harness.origin, harness.origin, 'x'.repeat(harness.key.length))).rejects.toThrow(
    /403/,
  );
  expect(harness.refusedConnections()).toBe(2);
  expect(api.log).toEqual([]);
});

test('a page of another origin cannot reach the transport', async ({ page, harness, api }) => {
  // a real page on another loopback origin tries the harness's WebSocket
  const elsewhere = http.createServer((_request, response) =>
    response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'),
  );
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', () => resolve()));
  try {
    await page.goto(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`);
    const outcome = await page.evaluate<string>(`new Promise((resolve) => {
      const socket = new WebSocket(${JSON.stringify(`ws://127.0.0.1:${harness.port}/__harness/ws`)});
      socket.onopen = () => resolve('open');
      socket.onerror = () => resolve('refused');
    })`);
    expect(outcome).toBe('refused');
    expect(harness.refusedConnections()).toBe(1);
    expect(api.log).toEqual([]);
  } finally {
    elsewhere.closeAllConnections();
    elsewhere.close();
  }
});
