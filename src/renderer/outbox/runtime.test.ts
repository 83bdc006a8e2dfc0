/**
 * The outbox's version, which the views follow to read the pending ops again: it moves after every change they show
 * (an op queued, an outcome, the cache refreshed after one, the outbox opened), and not on a connection probe, whose
 * news (online, offline, paused, sending) shows through the engine's state alone.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { ReplayBatchResult, ReplayOutcome, ReplayRequest, Result } from '../../shared/ipc.ts';
import { fakeApi } from '../testing/fake-api.ts';
import { SAMPLE_OPS } from '../testing/op-samples.ts';
import { openProfileSession, type ProfileSession } from '../app/profile-session.ts';
import { dbNameForProfile, openFieldbookDb } from '../db/index.ts';
import { enqueueOps } from '../../shared/replay-queue/queue.ts';
import { memoUnsentOps } from './ops-memo.ts';
import { outboxStore, personsWrite, queueAdded, queueDrafts, undoOps } from './runtime.ts';
import { editOp } from '../../shared/replay-queue/queue.ts';

const sessions: ProfileSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) {
    session.dispose();
    await session.ended;
  }
});

/** A profile's session over a fresh cache whose outbox is open, and main answering every op with `outcome`. */
async function opened(outcome: ReplayOutcome = { status: 'done', createdId: 900 }) {
  const fake = fakeApi();
  const requests: ReplayRequest[] = [];
  fake.respond('replay:executeBatch', ((arg: { batchId: string; requests: ReplayRequest[] }) => {
    requests.push(...arg.requests);
    const answer: Result<ReplayBatchResult> = {
      ok: true,
      value: { batchId: arg.batchId, outcomes: arg.requests.map((r) => ({ opId: r.opId, outcome })) },
    };
    return answer;
  }) as never);
  return { session: await openedOver(fake), requests };
}

/** A profile's session over a fresh cache, on `fake`'s main, once its outbox is open. */
async function openedOver(fake: ReturnType<typeof fakeApi>): Promise<ProfileSession> {
  const session = openProfileSession(
    fake.api,
    { id: `runtime-${Math.random()}`, name: 'Coordinator' },
    { onOpenError: () => undefined },
  );
  sessions.push(session);
  await session.outbox.opened;
  return session;
}

const version = () => outboxStore.getState().version;

/**
 * Calls `read` each time the version moves while a session lasts, as a view re-runs its query; what each read found,
 * in order.
 */
function onEachMove<T>(read: () => Promise<T>): T[] & { settled(): Promise<unknown> } {
  const found: T[] = [];
  const reads: Promise<void>[] = [];
  const stop = outboxStore.subscribe((state, before) => {
    if (state.db && state.version !== before.version)
      reads.push(read().then((value) => void found.push(value)));
  });
  onTestFinished(stop);
  return Object.assign(found, { settled: () => Promise.all(reads) });
}

const idle = () => outboxStore.getState().engine!.whenIdle();

