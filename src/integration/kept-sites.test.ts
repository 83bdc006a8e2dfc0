/**
 * A profile keeping one site of two: main's real handlers and sync engine, the
 * renderer's real sync controller and Dexie database (fake-indexeddb), over an
 * in-process IPC, against the reference server (`demo`, two sites). Nothing of
 * the other site reaches the renderer; the kept site's tables equal the
 * server's; records of the kept site deleted on the server go on a resync,
 * and a site no longer kept leaves the cache.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUR_CUSTOMER } from '../server/datasets.ts';
import { startServer, type RunningServer } from '../server/index.ts';
import { removeSiteRecords, unsentEditsOfSite, REMOVE_CHUNK } from '../renderer/sync/remove-site.ts';
import { statusOp } from '../shared/testing/test-ops.ts';
import type { Row } from '../server/testing/tables.ts';
import { expectCacheEqualsServer, openSession, syncToEnd, type Session } from './testing/session.ts';

const LIMIT = 100;

async function keep(session: Session, siteids: number[] | null): Promise<void> {
  const res = await session.api['profiles:setKeptSites']({ id: session.profileId, siteids });
  if (!res.ok) throw new Error(res.error.message);
}

describe('a profile keeping one site of two', () => {
  let server: RunningServer;
  let session: Session;
  let kept: number;
  let other: number;
  /** the other site's records, by what identifies them in any record */
  let otherUsers: Set<number>;
  let otherIds: {
    groups: Set<number>;
    courses: Set<number>;
    credentials: Set<number>;
    categories: Set<number>;
  };

  beforeAll(async () => {
    server = await startServer({ dataset: 'demo', port: 0 });
    [kept, other] = server
      .query<{ siteid: number }>(
        'SELECT siteid FROM sites WHERE customerid = ? ORDER BY siteid',
        OUR_CUSTOMER,
      )
      .map((s) => s.siteid) as [number, number];
    const ids = (sql: string) => new Set(server.query<{ id: number }>(sql, other).map((r) => r.id));
    otherUsers = ids('SELECT userid AS id FROM users WHERE siteid = ?');
    otherIds = {
      groups: ids('SELECT groupid AS id FROM profile_groups WHERE siteid = ?'),
      courses: ids('SELECT courseid AS id FROM courses WHERE siteid = ?'),
      categories: ids('SELECT categoryid AS id FROM credential_categories WHERE siteid = ?'),
      credentials: ids(
        'SELECT k.credentialid AS id FROM credentials k JOIN credential_categories c ON c.categoryid = k.categoryid WHERE c.siteid = ?',
      ),
    };
    session = await openSession(server, LIMIT);
    await keep(session, [kept]);
    await syncToEnd(session);
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('receives no record of the other site: not its site, people, groups, courses, credentials or anything they hold', () => {
    const leaks: string[] = [];
    for (const page of session.pages) {
      for (const r of page.records as unknown as Row[]) {
        const of = (field: string, set: Set<number>) => typeof r[field] === 'number' && set.has(r[field]);
        if (
          r.siteid === other ||
          of('userid', otherUsers) ||
          of('groupid', otherIds.groups) ||
          of('courseid', otherIds.courses) ||
          of('credentialid', otherIds.credentials)
        ) {
          leaks.push(`${page.collection} ${JSON.stringify(r).slice(0, 120)}`);
        }
      }
      for (const key of page.unchangedKeys ?? [])
        if (typeof key === 'number' && otherUsers.has(key)) leaks.push(`${page.collection} key ${key}`);
    }
    expect(session.pages.length).toBeGreaterThan(0);
    expect(leaks.slice(0, 5)).toEqual([]);
  });

  it("holds exactly the kept site's records, equal to the server's", async () => {
    await expectCacheEqualsServer(session, server, [kept]);
    expect(await session.db.users.where('siteid').equals(other).count()).toBe(0);
    expect(await session.db.users.count()).toBe(
      server.query('SELECT userid FROM users WHERE siteid = ?', kept).length,
    );
  });

  it('a record the server deleted at the kept site goes on the next sync; the other site stays out', async () => {
    const [gone] = server.query<{ credentialid: number; userid: number }>(
      'SELECT a.credentialid, a.userid FROM credential_assignments a JOIN users u ON u.userid = a.userid WHERE u.siteid = ? ORDER BY a.credentialid LIMIT 1',
      kept,
    );
    expect(await session.db.credentialAssignments.get(`${gone!.credentialid}-${gone!.userid}`)).toBeDefined();
    expect(
      server.mutate({
        resource: 'credentialAssignment',
        id: `${gone!.credentialid}-${gone!.userid}`,
        delete: true,
      }),
    ).toBe(true);
    await syncToEnd(session);
    expect(
      await session.db.credentialAssignments.get(`${gone!.credentialid}-${gone!.userid}`),
    ).toBeUndefined();
    await expectCacheEqualsServer(session, server, [kept]);
  });

  it('keeping both sites brings the other in; keeping one again takes it out', async () => {
    await keep(session, null);
    await syncToEnd(session);
    await expectCacheEqualsServer(session, server, [kept, other]);
    await keep(session, [kept]);
    await syncToEnd(session);
    await expectCacheEqualsServer(session, server, [kept]);
  });
});

