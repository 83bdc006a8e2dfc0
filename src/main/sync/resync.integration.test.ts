/**
 * A resync with page fingerprints against the real reference server (tiny
 * dataset, loopback, free port): a page whose body hashes as it did when the
 * renderer wrote it is sent as its keys only; a page holding a change is sent
 * in full; lists that create tasks are always read in full.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, EventPayloads, PageFingerprint, SyncPageEvent } from '../../shared/ipc.ts';
import { recordKey, type AnyRecord } from '../../shared/records.ts';
import { startServer, type RunningServer } from '../../server/index.ts';
import { ApiClient } from '../api/client.ts';
import { SyncEngine } from './engine.ts';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ dataset: 'tiny', port: 0 });
});
afterAll(async () => {
  await server?.close();
});

async function sync(fingerprints?: PageFingerprint[]) {
  const token = server.tokens.find((t) => t.access === 'full')!.token;
  const pages: SyncPageEvent[] = [];
  const client = new ApiClient({ baseUrl: server.baseUrl, token, maxRetries: 0 });
  const engine: SyncEngine = new SyncEngine({
    syncId: 'resync',
    client,
    paging: { limit: 7 },
    fingerprints,
    emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => {
      if (event !== 'sync:page') return;
      const page = payload as SyncPageEvent;
      pages.push(page);
      setImmediate(() => engine.ack(page.pageId));
    },
  });
  const finished = await engine.run();
  expect(finished.outcome).toBe('completed');
  return pages;
}

/** What the renderer would keep after writing these pages: each page's last hash. */
function fingerprintsOf(pages: readonly SyncPageEvent[]): PageFingerprint[] {
  const out: PageFingerprint[] = [];
  for (const p of pages) if (p.fingerprint?.hash) out.push({ taskId: p.taskId, startrow: p.fingerprint.startrow, hash: p.fingerprint.hash });
  return out;
}

/** The keys of `collection` the pages delivered, as records or as unchanged keys. */
function deliveredKeys(pages: readonly SyncPageEvent[], collection: string): Set<string | number> {
  const keys = new Set<string | number>();
  for (const p of pages) {
    if (p.collection !== collection) continue;
    for (const k of p.unchangedKeys ?? []) keys.add(k);
    for (const r of p.records as AnyRecord[]) keys.add(recordKey(p.collection, r as never));
  }
  return keys;
}

const usersPages = (pages: readonly SyncPageEvent[]) => pages.filter((p) => p.taskId.startsWith('users'));

describe('a resync with page fingerprints', () => {
  it('sends every page of an unchanged list as keys only, and the same keys as the full pass', async () => {
    const first = await sync();
    const again = await sync(fingerprintsOf(first));
    const users = usersPages(again);
    expect(users.length).toBeGreaterThan(2);
    expect(users.every((p) => p.unchangedKeys !== undefined && p.records.length === 0)).toBe(true);
    for (const collection of ['users', 'credentialAssignments', 'groupMembers', 'groupAccess', 'moduleAccess', 'courses', 'trainingAssignments']) {
      expect(deliveredKeys(again, collection)).toEqual(deliveredKeys(first, collection));
    }
  });

  it('sends in full only the pages that hold a changed record, with its new value', async () => {
    const first = await sync();
    const changed = (first.find((p) => p.collection === 'users' && p.records.length > 3)!.records as { userid: number }[])[2]!;
    expect(server.mutate({ resource: 'user', id: changed.userid, changes: { firstname: 'Renamed' } })).toBe(true);
    const again = await sync(fingerprintsOf(first));
    const full = usersPages(again).filter((p) => p.unchangedKeys === undefined && p.records.length > 0);
    // the record sits in one page, or two where pages overlap
    expect(full.length).toBeGreaterThanOrEqual(1);
    expect(full.length).toBeLessThanOrEqual(3);
    const arrived = full.filter((p) => p.collection === 'users').flatMap((p) => p.records as { userid: number; firstname: string }[]).find((u) => u.userid === changed.userid);
    expect(arrived?.firstname).toBe('Renamed');
    expect(usersPages(again).filter((p) => p.unchangedKeys !== undefined).length).toBeGreaterThan(0);
  });

  it('no longer delivers the key of a deleted record, so the pass prunes it', async () => {
    const first = await sync();
    const gone = (first.find((p) => p.collection === 'users' && p.records.length > 3)!.records as { userid: number }[])[1]!.userid;
    expect(server.mutate({ resource: 'user', id: gone, delete: true })).toBe(true);
    const again = await sync(fingerprintsOf(first));
    expect(deliveredKeys(again, 'users').has(gone)).toBe(false);
    expect(deliveredKeys(again, 'users').size).toBe(deliveredKeys(first, 'users').size - 1);
  });

  it('reads lists that create tasks or announce totals in full even when they did not change', async () => {
    const first = await sync();
    const again = await sync(fingerprintsOf(first));
    const planners = again.filter((p) => ['sites:', 'groups:', 'credentials:', 'modules:', 'profileCategories:', 'credentialCategories:'].some((k) => p.taskId.startsWith(k)));
    expect(planners.length).toBeGreaterThan(0);
    expect(planners.every((p) => p.unchangedKeys === undefined && p.fingerprint === undefined)).toBe(true);
  });

  it('sends a page in full when its fingerprint is another page\'s (same task, another start row)', async () => {
    const first = await sync();
    const prints = fingerprintsOf(first).filter((f) => f.taskId.startsWith('users'));
    // every page's hash moved one page on: none matches where it is now
    const shifted = prints.map((f, i) => ({ ...f, hash: prints[(i + 1) % prints.length]!.hash }));
    const again = await sync(shifted);
    expect(usersPages(again).some((p) => p.unchangedKeys !== undefined)).toBe(false);
  });
});
