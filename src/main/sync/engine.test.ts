import { describe, expect, it } from 'vitest';
import type {
  EventName,
  EventPayloads,
  SyncPageEvent,
  SyncProgress,
  TaskCheckpoint,
} from '../../shared/ipc.ts';
import { ApiClient } from '../api/client.ts';
import { json, statusBody } from '../testing/fake-fetch.ts';
import { SyncEngine, type SyncOptions } from './engine.ts';
import { BASE_URL, fakeApi, tinySite, type FakeApiOptions, type FakeList } from '../testing/fake-api.ts';

interface Run {
  engine: SyncEngine;
  pages: SyncPageEvent[];
  progress: SyncProgress[];
  requests: { url: URL }[];
}

function setup(
  lists: Record<string, FakeList>,
  opts: { api?: FakeApiOptions; sync?: Partial<SyncOptions>; autoAck?: boolean; ackDelayMs?: number } = {},
): Run {
  const api = fakeApi(lists, opts.api);
  const client = new ApiClient({
    baseUrl: BASE_URL,
    token: 'tok-123456789',
    fetch: api.fetch,
    sleep: async () => undefined,
    maxRetries: 1,
  });
  const pages: SyncPageEvent[] = [];
  const progress: SyncProgress[] = [];
  const run: Run = { engine: undefined as unknown as SyncEngine, pages, progress, requests: api.requests };
  const emit = <E extends EventName>(event: E, payload: EventPayloads[E]) => {
    if (event === 'sync:page') {
      const page = payload as SyncPageEvent;
      pages.push(page);
      if (opts.autoAck !== false) setTimeout(() => run.engine.ack(page.pageId), opts.ackDelayMs ?? 0);
    }
    if (event === 'sync:progress') progress.push(payload as SyncProgress);
  };
  run.engine = new SyncEngine({
    syncId: 's1',
    client,
    emit,
    paging: { limit: 2, overlap: 0, maxWave: 4 },
    ...opts.sync,
  });
  return run;
}

const recordsOf = (pages: SyncPageEvent[], collection: string) =>
  pages.filter((p) => p.collection === collection).flatMap((p) => p.records as unknown[]);