describe("the outbox's version", () => {
  it('stays where it was when a connection probe changes nothing, with ops queued', async () => {
    const { session } = await opened();
    await queueDrafts([{ op: SAMPLE_OPS['user.update'], summary: 'Bo leaves' }]);
    session.outbox.setOnline(false);
    const before = { version: version(), engineState: outboxStore.getState().engineState };
    for (let probe = 0; probe < 3; probe++) session.outbox.setOnline(false);
    await idle();
    expect(version()).toBe(before.version);
    expect(outboxStore.getState().engineState).toBe(before.engineState);
  });

  it('stays where it was when the site comes back with nothing to send: the banner says so', async () => {
    const { session } = await opened();
    const before = version();
    session.outbox.setOnline(true);
    await idle();
    expect(outboxStore.getState().engineState.online).toBe(true);
    session.outbox.setOnline(false);
    expect(outboxStore.getState().engineState.online).toBe(false);
    expect(version()).toBe(before);
  });

  it('moves when an op is queued', async () => {
    await opened();
    const before = version();
    await queueDrafts([{ op: SAMPLE_OPS['user.update'], summary: 'Bo leaves' }]);
    expect(version()).toBeGreaterThan(before);
  });

  it('moves when an op is undone, and the op is not sent, without the queue being read back', async () => {
    const { session, requests } = await opened();
    const [id] = await queueDrafts([{ op: SAMPLE_OPS['user.update'], summary: 'Bo leaves' }]);
    const reload = vi.spyOn(outboxStore.getState().engine!, 'reload');
    const before = version();
    await undoOps([id!]);
    expect(version()).toBeGreaterThan(before);
    session.outbox.setOnline(true);
    await idle();
    expect(requests).toEqual([]);
    expect(reload).not.toHaveBeenCalled();
  });

  it('moves after a change to the queue even when the engine could not take it', async () => {
    const { session } = await opened();
    const before = version();
    vi.spyOn(outboxStore.getState().engine!, 'changed').mockRejectedValueOnce(new Error('read failed'));
    const change = { written: [], removed: ['op-1'] };
    await expect(personsWrite(async () => change)).rejects.toThrow('read failed');
    expect(version()).toBeGreaterThan(before);
    expect(session.outboxDb.isOpen()).toBe(true);
  });

  it.each<[string, ReplayOutcome]>([
    ['a conflict', { status: 'conflict', theirs: { status: 'Leave' }, fields: ['status'] }],
    ['a refusal', { status: 'needs-review', error: { code: 'rejected', message: 'No.', statuscode: 1001 } }],
  ])('moves once %s is written, so a view reads the op in its new state', async (_name, outcome) => {
    const { session } = await opened(outcome);
    await queueDrafts([{ op: SAMPLE_OPS['user.update'], summary: 'Bo leaves' }]);
    const seen = onEachMove(async () => (await memoUnsentOps(session.outboxDb)).map((op) => op.status));
    session.outbox.setOnline(true);
    await idle();
    await seen.settled();
    expect(seen.at(-1)).toEqual([outcome.status]);
  });

  it('moves once an op is sent, so a view no longer marks it pending', async () => {
    const { session } = await opened();
    await queueDrafts([{ op: SAMPLE_OPS['user.update'], summary: 'Bo leaves' }]);
    const seen = onEachMove(async () => (await memoUnsentOps(session.outboxDb)).length);
    session.outbox.setOnline(true);
    await idle();
    await seen.settled();
    expect(seen.at(-1)).toBe(0);
  });

  it('moves once the person a create made is in the cache, so the views that read people from memory show them', async () => {
    const { session } = await opened({ status: 'done', createdId: 900 });
    await queueDrafts([{ op: SAMPLE_OPS['user.create'], summary: 'Create Bo Ray' }]);
    const seen = onEachMove(async () => (await session.db.users.get(900))?.username ?? null);
    session.outbox.setOnline(true);
    await idle();
    await expect.poll(async () => (await session.db.users.get(900))?.username).toBe('bo');
    await seen.settled();
    expect(seen.at(-1)).toBe('bo');
  });

  it('moves once the outbox has opened, so a view reads an op a crash left "being sent" as waiting again', async () => {
    const id = `runtime-crashed-${Math.random()}`;
    const crashed = openFieldbookDb(dbNameForProfile(id));
    const [op] = await enqueueOps(crashed, [{ op: SAMPLE_OPS['user.create'], summary: 'Create Bo Ray' }]);
    await crashed.outbox.update(op!.id, { status: 'sending' });
    crashed.close();
    const seen = onEachMove(async () =>
      (await memoUnsentOps(outboxStore.getState().db!)).map((o) => o.status),
    );
    const session = openProfileSession(
      fakeApi().api,
      { id, name: 'Coordinator' },
      { onOpenError: () => undefined },
    );
    sessions.push(session);
    await session.outbox.opened;
    await seen.settled();
    expect(seen.at(-1)).toEqual(['pending']);
  });
});

