import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { SyncFinishedEvent, SyncPageEvent } from '../../shared/ipc.ts';
import type { EmailRecord } from '../../shared/records.ts';
import { createSyncController } from './controller.ts';
import { createSyncStore } from './store.ts';
import { fakeApi } from '../testing/fake-api.ts';
import { freshDb, user } from '../testing/fixtures.ts';
import { schemas } from '../../shared/api/wire.ts';
import { listedEmailIds } from '../../shared/records.ts';
import { unlistedEmails } from './emails.ts';

const email = (emailid: number, userid: number, fromList?: true): EmailRecord => ({
  emailid,
  userid,
  email: `u${emailid}@example.org`,
  status: 'Active',
  isprimary: null,
  ...(fromList ? { fromList } : {}),
});

describe("a user's e-mails no longer listed", () => {
  it('are those of the listed users whose items do not name them', () => {
    const cached = [email(1, 10, true), email(2, 10, true), email(3, 11, true), email(4, 12, true)];
    expect(
      unlistedEmails(cached, [
        { userid: 10, emailids: [2] },
        { userid: 11, emailids: [] },
      ]),
    ).toEqual([1, 3]);
  });

  it('leave alone a user the message does not list (not read, or read with a bare address)', () => {
    expect(unlistedEmails([email(1, 10, true)], [{ userid: 11, emailids: [] }])).toEqual([]);
  });

  it('keep an e-mail read one user at a time while the list carries none for that user (a server whose list items carry no e-mails)', () => {
    expect(unlistedEmails([email(1, 10)], [{ userid: 10, emailids: [] }])).toEqual([]);
  });

  it('remove an e-mail read one user at a time when the list carries others of that user', () => {
    expect(unlistedEmails([email(1, 10), email(2, 10, true)], [{ userid: 10, emailids: [2] }])).toEqual([1]);
  });
});

describe('what a users list item says of its e-mails', () => {
  const item = (email: unknown[]) =>
    schemas.user.parse({
      userid: 1,
      siteid: 1,
      username: 'a',
      firstname: 'A',
      lastname: 'B',
      status: 'Active',
      email,
    });

  it('lists their ids, none when it carries none', () => {
    expect(
      listedEmailIds(
        item([
          { emailid: 5, email: 'a@b.c' },
          { emailid: '6', email: 'd@e.f' },
        ]),
      ),
    ).toEqual([5, 6]);
    expect(listedEmailIds(item([]))).toEqual([]);
  });

  it('says nothing when an e-mail is a bare address (no id to compare with)', () => {
    expect(listedEmailIds(item([{ emailid: 5, email: 'a@b.c' }, 'd@e.f']))).toBeNull();
  });
});

describe('a sync that re-reads a user whose e-mail the server dropped', () => {
  const TASK = 'users:/users';
  const checkpoint = (done: boolean) => ({
    taskId: TASK,
    collection: 'users' as const,
    nextStartrow: done ? 2 : 1,
    done,
  });
  const emailsPage = (syncId: string, pageId: number, records: EmailRecord[]): SyncPageEvent => ({
    kind: 'records',
    syncId,
    pageId,
    taskId: TASK,
    collection: 'emails',
    records,
    checkpoint: checkpoint(false),
  });
  const usersPage = (syncId: string, pageId: number, emailids: number[]): SyncPageEvent => ({
    kind: 'records',
    syncId,
    pageId,
    taskId: TASK,
    collection: 'users',
    records: [user(1)],
    checkpoint: checkpoint(true),
    emailsListed: [{ userid: 1, emailids }],
  });
  const finished = (syncId: string, outcome: SyncFinishedEvent['outcome']): SyncFinishedEvent => ({
    syncId,
    outcome,
    requests: 1,
    plannedRequests: null,
    collections: {
      users: { state: outcome === 'completed' ? 'complete' : 'failed', records: 1, pages: 1, total: null },
    },
  });

  function setup() {
    const fake = fakeApi();
    let n = 0;
    fake.respond('sync:start', () => ({ ok: true, value: { syncId: `sync-${++n}`, tasks: [] } }));
    fake.respond('sync:ack', () => ({ ok: true, value: null }));
    fake.respond('sync:fingerprints', () => ({ ok: true, value: null }));
    fake.respond('sync:cancel', () => ({ ok: true, value: null }));
    const db = freshDb();
    const store = createSyncStore();
    const controller = createSyncController(fake.api, db, store, () => new Date('2026-03-01T10:00:00Z'));
    const pass = async (
      syncId: string,
      pages: SyncPageEvent[],
      outcome: SyncFinishedEvent['outcome'] = 'completed',
    ) => {
      await controller.start();
      for (const p of pages) fake.emit('sync:page', p);
      fake.emit('sync:finished', finished(syncId, outcome));
      await controller.idle();
      return store.getState();
    };
    return { db, pass };
  }

  it('removes it with the user, and counts it removed', async () => {
    const { db, pass } = setup();
    await pass('sync-1', [
      emailsPage('sync-1', 1, [email(11, 1, true), email(12, 1, true)]),
      usersPage('sync-1', 2, [11, 12]),
    ]);
    expect(await db.emails.count()).toBe(2);
    const state = await pass('sync-2', [
      emailsPage('sync-2', 1, [email(11, 1, true)]),
      usersPage('sync-2', 2, [11]),
    ]);
    expect((await db.emails.toArray()).map((e) => e.emailid)).toEqual([11]);
    expect(state.rowsRemoved).toBe(1);
  });

  it('removes nothing while the pass stops before the user is written, though their other e-mails were', async () => {
    const { db, pass } = setup();
    await pass('sync-1', [
      emailsPage('sync-1', 1, [email(11, 1, true), email(12, 1, true)]),
      usersPage('sync-1', 2, [11, 12]),
    ]);
    await pass('sync-2', [emailsPage('sync-2', 1, [email(11, 1, true)])], 'cancelled');
    expect((await db.emails.toArray()).map((e) => e.emailid)).toEqual([11, 12]);
  });
});