describe('removing a site no longer kept from the cache', () => {
  let server: RunningServer;
  let session: Session;
  let kept: number;
  let other: number;

  beforeAll(async () => {
    server = await startServer({ dataset: 'demo', port: 0 });
    [kept, other] = server
      .query<{ siteid: number }>(
        'SELECT siteid FROM sites WHERE customerid = ? ORDER BY siteid',
        OUR_CUSTOMER,
      )
      .map((s) => s.siteid) as [number, number];
    session = await openSession(server, LIMIT);
    await syncToEnd(session);
    // a second pass, so the log has an entry (the first sync of a profile logs nothing)
    await syncToEnd(session);
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('refuses while the Outbox holds an unsent edit of one of its people, and removes nothing', async () => {
    const person = server.query<{ userid: number }>(
      'SELECT userid FROM users WHERE siteid = ? LIMIT 1',
      other,
    )[0]!.userid;
    const op = statusOp(person, 'Inactive');
    await session.db.outbox.add(op);
    expect((await unsentEditsOfSite(session.db, other)).map((o) => o.id)).toEqual([op.id]);
    expect(await unsentEditsOfSite(session.db, kept)).toEqual([]);
    const before = await session.db.users.count();
    await expect(removeSiteRecords(session.db, other)).rejects.toThrow(/unsent/);
    expect(await session.db.users.count()).toBe(before);
    await session.db.outbox.delete(op.id);
  });

  it("takes out its records, their fingerprints and their log entries; the kept site's stay equal to the server's", async () => {
    const otherUsers = new Set(
      server
        .query<{ userid: number }>('SELECT userid FROM users WHERE siteid = ?', other)
        .map((u) => u.userid),
    );
    // a log entry about one of its people, as a sync would have written
    await session.db.syncChanges.add({
      syncId: 'x',
      at: '2026-01-01T00:00:00Z',
      since: '2025-12-31T00:00:00Z',
      outcome: 'completed',
      counts: { 'person.added': 1 },
      changes: [{ k: 'person.added', u: [...otherUsers][0]! }],
      omitted: 0,
    });
    const chunks: number[] = [];
    const removed = await removeSiteRecords(session.db, other, (p) => chunks.push(p.removed));
    expect(removed).toBeGreaterThan(otherUsers.size);
    // no transaction deleted more than REMOVE_CHUNK rows
    expect(chunks.every((n, i) => n - (chunks[i - 1] ?? 0) <= REMOVE_CHUNK)).toBe(true);
    await expectCacheEqualsServer(session, server, [kept]);
    const logs = await session.db.syncChanges.toArray();
    expect(logs.flatMap((l) => l.changes).filter((c) => otherUsers.has(c.u) || c.s === other)).toEqual([]);
    const fingerprinted = (await session.db.pageFingerprints.toArray()).flatMap(
      (f) => JSON.parse(f.keys) as unknown[],
    );
    expect(fingerprinted.filter((k) => typeof k === 'number' && otherUsers.has(k))).toEqual([]);
  });

  it('keeping the kept site only, the next sync brings nothing back and removes nothing more', async () => {
    await keep(session, [kept]);
    await syncToEnd(session);
    await expectCacheEqualsServer(session, server, [kept]);
    const last = (await session.db.syncChanges.toArray()).at(-1)!;
    expect(last.changes.filter((c) => c.k === 'person.removed')).toEqual([]);
  });
});