describe('a full sync', () => {
  it('fills every collection of the cache', async () => {
    const { engine, pages } = setup(tinySite());
    const finished = await engine.run();
    expect(finished.outcome).toBe('completed');
    expect(recordsOf(pages, 'users')).toHaveLength(5);
    expect(recordsOf(pages, 'emails')).toEqual([
      { emailid: 11, userid: 1, email: 'u1@example.com', status: 'Active', isprimary: null, fromList: true },
    ]);
    expect(recordsOf(pages, 'credentialAssignments')).toHaveLength(6);
    expect(recordsOf(pages, 'groupMembers')).toEqual([
      { id: '40-1', groupid: 40, userid: 1 },
      { id: '40-2', groupid: 40, userid: 2 },
    ]);
    expect(recordsOf(pages, 'groupAccess')).toEqual([{ id: '40-3', groupid: 40, userid: 3, siteid: 1 }]);
    expect(recordsOf(pages, 'moduleAccess')).toHaveLength(2);
    expect(recordsOf(pages, 'trainingAssignments')).toHaveLength(3);
    expect(Object.values(finished.collections).every((c) => c.state === 'complete')).toBe(true);
  });

  it('makes exactly as many requests as the plan counts', async () => {
    const { engine, requests } = setup(tinySite({ users: 9 }));
    const finished = await engine.run();
    expect(finished.requests).toBe(requests.length);
    expect(finished.plannedRequests).toBe(requests.length);
  });

  it('never asks a per-user route', async () => {
    const { engine, requests } = setup(tinySite());
    await engine.run();
    expect(requests.some((r) => /\/users\/\d+/.test(r.url.pathname))).toBe(false);
  });

  it('hands each list’s pages over in start-row order, the last one marked done', async () => {
    const { engine, pages } = setup(tinySite({ users: 9 }));
    await engine.run();
    const users = pages.filter((p) => p.collection === 'users');
    expect(users.map((p) => p.checkpoint.nextStartrow)).toEqual([3, 5, 7, 9, 11]);
    expect(users.at(-1)!.checkpoint.done).toBe(true);
  });

  it('works whether or not the last page carries a next link', async () => {
    for (const next of ['always', 'never', 'not-last'] as const) {
      const { engine, pages } = setup(tinySite({ users: 4 }), { api: { next } });
      await engine.run();
      expect(recordsOf(pages, 'users')).toHaveLength(4);
    }
  });

  it('reports N of M from the counts lists announce', async () => {
    const { engine, progress } = setup(tinySite());
    const finished = await engine.run();
    expect(finished.collections.credentialAssignments?.total).toBe(6);
    expect(finished.collections.groupMembers?.total).toBe(2);
    expect(progress.at(-1)!.total).toBeGreaterThan(0);
  });

  it('sends progress at most every 100 ms while pages stream, and the final counts last', async () => {
    // each page's answer takes 10 ms: 100 pages of two users, a second in all
    const { engine, pages, progress } = setup(tinySite({ users: 200 }), {
      api: { delayMs: 10 },
      sync: { concurrency: 1 },
    });
    const finished = await engine.run();
    const users = pages.filter((p) => p.collection === 'users');
    expect(users.length).toBeGreaterThanOrEqual(100);
    expect(progress.length).toBeLessThan(users.length / 3);
    expect(progress.at(-1)!.records).toBe(
      Object.values(finished.collections).reduce((n, c) => n + c.records, 0),
    );
    expect(progress.at(-1)!.phase).toBe('completed');
  });

  it('keeps every message under the size limit by splitting a large page', async () => {
    const lists = tinySite({ users: 4 });
    lists['/users']!.items = lists['/users']!.items.map((u) => ({ ...u, notes: 'x'.repeat(3_000) }));
    const { engine, pages } = setup(lists, { sync: { maxMessageBytes: 8_000 } });
    await engine.run();
    const users = pages.filter((p) => p.collection === 'users');
    expect(users.every((p) => Buffer.byteLength(JSON.stringify(p)) < 8_000)).toBe(true);
    expect(recordsOf(pages, 'users')).toHaveLength(4);
    // only the last chunk of a page moves the checkpoint on
    expect(users[0]!.checkpoint.nextStartrow).toBe(1);
    expect(users[1]!.checkpoint.nextStartrow).toBe(3);
  });

  it('keeps a message of users under the size limit with the e-mails their items list', async () => {
    // two users whose records fit one message together, but not with the ids of their 400 e-mails each
    const lists = tinySite({ users: 2 });
    const emails = (userid: number) =>
      Array.from({ length: 400 }, (_, i) => ({
        emailid: userid * 1_000_000 + i,
        email: `u${userid}.${i}@example.com`,
      }));
    lists['/users']!.items = lists['/users']!.items.map((u) => ({
      ...u,
      notes: 'x'.repeat(7_000),
      email: emails(u['userid'] as number),
    }));
    const { engine, pages } = setup(lists, {
      sync: { maxMessageBytes: 20_000, paging: { limit: 10, overlap: 0, maxWave: 4 } },
    });
    await engine.run();
    expect(pages.every((p) => Buffer.byteLength(JSON.stringify(p)) < 20_000)).toBe(true);
    const listed = pages.flatMap((p) =>
      p.kind === 'records' && p.collection === 'users' ? (p.emailsListed ?? []) : [],
    );
    expect(listed.map((l) => [l.userid, l.emailids.length])).toEqual([
      [1, 400],
      [2, 400],
    ]);
  });

  it('says a list is done only with the last message of its last page (a crash after the first would skip the rest)', async () => {
    const lists = tinySite({ users: 5 });
    lists['/users']!.items = lists['/users']!.items.map((u) => ({ ...u, notes: 'x'.repeat(3_000) }));
    const { engine, pages } = setup(lists, {
      sync: { maxMessageBytes: 8_000, paging: { limit: 3, overlap: 0, maxWave: 4 } },
    });
    await engine.run();
    const users = pages.filter((p) => p.collection === 'users');
    // the last page, rows 4 and 5, in two messages
    expect(users.map((p) => p.checkpoint)).toEqual([
      ...[1, 1, 4].map((nextStartrow) => expect.objectContaining({ nextStartrow, done: false })),
      expect.objectContaining({ nextStartrow: 4, done: false }),
      expect.objectContaining({ nextStartrow: 7, done: true }),
    ]);
  });

  it('gives a split page its fingerprint with its last message only: a pass stopped between them reads the page again', async () => {
    const lists = tinySite({ users: 5 });
    lists['/users']!.items = lists['/users']!.items.map((u) => ({ ...u, notes: 'x'.repeat(3_000) }));
    const { engine, pages } = setup(lists, {
      sync: { maxMessageBytes: 8_000, paging: { limit: 3, overlap: 0, maxWave: 4 } },
    });
    await engine.run();
    const users = pages.filter((p) => p.collection === 'users');
    // rows 1-3 in three messages, rows 4-5 in two: a message that is not its page's last says the page is half written
    const fingerprints = users.map((p) =>
      p.kind === 'records' && p.fingerprint
        ? [p.fingerprint.startrow, p.fingerprint.hash === null ? 'half' : 'whole']
        : null,
    );
    expect(fingerprints).toEqual([
      [1, 'half'],
      [1, 'half'],
      [1, 'whole'],
      [4, 'half'],
      [4, 'whole'],
    ]);
  });
});

