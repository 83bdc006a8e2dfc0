/**
 * A full sync against the real reference server (tiny dataset, loopback,
 * free port): what arrives is what the server holds, the request count equals
 * the plan's, and the unhappy paths (revoked token, foreign record) end as a
 * user would expect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, EventPayloads, SyncPageEvent } from '../../shared/ipc.ts';
import { startServer, type RunningServer } from '../../server/index.ts';
import { ApiClient } from '../api/client.ts';
import { SyncEngine, type SyncOptions } from './engine.ts';

let server: RunningServer;
let fullToken: string;

beforeAll(async () => {
  server = await startServer({ dataset: 'tiny', port: 0 });
  fullToken = server.tokens.find((t) => t.access === 'full')!.token;
});
afterAll(async () => {
  await server?.close();
});

function tokenOf(access: string): string {
  return server.tokens.find((t) => t.access === access)!.token;
}

/** fetch that counts requests and lets a test rewrite the token of some of them */
function countingFetch(swapToken?: (url: URL, n: number) => string | null) {
  const urls: URL[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const url = new URL(String(input));
    urls.push(url);
    const replacement = swapToken?.(url, urls.length);
    if (replacement !== null && replacement !== undefined) {
      init = { ...init, headers: { ...(init?.headers as Record<string, string>), AccessToken: replacement } };
    }
    return globalThis.fetch(input, init);
  };
  return { fetch, urls };
}

async function sync(token: string, fetch: typeof globalThis.fetch, extra: Partial<SyncOptions> = {}) {
  const pages: SyncPageEvent[] = [];
  const client = new ApiClient({ baseUrl: server.baseUrl, token, fetch, maxRetries: 0 });
  const engine: SyncEngine = new SyncEngine({
    syncId: 'it',
    client,
    paging: { limit: 7 },
    emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => {
      if (event !== 'sync:page') return;
      const page = payload as SyncPageEvent;
      pages.push(page);
      setImmediate(() => engine.ack(page.pageId));
    },
    ...extra,
  });
  const finished = await engine.run();
  const ids = (collection: string) =>
    pages.filter((p) => p.collection === collection).flatMap((p) => p.records as object[]);
  return { finished, pages, ids, engine };
}

/** Users of the full token's customer, as the server holds them. */
function ourUserCount(): number {
  const customer = server.query<{ customerid: number }>(
    'SELECT customerid FROM sites ORDER BY siteid LIMIT 1',
  )[0]!.customerid;
  return server.query<{ n: number }>(
    'SELECT COUNT(*) AS n FROM users u JOIN sites s ON s.siteid = u.siteid WHERE s.customerid = ?',
    customer,
  )[0]!.n;
}

