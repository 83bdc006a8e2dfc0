/**
 * The plan of a profile keeping some sites, against a small fake API with two
 * sites: which routes it reads, what it sends to the renderer, and that its
 * request count is still the plan's own.
 */
import { describe, expect, it } from 'vitest';
import type {
  EventName,
  EventPayloads,
  PageFingerprint,
  SyncPageEvent,
  TaskCheckpoint,
} from '../../shared/ipc.ts';
import { ApiClient } from '../api/client.ts';
import { BASE_URL, fakeApi, tinySite, user, type FakeList } from '../testing/fake-api.ts';
import { SyncEngine } from './engine.ts';

/**
 * tinySite (site 1) and a second site, with site 1's per-site routes; a person of site 2 holds credential 7 (moved
 * there since).
 */
function twoSites(): Record<string, FakeList> {
  const lists = tinySite();
  lists['/sites']!.items.push({ siteid: 2, sitename: 'South', loginpage: '', links: [] });
  lists['/users']!.items.push(user(99, 2));
  lists['/sites/1/users'] = { wrapper: 'users', items: lists['/users']!.items.filter((u) => u.siteid === 1) };
  lists['/sites/2/users'] = { wrapper: 'users', items: lists['/users']!.items.filter((u) => u.siteid === 2) };
  lists['/sites/1/categories/credential/1/credentials'] = lists['/credentials']!;
  lists['/credentials/7/assignments']!.items.push({
    ...lists['/credentials/7/assignments']!.items[0]!,
    userid: 99,
    link: `${BASE_URL}/credentials/7/assignments/7-99`,
  });
  return lists;
}

async function syncKeeping(
  keptSites: number[] | undefined,
  checkpoints: TaskCheckpoint[] = [],
  again: { lists?: Record<string, FakeList>; fingerprints?: PageFingerprint[] } = {},
) {
  const api = fakeApi(again.lists ?? twoSites());
  // the site's users answer last: the holders' lists must wait for them, or they would not know whom to keep
  const fetch: typeof api.fetch = async (input, init) => {
    if (String(input).includes('/sites/1/users')) await new Promise((r) => setTimeout(r, 30));
    return api.fetch(input, init);
  };
  const client = new ApiClient({
    baseUrl: BASE_URL,
    token: 'tok-123456789',
    fetch,
    sleep: async () => undefined,
    maxRetries: 0,
  });
  const pages: SyncPageEvent[] = [];
  const emit = <E extends EventName>(event: E, payload: EventPayloads[E]) => {
    if (event !== 'sync:page') return;
    pages.push(payload as SyncPageEvent);
    setTimeout(() => engine.ack((payload as SyncPageEvent).pageId), 0);
  };
  const engine = new SyncEngine({
    syncId: 's1',
    client,
    emit,
    paging: { limit: 2, overlap: 0, maxWave: 4 },
    ...(keptSites ? { keptSites } : {}),
    checkpoints,
    ...(again.fingerprints ? { fingerprints: again.fingerprints } : {}),
  });
  const finished = await engine.run();
  const paths = [...new Set(api.requests.map((r) => r.url.pathname.replace(/^\/v1/, '')))];
  const records = (collection: string) =>
    pages
      .filter((p) => p.collection === collection)
      .flatMap((p) => p.records as unknown as Record<string, unknown>[]);
  /** what the renderer keeps of the pass's written pages, as it sends them to the next pass */
  const fingerprints = pages.flatMap((p): PageFingerprint[] =>
    p.kind === 'records' && p.fingerprint && p.fingerprint.hash !== null
      ? [{ taskId: p.taskId, ...p.fingerprint }]
      : [],
  );
  return { finished, paths, records, fingerprints, requests: api.requests.length };
}

describe('a profile keeping one site of two', () => {
  it("reads its users and credentials through the site, never the customer-wide lists, and of the other site only its users (for main's identity index)", async () => {
    const { finished, paths } = await syncKeeping([1]);
    // (the other site's lists would 404 in this fake API and fail the sync)
    expect(finished.outcome).toBe('completed');
    expect(paths).toContain('/sites/1/users');
    expect(paths).toContain('/sites/1/categories/credential/1/credentials');
    expect(paths).not.toContain('/users');
    expect(paths).not.toContain('/credentials');
    expect(paths.filter((p) => p.startsWith('/sites/2'))).toEqual(['/sites/2/users']);
  });

  it("sends only the kept site's people, and only their credential holdings", async () => {
    const { records } = await syncKeeping([1]);
    expect(records('sites').map((s) => s.siteid)).toEqual([1]);
    expect(
      records('users')
        .map((u) => u.userid)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5]);
    const holders = records('credentialAssignments');
    expect(holders.length).toBeGreaterThan(0);
    expect(holders.filter((a) => a.userid === 99)).toEqual([]);
  });

  it('a resumed pass reads the kept people again, so the holders it resumes are still theirs', async () => {
    const usersDone: TaskCheckpoint = {
      taskId: 'siteUsers:/sites/1/users',
      collection: 'users',
      nextStartrow: 99,
      done: true,
    };
    const { records, paths } = await syncKeeping([1], [usersDone]);
    expect(paths).toContain('/sites/1/users');
    expect(records('credentialAssignments').map((a) => a.userid)).toContain(1);
  });

  it('reads a holder list again when someone moved into the kept site, though the list itself did not change', async () => {
    const first = await syncKeeping([1]);
    // person 99 moves from site 2 to site 1: the credential's holders read the same as before
    const moved = twoSites();
    const users = moved['/users']!.items.map((u) => (u.userid === 99 ? { ...u, siteid: 1 } : u));
    moved['/users']!.items = users;
    moved['/sites/1/users'] = { wrapper: 'users', items: users.filter((u) => u.siteid === 1) };
    moved['/sites/2/users'] = { wrapper: 'users', items: [] };
    const again = await syncKeeping([1], [], { lists: moved, fingerprints: first.fingerprints });
    expect(again.records('credentialAssignments').filter((a) => a.userid === 99)).toHaveLength(1);
  });

  it("keeps the holdings of the site's people whose page was unchanged since the last sync", async () => {
    const first = await syncKeeping([1]);
    const before = first.records('credentialAssignments').length;
    // the site's users come back unchanged (keys only); the holder lists are read in full
    const usersOnly = first.fingerprints.filter((f) => !f.taskId.startsWith('keptCredentialAssignments'));
    const again = await syncKeeping([1], [], { fingerprints: usersOnly });
    expect(again.records('users')).toEqual([]);
    expect(again.records('credentialAssignments')).toHaveLength(before);
  });

  it('makes exactly as many requests as its plan counts', async () => {
    const { finished, requests } = await syncKeeping([1]);
    expect(finished.plannedRequests).toBe(requests);
  });

  it('keeping every site (no choice) reads the customer-wide lists as before', async () => {
    const { paths, records } = await syncKeeping(undefined);
    expect(paths).toContain('/users');
    expect(paths).toContain('/credentials');
    expect(paths).not.toContain('/sites/1/users');
    expect(records('credentialAssignments').some((a) => a.userid === 99)).toBe(true);
  });
});