describe('backpressure', () => {
  it('never has more than the window of pages unacknowledged', async () => {
    const { engine, pages } = setup(tinySite({ users: 20 }), { ackDelayMs: 3, sync: { maxUnacked: 3 } });
    await engine.run();
    expect(pages.length).toBeGreaterThan(10);
    expect(engine.peakUnacked).toBe(3);
  });

  it('waits for the renderer before sending more', async () => {
    const { engine, pages, requests } = setup(tinySite({ users: 20 }), {
      autoAck: false,
      sync: { maxUnacked: 2 },
    });
    const done = engine.run();
    // the engine reads ahead: once it has asked for more pages than it sent, an answer waits for the window
    while (pages.length < 2 || requests.length <= pages.length + 1 || !engine.stalled(0))
      await new Promise((r) => setTimeout(r, 1));
    // two pages' worth went (a list's short page weighs its share of a page)
    const sent = pages.length;
    expect(engine.peakUnacked).toBeGreaterThan(1);
    expect(engine.peakUnacked).toBeLessThanOrEqual(2);
    // answers are in that could be sent: nothing more is, until an acknowledgement arrives
    expect(pages).toHaveLength(sent);
    for (const page of pages) engine.ack(page.pageId);
    while (pages.length <= sent) await new Promise((r) => setTimeout(r, 1));
    engine.cancel();
    await done;
  });
});