/** A session whose main keeps each batch of requests until `answerAll()`: the ops sent stay on their way. */
async function openedHolding() {
  const fake = fakeApi();
  const requests: ReplayRequest[] = [];
  const answers: (() => void)[] = [];
  fake.respond('replay:executeBatch', ((arg: { batchId: string; requests: ReplayRequest[] }) => {
    requests.push(...arg.requests);
    const outcomes = arg.requests.map((r) => ({
      opId: r.opId,
      outcome: { status: 'done' } as ReplayOutcome,
    }));
    return new Promise<Result<ReplayBatchResult>>((resolve) =>
      answers.push(() => resolve({ ok: true, value: { batchId: arg.batchId, outcomes } })),
    );
  }) as never);
  const session = await openedOver(fake);
  return { session, requests, answerAll: () => answers.splice(0).forEach((answer) => answer()) };
}

const LEAVES = { op: SAMPLE_OPS['user.update'], summary: 'Bo leaves' };
const OFFLINE: (typeof SAMPLE_OPS)['user.update'] = {
  kind: 'user.update',
  userid: 1,
  changes: { status: 'Offline' },
};

describe("a person's discard or edit of a change already on its way", () => {
  it('an undo leaves it to its outcome: it is recorded as sent, and nothing says it was discarded', async () => {
    const { session, requests, answerAll } = await openedHolding();
    const [id] = await queueDrafts([LEAVES]);
    session.outbox.setOnline(true);
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    await undoOps([id!]);
    answerAll();
    await idle();
    expect((await session.outboxDb.outbox.get(id!))?.status).toBe('done');
    const audit = await session.outboxDb.audit.toArray();
    expect(audit.map((entry) => entry.outcome)).toEqual(['done']);
  });

  it('an edit is refused rather than lost under the outcome of the values sent', async () => {
    const { session, requests, answerAll } = await openedHolding();
    const [id] = await queueDrafts([LEAVES]);
    session.outbox.setOnline(true);
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    const change = await personsWrite((sending) => editOp(session.outboxDb, id!, OFFLINE, 'Bo', { sending }));
    expect(change.written).toEqual([]);
    answerAll();
    await idle();
    expect((await session.outboxDb.outbox.get(id!))?.op).toEqual(SAMPLE_OPS['user.update']);
  });

  it('an edit written as the connection comes back is what is sent, not the values before it', async () => {
    const { session, requests, answerAll } = await openedHolding();
    const [id] = await queueDrafts([LEAVES]);
    const change = await personsWrite((sending) => {
      session.outbox.setOnline(true); // the queue could go on from here
      return editOp(session.outboxDb, id!, OFFLINE, 'Bo', { sending });
    });
    expect(change.written).toHaveLength(1);
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]!.op).toEqual(OFFLINE);
    answerAll();
    await idle();
    expect((await session.outboxDb.outbox.get(id!))?.op).toEqual(OFFLINE);
  });
});

describe("a person's discard or edit of a packed change on its way (an import's batch)", () => {
  /** An import's change stored packed, handed to the engine, sent and not yet answered. */
  async function packedOnItsWay() {
    const held = await openedHolding();
    const ops = await enqueueOps(held.session.outboxDb, [LEAVES], { packed: true });
    await queueAdded(ops);
    held.session.outbox.setOnline(true);
    await vi.waitFor(() => expect(held.requests.length).toBeGreaterThan(0));
    const onItsWay = ops.find((op) => op.id === held.requests[0]!.opId)!;
    return { ...held, ops, onItsWay };
  }

  it('an undo leaves it to its outcome; an edit of it is refused', async () => {
    const { session, answerAll, onItsWay } = await packedOnItsWay();
    await undoOps([onItsWay.id]);
    const edit = await personsWrite((sending) =>
      editOp(session.outboxDb, onItsWay.id, onItsWay.op, 'edited', { sending }),
    );
    expect(edit.written).toEqual([]);
    answerAll();
    await idle();
    expect((await session.outboxDb.outbox.get(onItsWay.id))?.status).toBe('done');
    const audit = await session.outboxDb.audit.toArray();
    expect(audit.filter((entry) => entry.opId === onItsWay.id).map((entry) => entry.outcome)).toEqual([
      'done',
    ]);
  });
});