describe('full sync against the reference server', () => {
  it('brings every user, credential assignment and training assignment, each once', async () => {
    const { fetch, urls } = countingFetch();
    const { finished, ids } = await sync(fullToken, fetch);
    expect(finished.outcome).toBe('completed');
    const users = ids('users') as { userid: number }[];
    expect(new Set(users.map((u) => u.userid)).size).toBe(users.length);
    expect(users.length).toBe(ourUserCount());
    expect(ids('credentialAssignments').length).toBeGreaterThan(0);
    expect(ids('trainingAssignments').length).toBeGreaterThan(0);
    expect(ids('groupMembers').length).toBeGreaterThan(0);
    expect(finished.requests).toBe(urls.length);
    expect(finished.plannedRequests).toBe(urls.length);
    expect(Object.entries(finished.collections).filter(([, c]) => c.state !== 'complete')).toEqual([]);
  });

  it('stops with "token rejected" when the token is revoked mid-sync, and says so', async () => {
    const { fetch } = countingFetch((_url, n) => (n > 6 ? 'revoked-token-000000' : null));
    const { finished } = await sync(fullToken, fetch);
    expect(finished.outcome).toBe('failed');
    expect(finished.error).toMatchObject({ code: 'token-rejected', statuscode: 802 });
    expect(finished.error?.message).toMatch(/rejected/i);
  });

  it('reports a foreign record (800) in its collection and completes the rest', async () => {
    const foreign = tokenOf('other-customer');
    let denied = '';
    const { fetch } = countingFetch((url) => {
      if (!denied && /\/access\/modules\/\d+\/users$/.test(url.pathname)) denied = url.pathname;
      return url.pathname === denied ? foreign : null;
    });
    const { finished } = await sync(fullToken, fetch);
    expect(finished.outcome).toBe('completed');
    expect(finished.collections.moduleAccess).toMatchObject({
      state: 'failed',
      error: { code: 'access-denied', statuscode: 800 },
    });
    expect(finished.collections.users?.state).toBe('complete');
    expect(finished.collections.trainingAssignments?.state).toBe('complete');
  });

  it('with a feature-limited token, syncs what it may read and reports the other features as refused', async () => {
    const { fetch } = countingFetch();
    const { finished } = await sync(tokenOf('feature'), fetch);
    expect(finished.outcome).toBe('completed');
    expect(finished.collections.users?.state).toBe('complete');
    expect(finished.collections.moduleAccess).toMatchObject({
      state: 'failed',
      error: { code: 'access-denied' },
    });
    expect(finished.collections.moduleAccess?.records).toBeGreaterThan(0);
  });

  it('resumes a cancelled sync from its checkpoints without refetching finished pages', async () => {
    const first = countingFetch();
    let cancelled = false;
    const checkpoints = new Map<string, SyncPageEvent['checkpoint']>();
    const pages: SyncPageEvent[] = [];
    const client = new ApiClient({ baseUrl: server.baseUrl, token: fullToken, fetch: first.fetch });
    const engine: SyncEngine = new SyncEngine({
      syncId: 'first',
      client,
      paging: { limit: 3 },
      emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => {
        if (event !== 'sync:page') return;
        const page = payload as SyncPageEvent;
        pages.push(page);
        checkpoints.set(page.taskId, page.checkpoint);
        if (pages.length === 12 && !cancelled) {
          cancelled = true;
          engine.cancel();
        }
        setImmediate(() => engine.ack(page.pageId));
      },
    });
    expect((await engine.run()).outcome).toBe('cancelled');

    const second = countingFetch();
    const resumed = await sync(fullToken, second.fetch, {
      paging: { limit: 3 },
      checkpoints: [...checkpoints.values()],
    });
    expect(resumed.finished.outcome).toBe('completed');
    const users = [...pages, ...resumed.pages]
      .filter((p) => p.collection === 'users')
      .flatMap((p) => p.records as { userid: number }[]);
    expect(new Set(users.map((u) => u.userid)).size).toBe(ourUserCount());
    expect(resumed.finished.plannedRequests).toBe(second.urls.length);
    const usersCheckpoint = checkpoints.get('users:/users');
    const userStarts = second.urls
      .filter((u) => u.pathname.endsWith('/v1/users'))
      .map((u) => Number(u.searchParams.get('startrow')));
    if (usersCheckpoint?.done) expect(userStarts).toEqual([]);
    else expect(userStarts[0]).toBe(usersCheckpoint?.nextStartrow ?? 1);
  });

  it('syncs a site full of hostile text (markup, formulas, odd values) without refusing a page', async () => {
    const hostile = await startServer({ dataset: 'tiny', port: 0, hostile: true });
    try {
      const token = hostile.tokens.find((t) => t.access === 'full')!.token;
      const client = new ApiClient({ baseUrl: hostile.baseUrl, token, maxRetries: 0 });
      const engine: SyncEngine = new SyncEngine({
        syncId: 'hostile',
        client,
        emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => {
          if (event === 'sync:page') setImmediate(() => engine.ack((payload as SyncPageEvent).pageId));
        },
      });
      const finished = await engine.run();
      expect(Object.entries(finished.collections).filter(([, c]) => c.state !== 'complete')).toEqual([]);
    } finally {
      await hostile.close();
    }
  });

  it('loses no user when one is deleted on the server between two pages', async () => {
    const shifting = await startServer({ dataset: 'tiny', port: 0 });
    try {
      const token = shifting.tokens.find((t) => t.access === 'full')!.token;
      const ourUsers = () =>
        shifting.query<{ userid: number }>(
          'SELECT u.userid FROM users u JOIN sites s ON s.siteid = u.siteid WHERE s.customerid = (SELECT customerid FROM sites ORDER BY siteid LIMIT 1) ORDER BY u.userid',
        );
      const [, second] = ourUsers();
      let deleted = false;
      // after the first page of users has left the server, delete its second user: everyone after it moves one row up
      const fetch: typeof globalThis.fetch = async (input, init) => {
        const response = await globalThis.fetch(input, init);
        const url = new URL(String(input));
        if (!deleted && url.pathname.endsWith('/v1/users')) {
          deleted = shifting.mutate({ resource: 'user', id: second!.userid, delete: true });
        }
        return response;
      };
      const client = new ApiClient({ baseUrl: shifting.baseUrl, token, fetch, maxRetries: 0 });
      const users: number[] = [];
      const engine: SyncEngine = new SyncEngine({
        syncId: 'shift',
        client,
        paging: { limit: 8, overlap: 2, maxWave: 1 },
        emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => {
          if (event !== 'sync:page') return;
          const page = payload as SyncPageEvent;
          if (page.collection === 'users') users.push(...page.records.map((u) => u.userid));
          setImmediate(() => engine.ack(page.pageId));
        },
      });
      await engine.run();
      expect(deleted).toBe(true);
      expect(new Set(users).size).toBe(users.length);
      expect(users.filter((id) => id !== second!.userid).sort((a, b) => a - b)).toEqual(
        ourUsers().map((u) => u.userid),
      );
    } finally {
      await shifting.close();
    }
  });
});
