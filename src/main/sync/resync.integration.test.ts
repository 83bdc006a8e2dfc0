/**
 * A resync with page fingerprints against the real reference server (tiny
 * dataset, loopback, free port): a page whose body hashes as it did when the
 * renderer wrote it is sent as its keys only; of a page holding a change only
 * the changed items travel as records; lists that create tasks are always read
 * in full.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventName, EventPayloads, PageFingerprint, SyncPageEvent } from '../../shared/ipc.ts';
import { recordKey, type AnyRecord } from '../../shared/records.ts';
import {
  FINGERPRINT_VERSION,
  fingerprintMessages,
  fingerprintText,
  ITEM_HASH_CHARS,
  pageKey,
} from '../../shared/page-fingerprints.ts';
import { startServer, type RunningServer } from '../../server/index.ts';
import { FIRST_SITE_ID } from '../../server/datasets.ts';
import { ApiClient } from '../api/client.ts';
import { SyncEngine } from './engine.ts';

/** The fingerprint a written page's last message carries, with its items (none on other messages). */
const written = (p: SyncPageEvent) =>
  p.kind === 'records' && p.fingerprint && p.fingerprint.hash !== null ? p.fingerprint : undefined;
/** The e-mails a message of users lists for them. */
const emailsListed = (p: SyncPageEvent) =>
  p.kind === 'records' && p.collection === 'users' ? (p.emailsListed ?? []) : [];

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ dataset: 'tiny', port: 0 });
});
afterAll(async () => {
  await server?.close();
});

/**
 * One pass; the fingerprints arrive as the renderer sends them: after the
 * start, whole tasks per message (small messages here, so there are many), the
 * last with their total. `total`: another total on the last message, or
 * 'never' for no last message (the lists wait `waitMs`, then go on).
 */
async function sync(
  fingerprints?: PageFingerprint[],
  options: {
    total?: number | 'never';
    waitMs?: number;
    sendWhen?: (asked: readonly URL[]) => boolean;
    sendAfterMs?: number;
    delayMs?: number;
    keptSites?: number[];
    on?: RunningServer;
  } = {},
) {
  const on = options.on ?? server;
  const token = on.tokens.find((t) => t.access === 'full')!.token;
  const pages: SyncPageEvent[] = [];
  const asked: URL[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    asked.push(new URL(input instanceof Request ? input.url : String(input)));
    if (options.delayMs)
      return new Promise((r) => setTimeout(r, options.delayMs)).then(() => globalThis.fetch(input, init));
    return globalThis.fetch(input, init);
  };
  const client = new ApiClient({ baseUrl: on.baseUrl, token, maxRetries: 0, fetch });
  const engine: SyncEngine = new SyncEngine({
    syncId: 'resync',
    client,
    paging: { limit: 7 },
    fingerprintsFollow: fingerprints !== undefined,
    fingerprintWaitMs: options.waitMs ?? 5_000,
    ...(options.keptSites ? { keptSites: options.keptSites } : {}),
    emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => {
      if (event !== 'sync:page') return;
      const page = payload as SyncPageEvent;
      pages.push(page);
      setImmediate(() => engine.ack(page.pageId));
    },
  });
  const running = engine.run();
  if (options.sendWhen) await vi.waitFor(() => expect(options.sendWhen!(asked)).toBe(true));
  if (options.sendAfterMs) await new Promise((r) => setTimeout(r, options.sendAfterMs));
  if (fingerprints) {
    // as the renderer does: the last message says how many there were (an empty one when there are none)
    const messages = fingerprintMessages(fingerprints.map(fingerprintText), 40);
    if (messages.length === 0) messages.push([]);
    for (const [i, message] of messages.entries()) {
      await new Promise((r) => setImmediate(r));
      const total = options.total ?? fingerprints.length;
      engine.addFingerprints(message, i === messages.length - 1 && total !== 'never' ? total : undefined);
    }
  }
  const finished = await running;
  expect(finished.outcome).toBe('completed');
  return pages;
}

/**
 * What the renderer would keep after writing these pages over `before`: each written page's items, unchanged pages' as
 * they were.
 */
