/**
 * Never create against an unknown cache, at a site kept later (issue 37): a
 * profile keeping one site of the reference server's `multi` dataset syncs it
 * in full, then keeps a second; that site's first sync stops before its
 * people are read (its list of people answers 503), after the sites
 * list has added it. A file naming someone of that site plans no create and
 * names the site; a sync that reads everyone lets the import find them.
 * Main's real handlers and sync engine, the renderer's real sync controller
 * and Dexie database (fake-indexeddb), over an in-process IPC.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OUR_CUSTOMER } from '../server/datasets.ts';
import { startServer, type RunningServer } from '../server/index.ts';
import { emailsByUser, planImport, type RowValues } from '../renderer/features/import/match.ts';
import { unknownCacheReason } from '../renderer/features/import/unknown-cache.ts';
import { openSession, syncToEnd, type Session } from './testing/session.ts';

interface Person {
  username: string;
  firstname: string;
  lastname: string;
}

/**
 * The file's rows planned on `siteid` as the import view plans them, with the cache's own word on whether it
 * knows everyone.
 */
async function preview(session: Session, siteid: number, rows: RowValues[]) {
  const reason = unknownCacheReason(
    await session.db.syncCollections.toArray(),
    false,
    await session.db.sites.toArray(),
  );
  const plans = planImport(
    rows.map((values, i) => ({ rowNumber: i + 2, values })),
    await session.db.users.toArray(),
    siteid,
    emailsByUser(await session.db.emails.toArray()),
    { key: 'username', mode: 'upsert', unknownCache: reason },
  );
  return { reason, plans };
}

describe('a site kept since, whose first sync stopped before its people were read', () => {
  let server: RunningServer;
  let session: Session;
  let first: number;
  let added: { siteid: number; sitename: string };
  let someone: Person;
  /** main cannot reach the added site's list of people while set */
  let peopleUnreachable = false;

  beforeAll(async () => {
    server = await startServer({ dataset: 'multi', port: 0 });
    const sites = server.query<{ siteid: number; sitename: string }>(
      'SELECT siteid, sitename FROM sites WHERE customerid = ? ORDER BY siteid',
      OUR_CUSTOMER,
    );
    first = sites[0]!.siteid;
    added = sites[1]!;
    someone = server.query<Person>(
      'SELECT username, firstname, lastname FROM users WHERE siteid = ? ORDER BY userid LIMIT 1',
      added.siteid,
    )[0]!;
    const fetchOfMain: typeof fetch = (input, init) =>
      peopleUnreachable &&
      String(input instanceof Request ? input.url : input).includes(`/sites/${added.siteid}/users`)
        ? Promise.resolve(new Response('', { status: 503 }))
        : fetch(input, init);
    session = await openSession(server, 100, undefined, undefined, fetchOfMain);
    await keep([first]);
    await syncToEnd(session);
    await keep([first, added.siteid]);
    peopleUnreachable = true;
    await session.controller.start();
    await vi.waitFor(() => expect(session.store.getState().running).toBe(false), { timeout: 120_000 });
    await session.controller.idle();
    peopleUnreachable = false;
  }, 240_000);
  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  async function keep(siteids: number[]): Promise<void> {
    const res = await session.api['profiles:setKeptSites']({ id: session.profileId, siteids });
    if (!res.ok) throw new Error(res.error.message);
  }

  it('holds the site (its sites list was read) but none of its people', async () => {
    expect(session.store.getState().finished?.collections.users?.state).toBe('failed');
    expect(await session.db.sites.get(added.siteid)).toBeDefined();
    expect(await session.db.users.where('siteid').equals(added.siteid).count()).toBe(0);
  });

  it('plans no create for a person of that site, saying the sync stopped before reading everyone there', async () => {
    const { reason, plans } = await preview(session, added.siteid, [{ ...someone }]);
    expect(reason).toBe(
      `The last sync stopped before it had read everyone at ${added.sitename}, so this laptop does not know who is already there`,
    );
    expect(plans[0]).toMatchObject({ action: 'skipped' });
    expect(plans[0]?.action === 'skipped' && plans[0].reason).toBe(
      `Not created: the last sync stopped before it had read everyone at ${added.sitename}, so this laptop does not know who is already there, and ${someone.firstname} ${someone.lastname} may already be there. Sync: the preview is made again when it ends.`,
    );
  });

  it('finds the person once a sync has read everyone there: nothing to create', async () => {
    // main may still be closing the pass that stopped (it writes the other sites' identities): "busy" until then
    await vi.waitFor(() => syncToEnd(session), { timeout: 120_000, interval: 200 });
    const { reason, plans } = await preview(session, added.siteid, [{ ...someone }]);
    expect(reason).toBeNull();
    expect(plans[0]).toMatchObject({ action: 'unchanged' });
  });
});
