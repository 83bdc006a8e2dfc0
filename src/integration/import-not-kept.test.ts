/**
 * The import's uniqueness checks with some sites kept (issue 28): a profile
 * keeping 2 of the 6 sites of the reference server's `multi` dataset, main's
 * real handlers and sync engine, the renderer's real sync controller and
 * Dexie database (fake-indexeddb), over an in-process IPC. A file holding the
 * username or e-mail of someone at a site not kept plans no create for it and
 * names that site; the index stays right when kept sites change, and a sync
 * refreshes it. Nothing of the other sites' people reaches the renderer.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUR_CUSTOMER } from '../server/datasets.ts';
import { startServer, type RunningServer } from '../server/index.ts';
import { removeSiteRecords } from '../renderer/sync/remove-site.ts';
import { emailsByUser, planImport, type RowPlan, type RowValues } from '../renderer/features/import/match.ts';
import { askSitesNotKept } from '../renderer/features/import/not-kept.ts';
import { openSession, syncToEnd, type Session } from './testing/session.ts';

const LIMIT = 100;

interface Person {
  userid: number;
  siteid: number;
  username: string;
  email: string;
  sitename: string;
}

async function keep(session: Session, siteids: number[] | null): Promise<void> {
  const res = await session.api['profiles:setKeptSites']({ id: session.profileId, siteids });
  if (!res.ok) throw new Error(res.error.message);
}

/**
 * The file's rows planned on `siteid` as the import view plans them: the cache, and main's answer for the sites the
 * cache does not hold.
 */
async function preview(session: Session, siteid: number, rows: RowValues[]): Promise<RowPlan[]> {
  const importRows = rows.map((values, i) => ({ rowNumber: i + 2, values }));
  const cachedSites = (await session.db.sites.toArray()).map((s) => s.siteid);
  const notKept = (await askSitesNotKept(session.api, importRows, cachedSites))!;
  return planImport(
    importRows,
    await session.db.users.toArray(),
    siteid,
    emailsByUser(await session.db.emails.toArray()),
    { key: 'username', mode: 'upsert', notKept },
  );
}

const newPerson = (username: string, email?: string): RowValues => ({
  username,
  firstname: 'Ana',
  lastname: 'Silva',
  ...(email ? { email } : {}),
});
const reasonsOf = (p: RowPlan | undefined) =>
  p?.action === 'conflict' ? p.reasons.join(' ') : `(${p?.action})`;