describe('the sizes of the last pass', () => {
  const MODULE_USERS = '/sites/1/access/modules/3/users';
  const TASK = `moduleAccess:${MODULE_USERS}`;
  /** a site whose module list (no parent announces its size) holds `n` people */
  const withModuleUsers = (n: number) => {
    const lists = tinySite({ users: 20 });
    lists[MODULE_USERS] = { wrapper: 'users', items: lists['/users']!.items.slice(0, n) };
    return lists;
  };
  const asked = (requests: { url: URL }[]) =>
    requests.filter((r) => r.url.pathname === `/v1${MODULE_USERS}`).length;
  const people = (pages: SyncPageEvent[]) =>
    recordsOf(pages, 'moduleAccess').filter((r) => (r as { id: string }).id.startsWith('1-3-'));

  it('are the rows of each list read whole from its first row', async () => {
    const { engine } = setup(withModuleUsers(12));
    await engine.run();
    expect(engine.listSizes().get(TASK)).toBe(12);
    expect(engine.listSizes().get('users:/users')).toBe(20);
  });

  it('leave out a list resumed from its checkpoint (its rows are not the list’s)', async () => {
    const checkpoints: TaskCheckpoint[] = [
      { taskId: 'users:/users', collection: 'users', nextStartrow: 5, done: false },
    ];
    const { engine } = setup(withModuleUsers(12), { sync: { checkpoints } });
    await engine.run();
    expect(engine.listSizes().has('users:/users')).toBe(false);
    expect(engine.listSizes().get(TASK)).toBe(12);
  });

  it('size the paging of a list nobody announces: its pages through the window (7 requests, not the waves’ 8)', async () => {
    const first = setup(withModuleUsers(12));
    await first.engine.run();
    expect(asked(first.requests)).toBe(8);
    const again = setup(withModuleUsers(12), { sync: { listSizes: first.engine.listSizes() } });
    const finished = await again.engine.run();
    expect(asked(again.requests)).toBe(7);
    expect(people(again.pages)).toHaveLength(12);
    expect(finished.plannedRequests).toBe(again.requests.length);
  });

  it.each([
    ['grown', 17],
    ['shrunk', 5],
    ['emptied', 0],
  ])(
    'never what is read: a list that has %s since is read to its end, every row once',
    async (_what, now) => {
      const { engine, pages, requests } = setup(withModuleUsers(now), {
        sync: { listSizes: new Map([[TASK, 12]]) },
      });
      const finished = await engine.run();
      expect(finished.outcome).toBe('completed');
      expect(people(pages)).toHaveLength(now);
      expect(new Set(people(pages).map((r) => (r as { id: string }).id)).size).toBe(now);
      expect(finished.plannedRequests).toBe(requests.length);
    },
  );
});

describe('cancel and resume', () => {
  it('sends no page after cancel', async () => {
    const { engine, pages } = setup(tinySite({ users: 20 }), { autoAck: false, sync: { maxUnacked: 1 } });
    const done = engine.run();
    await new Promise((r) => setTimeout(r, 10));
    const before = pages.length;
    engine.cancel();
    const finished = await done;
    expect(finished.outcome).toBe('cancelled');
    expect(finished.plannedRequests).toBeNull();
    expect(pages.length).toBe(before);
  });

  it('resumes each list at its checkpoint and skips finished ones', async () => {
    const checkpoints: TaskCheckpoint[] = [
      { taskId: 'users:/users', collection: 'users', nextStartrow: 5, done: false },
      { taskId: 'courses:/sites/1/courses', collection: 'courses', nextStartrow: 3, done: true },
    ];
    const { engine, pages, requests } = setup(tinySite({ users: 7 }), { sync: { checkpoints } });
    const finished = await engine.run();
    const userStarts = requests
      .filter((r) => r.url.pathname === '/v1/users')
      .map((r) => r.url.searchParams.get('startrow'));
    expect(userStarts[0]).toBe('5');
    expect(recordsOf(pages, 'users').map((u) => (u as { userid: number }).userid)).toEqual([5, 6, 7]);
    expect(requests.some((r) => r.url.pathname === '/v1/sites/1/courses')).toBe(false);
    expect(finished.plannedRequests).toBe(requests.length);
  });

  it('reads lists that grow the plan again in full, so resumed children are still known', async () => {
    const checkpoints: TaskCheckpoint[] = [
      { taskId: 'credentials:/credentials', collection: 'credentials', nextStartrow: 3, done: true },
    ];
    const { engine, pages } = setup(tinySite(), { sync: { checkpoints } });
    await engine.run();
    expect(recordsOf(pages, 'credentialAssignments')).toHaveLength(6);
  });
});

