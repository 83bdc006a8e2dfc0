import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { ReplayBatchResult, ReplayRequest, Result } from '../../shared/ipc.ts';
import { fakeApi } from '../testing/fake-api.ts';
import { SAMPLE_OPS } from '../testing/op-samples.ts';
import { outboxStore, queueDrafts } from '../outbox/runtime.ts';
import { openFieldbookDb } from '../db/index.ts';
import { openProfileSession, type ProfileSession } from './profile-session.ts';
import { profileStore } from './profile-stores.ts';

const noOpenError = { onOpenError: () => undefined };
const profile = (id: string) => ({ id, name: `Coordinator of ${id}` });

describe("a profile's session", () => {
  it("opens the profile's own cache", async () => {
    const session = openProfileSession(fakeApi().api, profile('p1'), noOpenError);
    await session.db.open();
    expect(session.db.name).toBe('fieldbook-p1');
    expect(session.outboxDb.name).toBe('fieldbook-p1');
    session.dispose();
  });

  it('closes both instances of its cache once the sync has written what it received', async () => {
    const session = openProfileSession(fakeApi().api, profile('p2'), noOpenError);
    await session.db.open();
    await session.outbox.opened;
    session.dispose();
    await session.ended;
    expect(session.db.isOpen()).toBe(false);
    expect(session.outboxDb.isOpen()).toBe(false);
  });

  it('puts a profile store back as it was made when it ends, and a second dispose leaves the next profile alone', () => {
    const picked = profileStore(createStore<{ site: number | null }>()(() => ({ site: null })));
    const session = openProfileSession(fakeApi().api, profile('p3'), noOpenError);
    picked.setState({ site: 4 });
    session.dispose();
    expect(picked.getState().site).toBeNull();
    picked.setState({ site: 5 });
    session.dispose();
    expect(picked.getState().site).toBe(5);
  });

  it('keeps a change queued while its outbox is still opening, and sends it once open', async () => {
    const main = platform();
    const session = openProfileSession(main.api, profile('p5'), noOpenError);
    // at once, as a coordinator's click may come before the engine has read the queue
    const ids = await queueDrafts([{ op: SAMPLE_OPS['user.update'], summary: 'Bo leaves' }]);
    expect(ids).toHaveLength(1);
    const sent = sentOnce(session);
    await expect.poll(() => main.requests.map((r) => r.opId)).toEqual(ids);
    main.land();
    await sent;
    expect(main.written).toEqual(ids);
    session.dispose();
    await session.ended;
  });

  it('shows its outbox to the views while it lasts, and nothing of it once it ends', async () => {
    const session = openProfileSession(fakeApi().api, profile('p4'), noOpenError);
    await session.outbox.opened;
    expect(outboxStore.getState().db).toBe(session.outboxDb);
    expect(outboxStore.getState().actor).toBe('Coordinator of p4');
    session.dispose();
    await session.ended;
    const { db, engine, actor } = outboxStore.getState();
    expect([db, engine, actor]).toEqual([null, null, '']);
  });
});

/**
 * Main and the platform as the outbox meets them: each write is held until the test lets it land, and a request
 * that verifies first finds a write that landed and does not make it again.
 */
function platform() {
  const fake = fakeApi();
  const written: string[] = [];
  const requests: ReplayRequest[] = [];
  const held: (() => void)[] = [];
  fake.respond('replay:executeBatch', ((arg: { batchId: string; requests: ReplayRequest[] }) => {
    requests.push(...arg.requests);
    const answer = (): Result<ReplayBatchResult> => ({
      ok: true,
      value: {
        batchId: arg.batchId,
        outcomes: arg.requests.map((r) => {
          if (!(r.verifyFirst && written.includes(r.opId))) written.push(r.opId);
          return { opId: r.opId, outcome: { status: 'done', createdId: 900 } };
        }),
      },
    });
    return new Promise((resolve) => held.push(() => resolve(answer())));
  }) as never);
  return { api: fake.api, written, requests, land: () => held.splice(0).forEach((go) => go()) };
}

async function sentOnce(session: ProfileSession): Promise<void> {
  await session.outbox.opened;
  session.outbox.setOnline(true);
  await outboxStore.getState().engine?.whenIdle();
}

describe('an operation being sent when the profile switches', () => {
  it('is neither lost nor sent twice: the next time the profile opens, its replay checks the platform first', async () => {
    const main = platform();
    const first = openProfileSession(main.api, profile('switching'), noOpenError);
    await first.outbox.opened;
    const [id] = await queueDrafts([{ op: SAMPLE_OPS['user.create'], summary: 'Create Bo Ray' }]);
    first.outbox.setOnline(true);
    await expect.poll(() => main.requests.length).toBe(1);

    first.dispose();
    const other = openProfileSession(main.api, profile('elsewhere'), { ...noOpenError, previous: first });
    // main had already sent it: it lands on the platform after the switch
    main.land();
    await first.ended;
    expect(main.written).toEqual([id]);
    // kept as a crash keeps it: it may have been sent
    const kept = openFieldbookDb('fieldbook-switching');
    expect(await kept.outbox.get(id!)).toMatchObject({ status: 'sending', maybeSent: true, attempts: 1 });
    kept.close();

    other.dispose();
    const back = openProfileSession(main.api, profile('switching'), { ...noOpenError, previous: other });
    const replay = sentOnce(back);
    await expect.poll(() => main.requests.length).toBe(2);
    main.land();
    await replay;
    expect(main.requests[1]).toMatchObject({ opId: id, verifyFirst: true });
    expect(main.written).toEqual([id]);
    expect(await back.outboxDb.outbox.get(id!)).toMatchObject({ status: 'done' });
    back.dispose();
    await back.ended;
  });

  it('hands main nothing more of the old profile: the ops queued behind it wait for the profile to open again', async () => {
    const main = platform();
    const first = openProfileSession(main.api, profile('queued'), noOpenError);
    await first.outbox.opened;
    const ids = await queueDrafts([
      { op: SAMPLE_OPS['user.update'], summary: 'Bo leaves' },
      { op: { kind: 'user.update', userid: 1, changes: { firstname: 'Robert' } }, summary: 'Bo is Robert' },
    ]);
    first.outbox.setOnline(true);
    await expect.poll(() => main.requests.length).toBe(1);
    first.dispose();
    main.land();
    await first.ended;
    // longer than a first retry waits (0.5 to 1 s): an engine left running would have sent by then
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(main.requests.map((r) => r.opId)).toEqual([ids[0]]);
  });
});