describe('importing with 2 of 6 sites kept', () => {
  let server: RunningServer;
  let session: Session;
  let sites: { siteid: number; sitename: string }[];
  let kept: [number, number];
  /** main's clock: the other sites' people are read again once their entries are 12 hours old */
  let clock = new Date('2026-11-27T08:00:00Z');
  /** someone with an e-mail at each site, by site id */
  const someone = new Map<number, Person>();

  beforeAll(async () => {
    server = await startServer({ dataset: 'multi', port: 0 });
    sites = server.query<{ siteid: number; sitename: string }>(
      'SELECT siteid, sitename FROM sites WHERE customerid = ? ORDER BY siteid',
      OUR_CUSTOMER,
    );
    for (const s of sites) {
      const [p] = server.query<Omit<Person, 'sitename'>>(
        'SELECT u.userid, u.siteid, u.username, e.email FROM users u JOIN emails e ON e.userid = u.userid WHERE u.siteid = ? ORDER BY u.userid LIMIT 1',
        s.siteid,
      );
      someone.set(s.siteid, { ...p!, sitename: s.sitename });
    }
    kept = [sites[0]!.siteid, sites[1]!.siteid];
    session = await openSession(server, LIMIT, () => clock);
    await keep(session, kept);
    await syncToEnd(session);
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  const at = (index: number) => someone.get(sites[index]!.siteid)!;

  it('plans no create for a username of a site not kept, naming that site in words', async () => {
    const other = at(3);
    const [row, free] = await preview(session, kept[0], [
      newPerson(other.username.toUpperCase()),
      newPerson('nobody.anywhere.28'),
    ]);
    expect(row).toMatchObject({ action: 'conflict' });
    expect(reasonsOf(row)).toContain(
      `${other.username.toUpperCase()} is already a user at ${other.sitename}, a site not kept on this laptop`,
    );
    expect(free).toMatchObject({ action: 'create' });
  });

  it('plans no create for an e-mail of a site not kept', async () => {
    const other = at(5);
    const [row] = await preview(session, kept[0], [newPerson('nobody.anywhere.28', other.email)]);
    expect(reasonsOf(row)).toContain(
      `${other.email} is already the e-mail of a user at ${other.sitename}, a site not kept on this laptop`,
    );
  });

  it("receives no record of those people: the check's answers name only the values asked and a site", async () => {
    const others = new Set(
      server
        .query<{ userid: number }>(`SELECT userid FROM users WHERE siteid NOT IN (${kept.join(',')})`)
        .map((u) => u.userid),
    );
    const leaked = session.pages
      .flatMap((p) => p.records as unknown as { userid?: number }[])
      .filter((r) => typeof r.userid === 'number' && others.has(r.userid));
    expect(leaked).toEqual([]);
    expect(await session.db.users.where('siteid').anyOf(kept).count()).toBe(await session.db.users.count());
  });

  it('a kept site taken off this laptop is checked by the index at once, with no sync in between', async () => {
    const dropped = at(1);
    await removeSiteRecords(session.db, kept[1]);
    await keep(session, [kept[0]]);
    const [row] = await preview(session, kept[0], [newPerson(dropped.username)]);
    expect(reasonsOf(row)).toContain(
      `is already a user at ${dropped.sitename}, a site not kept on this laptop`,
    );
  });

  it('a site added is checked by the index until its sync, then by the cache (its person is named)', async () => {
    const added = at(2);
    await keep(session, [kept[0], added.siteid]);
    const [before] = await preview(session, kept[0], [newPerson(added.username)]);
    expect(reasonsOf(before)).toContain(
      `is already a user at ${added.sitename}, a site not kept on this laptop`,
    );
    await syncToEnd(session);
    const [after] = await preview(session, kept[0], [newPerson(added.username)]);
    expect(reasonsOf(after)).toContain('on another site');
    expect(reasonsOf(after)).not.toContain('not kept');
  });

  it('a sync refreshes the index once it is 12 hours old: a username renamed at a site not kept is then free, its new one taken', async () => {
    const other = at(4);
    const renamed = `${other.username}.renamed`;
    expect(server.mutate({ resource: 'user', id: other.userid, changes: { username: renamed } })).toBe(true);
    // an hour later the other sites are not read again: the index still has the old name
    clock = new Date(clock.getTime() + 60 * 60 * 1000);
    await syncToEnd(session);
    const [stillTaken] = await preview(session, kept[0], [newPerson(other.username)]);
    expect(reasonsOf(stillTaken)).toContain(`${other.username} is already a user at ${other.sitename}`);
    clock = new Date(clock.getTime() + 12 * 60 * 60 * 1000);
    await syncToEnd(session);
    const [oldName, newName] = await preview(session, kept[0], [
      newPerson(other.username),
      newPerson(renamed),
    ]);
    expect(oldName).toMatchObject({ action: 'create' });
    expect(reasonsOf(newName)).toContain(`${renamed} is already a user at ${other.sitename}`);
  });
});

describe('a profile keeping some sites that has not synced since', () => {
  let server: RunningServer;
  let session: Session;

  beforeAll(async () => {
    server = await startServer({ dataset: 'multi', port: 0 });
    session = await openSession(server, LIMIT);
  }, 60_000);
  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('queues no new person, saying the other sites are not known here yet; nothing is lost (the rows are listed as skipped)', async () => {
    const [first] = server.query<{ siteid: number }>(
      'SELECT siteid FROM sites WHERE customerid = ? ORDER BY siteid LIMIT 1',
      OUR_CUSTOMER,
    );
    await keep(session, [first!.siteid]);
    const [row] = await preview(session, first!.siteid, [newPerson('nobody.anywhere.28')]);
    expect(row).toMatchObject({ action: 'skipped' });
    expect(row?.action === 'skipped' && row.reason).toContain(
      'Not queued: the usernames and e-mails of the sites not kept on this laptop are not known here until a sync has read them',
    );
  });
});