function fingerprintsOf(
  pages: readonly SyncPageEvent[],
  before: readonly PageFingerprint[] = [],
): PageFingerprint[] {
  const kept = new Map(before.map((f) => [pageKey(f.taskId, f.startrow), f]));
  for (const p of pages) {
    if (!p.fingerprint) continue;
    const key = pageKey(p.taskId, p.fingerprint.startrow);
    const fp = written(p);
    if (fp) kept.set(key, { taskId: p.taskId, ...fp });
    else if (p.kind !== 'unchanged') kept.delete(key);
  }
  return [...kept.values()];
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
/** the pages a message stands for (one, or a run of unchanged ones) */
const pageCount = (messages: readonly SyncPageEvent[]) =>
  messages.reduce((n, p) => n + 1 + (p.kind === 'unchanged' ? (p.fingerprint.also?.length ?? 0) : 0), 0);

describe('a resync with page fingerprints', () => {
  it('sends every page of an unchanged list as keys only, and the same keys as the full pass', async () => {
    const first = await sync();
    const again = await sync(fingerprintsOf(first));
    const users = usersPages(again);
    expect(pageCount(users)).toBe(
      new Set(usersPages(first).map((p) => `${p.taskId} ${p.fingerprint?.startrow}`)).size,
    );
    expect(users.every((p) => p.unchangedKeys !== undefined && p.records.length === 0)).toBe(true);
    // a run of unchanged pages goes as one message, with the checkpoint of its last page
    expect(users.length).toBeLessThan(pageCount(users));
    expect(users.at(-1)!.checkpoint).toEqual(usersPages(first).at(-1)!.checkpoint);
    for (const collection of [
      'users',
      'credentialAssignments',
      'groupMembers',
      'groupAccess',
      'moduleAccess',
      'courses',
      'trainingAssignments',
    ]) {
      expect(deliveredKeys(again, collection)).toEqual(deliveredKeys(first, collection));
    }
  });

  it("of a page holding a changed record, sends that record alone with its new value, and the others' keys", async () => {
    const first = await sync();
    const changed = (
      first.find((p) => p.collection === 'users' && p.records.length > 3)!.records as { userid: number }[]
    )[2]!;
    expect(server.mutate({ resource: 'user', id: changed.userid, changes: { firstname: 'Renamed' } })).toBe(
      true,
    );
    const parse = vi.spyOn(JSON, 'parse');
    const again = await sync(fingerprintsOf(first));
    const parsed = parse.mock.calls.map(([text]) => text);
    parse.mockRestore();
    // the changed pages' items are found in their bytes: the changed ones alone are parsed (the user, and the
    // assignments and memberships that carry the name), no page whole
    expect(parsed.filter((t) => t.includes('"Renamed"')).every((t) => t.length < 1_000)).toBe(true);
    expect(parsed.some((t) => t.includes('"Renamed"'))).toBe(true);
    expect(parsed.filter((t) => t.startsWith('{"users":[{'))).toEqual([]);
    const users = usersPages(again).filter((p) => p.collection === 'users');
    const sent = users.flatMap((p) => p.records as { userid: number; firstname: string }[]);
    // the record sits in one page, or two where pages overlap; no other user travels
    expect(sent.map((u) => u.userid)).toEqual([changed.userid]);
    expect(sent[0]!.firstname).toBe('Renamed');
    // its e-mails travel with it (they are made from the same item), nobody else's
    const emails = usersPages(again)
      .filter((p) => p.collection === 'emails')
      .flatMap((p) => p.records as { userid: number }[]);
    expect(emails.every((e) => e.userid === changed.userid)).toBe(true);
    expect(deliveredKeys(again, 'users')).toEqual(deliveredKeys(first, 'users'));
    // the page carries its new fingerprint, which the next pass skips whole
    const third = await sync(fingerprintsOf(again, fingerprintsOf(first)));
    expect(usersPages(third).every((p) => p.unchangedKeys !== undefined && p.records.length === 0)).toBe(
      true,
    );
  });

  it('sends the unchanged pages held before a changed one first: checkpoints only move forward', async () => {
    const first = await sync();
    const userPages = first.filter((p) => p.taskId === 'users:/users' && p.collection === 'users');
    expect(userPages.length).toBeGreaterThan(4);
    const changed = (userPages[3]!.records as { userid: number }[])[0]!;
    expect(server.mutate({ resource: 'user', id: changed.userid, changes: { firstname: 'Middle' } })).toBe(
      true,
    );
    const again = (await sync(fingerprintsOf(first))).filter(
      (p) => p.taskId === 'users:/users' && p.collection === 'users',
    );
    const rows = again.map((p) => p.checkpoint.nextStartrow);
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
    const at = again.findIndex((p) => p.records.length > 0);
    // the three pages before it went as one message, before it
    expect(at).toBe(1);
    expect(pageCount(again.slice(0, at))).toBe(3);
    expect(again.at(-1)!.checkpoint.done).toBe(true);
  });

  it('compares again an item two pages remember differently (moved while it changed), even on a page that did not change', async () => {
    const first = await sync();
    const prints = fingerprintsOf(first);
    const users = prints.filter((f) => f.taskId.startsWith('users')).sort((a, b) => a.startrow - b.startrow);
    const [a, b] = [users[0]!, users[1]!];
    // page b also claims a's first item, with another hash
    const doubtful = a.keys[0]!;
    const forged = { ...b, keys: [...b.keys, doubtful], hashes: `${b.hashes}${'X'.repeat(ITEM_HASH_CHARS)}` };
    const again = await sync(prints.map((f) => (f === b ? forged : f)));
    const firstPage = again.find(
      (p) => p.taskId === a.taskId && p.fingerprint?.startrow === a.startrow && p.collection === 'users',
    )!;
    expect((firstPage.records as { userid: number }[]).map((u) => u.userid)).toEqual([doubtful]);
    expect(firstPage.unchangedKeys).toHaveLength(a.keys.length - 1);
  });

  it('no longer delivers the key of a deleted record, so the pass prunes it', async () => {
    const first = await sync();
    const gone = (
      first.find((p) => p.collection === 'users' && p.records.length > 3)!.records as { userid: number }[]
    )[1]!.userid;
    expect(server.mutate({ resource: 'user', id: gone, delete: true })).toBe(true);
    const again = await sync(fingerprintsOf(first));
    expect(deliveredKeys(again, 'users').has(gone)).toBe(false);
    expect(deliveredKeys(again, 'users').size).toBe(deliveredKeys(first, 'users').size - 1);
  });

  it('sends a user whose only e-mail was deleted with the e-mails their item lists now: none (the renderer removes it: emails.ts)', async () => {
    const first = await sync();
    const emails = first
      .filter((p) => p.collection === 'emails')
      .flatMap((p) => p.records as { emailid: number; userid: number }[]);
    const only = emails.find((e) => emails.filter((o) => o.userid === e.userid).length === 1)!;
    expect(server.mutate({ resource: 'email', id: only.emailid, delete: true })).toBe(true);
    const again = await sync(fingerprintsOf(first));
    const listed = usersPages(again).flatMap(emailsListed);
    expect(listed).toEqual([{ userid: only.userid, emailids: [] }]);
    // and a user listed with their e-mails on a first sync
    const firstListed = usersPages(first).flatMap(emailsListed);
    expect(firstListed.find((l) => l.userid === only.userid)?.emailids).toEqual([only.emailid]);
  });

  it('reads in full a page whose fingerprint another version of the code made, as if it had none', async () => {
    const first = await sync();
    const older = fingerprintsOf(first).map((f) => ({ ...f, version: FINGERPRINT_VERSION - 1 }));
    const again = await sync(older);
    expect(usersPages(again).some((p) => p.unchangedKeys !== undefined)).toBe(false);
    expect(
      usersPages(again)
        .filter((p) => p.collection === 'users')
        .flatMap((p): unknown[] => p.records),
    ).toHaveLength(deliveredKeys(first, 'users').size);
    // and it carries this version's fingerprint, which the next pass uses
    expect(
      usersPages(again)
        .map(written)
        .filter((fp) => fp !== undefined)
        .every((fp) => fp.version === FINGERPRINT_VERSION),
    ).toBe(true);
    const third = await sync(fingerprintsOf(again));
    expect(usersPages(third).every((p) => p.unchangedKeys !== undefined && p.records.length === 0)).toBe(
      true,
    );
  });

  it('reads lists that create tasks or announce totals in full even when they did not change', async () => {
    const first = await sync();
    const again = await sync(fingerprintsOf(first));
    const planners = again.filter((p) =>
      ['sites:', 'groups:', 'credentials:', 'modules:', 'profileCategories:', 'credentialCategories:'].some(
        (k) => p.taskId.startsWith(k),
      ),
    );
    expect(planners.length).toBeGreaterThan(0);
    expect(planners.every((p) => p.unchangedKeys === undefined && p.fingerprint === undefined)).toBe(true);
  });

  it("compares a page item by item when its body's hash is another page's (same task, another start row)", async () => {
    const first = await sync();
    const prints = fingerprintsOf(first).filter((f) => f.taskId.startsWith('users'));
    // every page's hash moved one page on: none matches where it is now
    const shifted = prints.map((f, i) => ({ ...f, hash: prints[(i + 1) % prints.length]!.hash }));
    const again = await sync(shifted);
    const users = usersPages(again).filter((p) => p.collection === 'users');
    // no page is taken as unchanged whole: each is written with its fingerprint again...
    expect(users.every((p) => written(p) !== undefined)).toBe(true);
    // ...yet its items are the cache's, so none travels
    expect(users.flatMap((p): unknown[] => p.records)).toEqual([]);
    expect(deliveredKeys(again, 'users')).toEqual(deliveredKeys(first, 'users'));
  });

  it("sends every item in full when the items' hashes are not the cache's", async () => {
    const first = await sync();
    const prints = fingerprintsOf(first).map((f) => ({
      ...f,
      hash: null,
      hashes: 'Z'.repeat(f.hashes.length),
    }));
    const again = await sync(prints);
    expect(deliveredKeys(again, 'users')).toEqual(deliveredKeys(first, 'users'));
    expect(usersPages(again).some((p) => p.unchangedKeys !== undefined)).toBe(false);
    expect(again.filter((p) => p.collection === 'users').flatMap((p): unknown[] => p.records)).toHaveLength(
      deliveredKeys(first, 'users').size,
    );
  });

  it('asks for the pages while the fingerprints are on their way, and uses them once they are here', async () => {
    const first = await sync();
    const again = await sync(fingerprintsOf(first), {
      sendWhen: (asked) => asked.some((url) => url.pathname.endsWith('/users')),
    });
    const users = usersPages(again);
    expect(pageCount(users)).toBeGreaterThan(1);
    expect(users.every((p) => p.records.length === 0 && p.unchangedKeys !== undefined)).toBe(true);
    expect(deliveredKeys(again, 'users')).toEqual(deliveredKeys(first, 'users'));
  });

  it('uses none of the fingerprints when the last message counts more than arrived (a message refused on the way)', async () => {
    const first = await sync();
    const prints = fingerprintsOf(first);
    const again = await sync(prints.slice(1), { total: prints.length });
    // every page travels in full, as on a first sync
    expect(again.some((p) => p.unchangedKeys !== undefined)).toBe(false);
    expect(deliveredKeys(again, 'users')).toEqual(deliveredKeys(first, 'users'));
  });

  it('uses none of the fingerprints that arrive after the wait for them ran out (the lists went on without)', async () => {
    const first = await sync();
    const prints = fingerprintsOf(first);
    // answers slow enough that most pages come after the late fingerprints
    const again = await sync(prints, { waitMs: 100, sendAfterMs: 300, delayMs: 60 });
    expect(again.some((p) => p.unchangedKeys !== undefined)).toBe(false);
    expect(deliveredKeys(again, 'users')).toEqual(deliveredKeys(first, 'users'));
  });

  it('waits for the last fingerprint message, and when it never comes, uses none', async () => {
    const first = await sync();
    const prints = fingerprintsOf(first);
    const started = Date.now();
    const again = await sync(prints, { total: 'never', waitMs: 300 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // every page travels in full, as on a first sync
    expect(again.some((p) => p.unchangedKeys !== undefined)).toBe(false);
    expect(deliveredKeys(again, 'users')).toEqual(deliveredKeys(first, 'users'));
  });
});

describe("a resync of a profile keeping some sites (its site's users and the holders among them)", () => {
  const KEPT = { keptSites: [FIRST_SITE_ID] };
  const siteUsersPages = (pages: readonly SyncPageEvent[]) =>
    pages.filter((p) => p.taskId.startsWith('siteUsers:'));
  const holders = (pages: readonly SyncPageEvent[]) =>
    [...deliveredKeys(pages, 'credentialAssignments')].sort();

  it('sends a kept person whose only e-mail was deleted with the e-mails their item lists now: none', async () => {
    const first = await sync(undefined, KEPT);
    const emails = first
      .filter((p) => p.collection === 'emails')
      .flatMap((p) => p.records as { emailid: number; userid: number }[]);
    const only = emails.find((e) => emails.filter((o) => o.userid === e.userid).length === 1)!;
    expect(
      siteUsersPages(first)
        .flatMap(emailsListed)
        .find((l) => l.userid === only.userid)?.emailids,
    ).toEqual([only.emailid]);
    expect(server.mutate({ resource: 'email', id: only.emailid, delete: true })).toBe(true);
    const again = await sync(fingerprintsOf(first), KEPT);
    expect(siteUsersPages(again).flatMap(emailsListed)).toEqual([{ userid: only.userid, emailids: [] }]);
  });

  it("sends the unchanged pages of its site's users as keys only, and still every holder among its people", async () => {
    const first = await sync(undefined, KEPT);
    const again = await sync(fingerprintsOf(first), KEPT);
    const users = siteUsersPages(again);
    expect(users.length).toBeGreaterThan(0);
    expect(users.every((p) => p.kind === 'unchanged')).toBe(true);
    expect(deliveredKeys(again, 'users')).toEqual(deliveredKeys(first, 'users'));
    expect(holders(again)).toEqual(holders(first));
    expect(holders(first).length).toBeGreaterThan(0);
  });
});

describe('a resync of the holders among the kept people (a profile keeping one site of two: the holder lists are customer-wide)', () => {
  let demo: RunningServer;
  beforeAll(async () => {
    demo = await startServer({ dataset: 'demo', port: 0 });
    // the dataset's holders are people of the credential's own site: some move to the other site, so the lists hold
    // both
    const movers = demo.query<{ userid: number }>(
      `SELECT DISTINCT a.userid FROM credential_assignments a JOIN users u ON u.userid = a.userid WHERE u.siteid = ? ORDER BY a.userid LIMIT 6`,
      FIRST_SITE_ID,
    );
    const otherSite = demo.query<{ siteid: number }>(
      'SELECT siteid FROM sites WHERE siteid <> ? AND siteid < 900 ORDER BY siteid LIMIT 1',
      FIRST_SITE_ID,
    )[0]!.siteid;
    for (const { userid } of movers)
      expect(demo.mutate({ resource: 'user', id: userid, changes: { siteid: otherSite } })).toBe(true);
  });
  afterAll(async () => {
    await demo?.close();
  });
  const KEPT = () => ({ keptSites: [FIRST_SITE_ID], on: demo });
  const holderPages = (pages: readonly SyncPageEvent[]) =>
    pages.filter((p) => p.taskId.startsWith('keptCredentialAssignments:'));
  const holderRecords = (pages: readonly SyncPageEvent[]) =>
    holderPages(pages).flatMap((p) => p.records as { userid: number; credentialid: number }[]);
  const holders = (pages: readonly SyncPageEvent[]) =>
    [...deliveredKeys(pages, 'credentialAssignments')].sort();
  const siteOf = (userid: number) =>
    demo.query<{ siteid: number }>('SELECT siteid FROM users WHERE userid = ?', userid)[0]!.siteid;
  /** the holders among the first site's people, as the server has them now */
  const serverHolders = () =>
    demo
      .query<{ id: string }>(
        `SELECT a.credentialid || '-' || a.userid AS id
     FROM credential_assignments a JOIN users u ON u.userid = a.userid
     JOIN credentials c ON c.credentialid = a.credentialid
     JOIN credential_categories k ON k.categoryid = c.categoryid WHERE u.siteid = ? AND k.siteid = ?`,
        FIRST_SITE_ID,
        FIRST_SITE_ID,
      )
      .map((r) => r.id)
      .sort();
  const userOf = (key: string | number) => Number(String(key).split('-')[1]);

  it('skips every unchanged holder page, delivers the same holders as the full pass, and no fingerprint names anyone of the other site', async () => {
    const first = await sync(undefined, KEPT());
    expect(holders(first)).toEqual(serverHolders());
    const again = await sync(fingerprintsOf(first), KEPT());
    expect(holderPages(again).length).toBeGreaterThan(0);
    expect(holderPages(again).every((p) => p.kind === 'unchanged')).toBe(true);
    expect(holders(again)).toEqual(holders(first));
    const listed = [...first, ...again].flatMap((p) =>
      p.taskId.startsWith('keptCredentialAssignments:') && p.kind === 'records'
        ? p.fingerprint && 'keys' in p.fingerprint
          ? p.fingerprint.keys
          : []
        : [],
    );
    expect(listed.length).toBeGreaterThan(0);
    expect(new Set(listed.map((k) => siteOf(userOf(k))))).toEqual(new Set([FIRST_SITE_ID]));
  });

  it("reads a page again when another site's holder on it changed, and sends nothing of it", async () => {
    const first = await sync(undefined, KEPT());
    const other = demo.query<{ credentialid: number; userid: number }>(
      `SELECT a.credentialid, a.userid FROM credential_assignments a JOIN users u ON u.userid = a.userid
       WHERE u.siteid <> ? AND u.siteid < 900
       AND a.credentialid IN (
         SELECT c.credentialid FROM credentials c JOIN credential_categories k ON k.categoryid = c.categoryid
         WHERE k.siteid = ?
       ) LIMIT 1`,
      FIRST_SITE_ID,
      FIRST_SITE_ID,
    )[0]!;
    expect(
      demo.mutate({
        resource: 'credentialAssignment',
        id: `${other.credentialid}-${other.userid}`,
        changes: { notes: 'changed elsewhere' },
      }),
    ).toBe(true);
    const again = await sync(fingerprintsOf(first), KEPT());
    expect(holderPages(again).some((p) => p.kind === 'records')).toBe(true);
    expect(holderRecords(again)).toEqual([]);
    expect(holders(again)).toEqual(serverHolders());
  });

  it('sends a kept holder whose record changed, alone', async () => {
    const first = await sync(undefined, KEPT());
    const [credentialid, userid] = holders(first)[0]!.toString().split('-').map(Number);
    expect(
      demo.mutate({
        resource: 'credentialAssignment',
        id: `${credentialid}-${userid}`,
        changes: { credentialnumber: 'RENEWED-1' },
      }),
    ).toBe(true);
    const again = await sync(fingerprintsOf(first), KEPT());
    expect(holderRecords(again).map((r) => `${r.credentialid}-${r.userid}`)).toEqual([
      `${credentialid}-${userid}`,
    ]);
    expect(holders(again)).toEqual(serverHolders());
  });

  it('delivers the holders of someone who moved to the kept site, and no longer those of someone who left it', async () => {
    const first = await sync(undefined, KEPT());
    const [comer] = demo.query<{ userid: number }>(
      `SELECT a.userid FROM credential_assignments a JOIN users u ON u.userid = a.userid
       JOIN credentials c ON c.credentialid = a.credentialid
       JOIN credential_categories k ON k.categoryid = c.categoryid
       WHERE u.siteid <> ? AND u.siteid < 900 AND k.siteid = ? LIMIT 1`,
      FIRST_SITE_ID,
      FIRST_SITE_ID,
    );
    const leaver = userOf(holders(first).at(-1)!);
    const otherSite = demo.query<{ siteid: number }>(
      'SELECT siteid FROM users WHERE siteid <> ? AND siteid < 900 LIMIT 1',
      FIRST_SITE_ID,
    )[0]!.siteid;
    expect(demo.mutate({ resource: 'user', id: comer!.userid, changes: { siteid: FIRST_SITE_ID } })).toBe(
      true,
    );
    expect(demo.mutate({ resource: 'user', id: leaver, changes: { siteid: otherSite } })).toBe(true);
    const again = await sync(fingerprintsOf(first), KEPT());
    const now = holders(again);
    expect(now).toEqual(serverHolders());
    expect(now.some((k) => userOf(k) === comer!.userid)).toBe(true);
    expect(now.some((k) => userOf(k) === leaver)).toBe(false);
    // the others' rows, cached as they were, travel as keys only
    expect(holderRecords(again).every((r) => r.userid === comer!.userid)).toBe(true);
  });
});