describe('failures', () => {
  const denyModule3 = (req: { url: URL }) =>
    req.url.pathname === '/v1/sites/1/access/modules/3/users'
      ? json(401, statusBody(401, 800, 'not yours'))
      : null;

  it('reports an 800 on one module in that collection and syncs the rest', async () => {
    const { engine, pages } = setup(tinySite(), { api: { override: denyModule3 } });
    const finished = await engine.run();
    expect(finished.outcome).toBe('completed');
    expect(finished.collections.moduleAccess).toMatchObject({
      state: 'failed',
      error: { code: 'access-denied' },
    });
    expect(finished.collections.moduleAccess?.error?.message).toContain(
      'the users given Reports: view at North',
    );
    expect(finished.collections.users?.state).toBe('complete');
    expect(recordsOf(pages, 'moduleAccess')).toHaveLength(1);
  });

  it('marks what a failed parent list would have created as not synced', async () => {
    const denyGroups = (req: { url: URL }) =>
      req.url.pathname === '/v1/sites/1/access/groups' ? json(401, statusBody(401, 800)) : null;
    const { engine } = setup(tinySite(), { api: { override: denyGroups } });
    const finished = await engine.run();
    expect(finished.collections.groupMembers?.state).toBe('failed');
    expect(finished.collections.groupMembers?.error?.message).toContain('Not synced');
  });

  it('stops the whole sync with a clear error when the token is revoked mid-sync', async () => {
    let calls = 0;
    const revokeAfterThree = () => (++calls > 3 ? json(401, statusBody(401, 802, 'unknown token')) : null);
    const { engine } = setup(tinySite({ users: 20 }), { api: { override: revokeAfterThree } });
    const finished = await engine.run();
    expect(finished.outcome).toBe('failed');
    expect(finished.error?.code).toBe('token-rejected');
    expect(finished.plannedRequests).toBeNull();
  });

  it('calls no list it did not read to its end complete when a failure stops the sync (the cache keeps their last sync time)', async () => {
    let calls = 0;
    const revokeAfterThree = () => (++calls > 3 ? json(401, statusBody(401, 802, 'unknown token')) : null);
    const { engine, requests } = setup(tinySite({ users: 20 }), { api: { override: revokeAfterThree } });
    const finished = await engine.run();
    expect(finished.outcome).toBe('failed');
    // 20 people at 2 a page: three answers cannot hold them all
    expect(finished.collections.users?.state).toBe('failed');
    const complete = Object.entries(finished.collections)
      .filter(([, c]) => c.state === 'complete')
      .map(([name]) => name);
    const answered = requests.slice(0, 3).map((r) => r.url.pathname);
    // only a list whose one page came among the three answers may be complete: never one that was cut short
    for (const name of complete)
      expect(
        answered.some((path) => path.endsWith(name === 'sites' ? '/sites' : `/${name}`)),
        `${name} in ${answered.join(', ')}`,
      ).toBe(true);
    // each list cut short says so, in words, beside the failure said once above them
    expect(finished.collections.users?.error?.message).toBe(
      'Not synced: the sync stopped before this list was read to its end.',
    );
  });

  it('rejects a malformed page and stores nothing of it', async () => {
    const lists = tinySite({ users: 4 });
    lists['/users']!.items[2] = { ...lists['/users']!.items[2], userid: 'not-a-number' };
    const { engine, pages } = setup(lists);
    const finished = await engine.run();
    expect(finished.collections.users).toMatchObject({
      state: 'failed',
      error: { code: 'malformed-response' },
    });
    // page 1 (users 1-2) was fine; page 2 (users 3-4) was refused whole
    expect(recordsOf(pages, 'users').map((u) => (u as { userid: number }).userid)).toEqual([1, 2]);
  });

  it('stops when the network is lost, keeping the checkpoints of what was written', async () => {
    let calls = 0;
    const dropAfterFive = () => {
      if (++calls > 5)
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }),
        });
      return null;
    };
    const { engine } = setup(tinySite({ users: 20 }), { api: { override: dropAfterFive } });
    const finished = await engine.run();
    expect(finished.outcome).toBe('failed');
    expect(finished.error?.code).toBe('network');
  });
});

describe('an abandoned sync', () => {
  it('counts as stalled once every page slot has waited long enough for the renderer', async () => {
    let clock = 0;
    const { engine, pages } = setup(tinySite({ users: 20 }), {
      autoAck: false,
      sync: { maxUnacked: 2, now: () => clock },
    });
    const done = engine.run();
    while (pages.length < 2) await new Promise((r) => setTimeout(r, 1));
    expect(engine.stalled(15_000)).toBe(false);
    clock = 15_000;
    expect(engine.stalled(15_000)).toBe(true);
    engine.ack(pages[0]!.pageId);
    expect(engine.stalled(15_000)).toBe(false);
    engine.cancel();
    await done;
  });
});
