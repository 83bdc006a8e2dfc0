import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { ReplayOutcome, ReplayRequest, Result } from '../ipc.ts';
import type { OutboxDb } from './db.ts';
import { outboxDbsClosedAfterEach } from '../testing/outbox-dbs.ts';
import { CREATE_WITH_EMAIL } from '../testing/test-ops.ts';
import { OutboxEngine, type ReplayExecutor } from './engine.ts';
import { discardOps, enqueueOps, resolveConflicts } from './queue.ts';

const freshDb = outboxDbsClosedAfterEach('engine-test');

const ok = (value: ReplayOutcome): Result<ReplayOutcome> => ({ ok: true, value });
const fast = { baseMs: 1, maxMs: 5 };

/** An executor answering from a function, recording every request. */
function executor(
  answer: (req: ReplayRequest, n: number) => Result<ReplayOutcome> | Promise<Result<ReplayOutcome>>,
) {
  const requests: ReplayRequest[] = [];
  const execute: ReplayExecutor = async (req) => {
    requests.push(req);
    return answer(req, requests.length);
  };
  return { execute, requests };
}

async function drained(db: OutboxDb, execute: ReplayExecutor) {
  const engine = await OutboxEngine.open({ db, execute, actor: 'Coordinator', backoff: fast });
  engine.setOnline(true);
  await engine.whenIdle();
  return engine;
}

/**
 * A reload whose read of the queue is taken when `start` is called but handed back
 * only on `release`: a read that predates whatever the engine records meanwhile.
 */
function staleReload(db: OutboxDb) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let done: Promise<void> | undefined;
  const start = (reload: () => Promise<void>) => {
    const transaction = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
    const spy = vi.spyOn(db, 'transaction').mockImplementationOnce(((...args: unknown[]) =>
      transaction(...args).then(async (read) => {
        await held;
        return read;
      })) as never);
    done = reload().finally(() => spy.mockRestore());
  };
  return { start, release, done: () => done };
}

const statusDraft = (userid: number, status: string) => ({
  op: { kind: 'user.update' as const, userid, changes: { status } },
  base: { status: 'Active' },
  summary: `user ${userid} -> ${status}`,
});

describe('the outbox engine', () => {
  it('sends every queued op once and records each outcome in the audit log', async () => {
    const db = freshDb();
    await enqueueOps(db, [statusDraft(1, 'Inactive'), statusDraft(2, 'Inactive')]);
    const api = executor(() => ok({ status: 'done' }));
    await drained(db, api.execute);
    expect(api.requests).toHaveLength(2);
    expect((await db.outbox.toArray()).map((op) => op.status)).toEqual(['done', 'done']);
    expect(await db.audit.count()).toBe(2);
  });

  it('sends nothing while offline', async () => {
    const db = freshDb();
    await enqueueOps(db, [statusDraft(1, 'Inactive')]);
    const api = executor(() => ok({ status: 'done' }));
    const engine = await OutboxEngine.open({ db, execute: api.execute, actor: 'c' });
    await engine.whenIdle();
    expect(api.requests).toHaveLength(0);
  });

  it('retries a transient failure and then succeeds', async () => {
    const db = freshDb();
    await enqueueOps(db, [statusDraft(1, 'Inactive')]);
    const api = executor((_req, n) =>
      n < 3
        ? ok({ status: 'retry', error: { code: 'server', message: '500' }, maybeSent: false })
        : ok({ status: 'done' }),
    );
    await drained(db, api.execute);
    expect(api.requests).toHaveLength(3);
    expect((await db.outbox.toArray())[0]).toMatchObject({ status: 'done', attempts: 3 });
  });

  it('verifies first after an attempt that may have reached the server', async () => {
    const db = freshDb();
    await enqueueOps(db, [statusDraft(1, 'Inactive')]);
    const api = executor((_req, n) =>
      n === 1
        ? ok({ status: 'retry', error: { code: 'network', message: 'dropped' }, maybeSent: true })
        : ok({ status: 'done' }),
    );
    await drained(db, api.execute);
    expect(api.requests.map((r) => r.verifyFirst)).toEqual([false, true]);
  });

  it('verifies first after a retry that does not say whether the attempt was sent', async () => {
    const db = freshDb();
    await enqueueOps(db, [
      { op: { kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 1 }, summary: 'grant' },
    ]);
    const api = executor((_req, n) =>
      n === 1 ? ok({ status: 'retry', error: { code: 'server', message: '503' } }) : ok({ status: 'done' }),
    );
    await drained(db, api.execute);
    expect(api.requests.map((r) => r.verifyFirst)).toEqual([false, true]);
  });

  it('keeps an op that may have been sent marked so when a later attempt fails before writing: it is verified again', async () => {
    const db = freshDb();
    await enqueueOps(db, [
      { op: { kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 1 }, summary: 'grant' },
    ]);
    // 1: the answer is lost; 2: the check read fails, and the reply says nothing was written this time
    const lost = ok({ status: 'retry', error: { code: 'network', message: 'dropped' }, maybeSent: true });
    const checkFailed = ok({
      status: 'retry',
      error: { code: 'network', message: 'dropped' },
      maybeSent: false,
    });
    const api = executor((_req, n) =>
      n === 1 ? lost : n === 2 ? checkFailed : ok({ status: 'done', alreadyApplied: true }),
    );
    await drained(db, api.execute);
    expect(api.requests.map((r) => r.verifyFirst)).toEqual([false, true, true]);
  });

  it('verifies a create first when its replay call gave no outcome at all', async () => {
    const db = freshDb();
    await enqueueOps(db, [
      { op: { kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 1 }, summary: 'grant' },
    ]);
    const api = executor((_req, n) =>
      n === 1
        ? { ok: false, error: { code: 'network', message: 'The replay gave no outcome.' } }
        : ok({ status: 'done' }),
    );
    await drained(db, api.execute);
    expect(api.requests.map((r) => r.verifyFirst)).toEqual([false, true]);
  });

  it('does not send again an op whose done outcome came while a reload was reading the queue', async () => {
    const db = freshDb();
    await enqueueOps(db, [statusDraft(1, 'Inactive')]);
    // the reload's read is taken while the op is on its way, and handed back only after its outcome is recorded
    const stale = staleReload(db);
    let reload = (): Promise<void> => Promise.resolve();
    const api = executor(() => {
      stale.start(reload);
      return ok({ status: 'done' });
    });
    const engine = await OutboxEngine.open({ db, execute: api.execute, actor: 'c', backoff: fast });
    reload = () => engine.reload();
    engine.setOnline(true);
    await engine.whenIdle();
    expect((await db.outbox.toArray())[0]?.status).toBe('done');
    stale.release();
    await stale.done();
    await engine.whenIdle();
    expect(api.requests).toHaveLength(1);
  });

  it('keeps the outcome of an attempt over a reload that read the queue before it: the op waits out its backoff, then is checked first', async () => {
    const db = freshDb();
    await enqueueOps(db, [statusDraft(1, 'Inactive')], { now: new Date(Date.now() - 60_000) });
    const stale = staleReload(db);
    let reload = (): Promise<void> => Promise.resolve();
    const api = executor((_req, n) => {
      if (n > 1) return ok({ status: 'done' });
      stale.start(reload);
      return ok({ status: 'retry', error: { code: 'network', message: 'dropped' }, maybeSent: true });
    });
    const engine = await OutboxEngine.open({
      db,
      execute: api.execute,
      actor: 'c',
      backoff: { baseMs: 60_000, maxMs: 60_000 },
    });
    reload = () => engine.reload();
    engine.setOnline(true);
    await vi.waitFor(async () => expect((await db.outbox.toArray())[0]?.nextAttemptAt).not.toBeNull());
    stale.release();
    await stale.done();
    expect(engine.state().inFlight).toBe(0);
    await engine.sendNow();
    await engine.whenIdle();
    expect(api.requests.map((r) => r.verifyFirst)).toEqual([false, true]);
  });

  it('sends each op once when the queue drains while a reload makes its new state a slice at a time', async () => {
    const db = freshDb();
    await enqueueOps(
      db,
      Array.from({ length: 40 }, (_, i) => statusDraft(i + 1, 'Inactive')),
    );
    // the reload yields before every op; at its fifth yield the engine sends and finishes the whole queue
    let yields = 0;
    let drain: (() => Promise<void>) | null = null;
    const yieldNow = async () => {
      yields += 1;
      if (yields === 5) await drain?.();
    };
    const held: (() => void)[] = [];
    let answerAtOnce = false;
    const api = executor(() =>
      answerAtOnce
        ? ok({ status: 'done' })
        : new Promise((resolve) => held.push(() => resolve(ok({ status: 'done' })))),
    );
    const slicing = { budgetMs: 0, checkEvery: 1, yieldNow };
    const engine = await OutboxEngine.open({ db, execute: api.execute, actor: 'c', concurrency: 1, slicing });
    engine.setOnline(true);
    // 16 ops on their way (one at a time through the network slot), the other 24 waiting in the engine's state
    await vi.waitFor(() => expect(engine.state().inFlight).toBe(16));
    drain = async () => {
      answerAtOnce = true;
      while (held.length > 0 || engine.state().inFlight > 0) {
        held.splice(0).forEach((answer) => answer());
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    };
    yields = 0;
    await engine.reload();
    await engine.whenIdle();
    expect(api.requests).toHaveLength(40);
    expect(new Set(api.requests.map((r) => r.opId)).size).toBe(40);
    expect((await db.outbox.toArray()).every((op) => op.status === 'done')).toBe(true);
  });

  it('fails, never sends, an op whose create was done without giving its new id', async () => {
    const db = freshDb();
    await enqueueOps(db, CREATE_WITH_EMAIL);
    const api = executor(() => ok({ status: 'done', alreadyApplied: true }));
    await drained(db, api.execute);
    expect(api.requests.map((r) => r.opId)).toEqual(['create']);
    expect(await db.outbox.get('email')).toMatchObject({
      status: 'failed',
      lastError: { message: 'An operation it depends on gave no new id.' },
    });
  });

  it('after a crash while sending a create, verifies before sending again', async () => {
    const db = freshDb();
    await enqueueOps(db, [
      { op: { kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 1 }, summary: 'grant' },
    ]);
    let reachedNetwork!: () => void;
    const sent = new Promise<void>((resolve) => (reachedNetwork = resolve));
    const hung: ReplayExecutor = () => {
      reachedNetwork();
      return new Promise<Result<ReplayOutcome>>(() => undefined);
    };
    const first = await OutboxEngine.open({ db, execute: hung, actor: 'c' });
    first.setOnline(true);
    await sent;
    await first.kill();
    expect((await db.outbox.toArray())[0]).toMatchObject({ status: 'sending', maybeSent: true });
    const api = executor(() => ok({ status: 'done', alreadyApplied: true }));
    await drained(db, api.execute);
    expect(api.requests[0]?.verifyFirst).toBe(true);
    expect((await db.outbox.toArray())[0]?.status).toBe('done');
  });

  it('on reconnecting, sends at once what was waiting out a backoff', async () => {
    const db = freshDb();
    await enqueueOps(db, [statusDraft(1, 'Inactive')]);
    let up = false;
    const api = executor(() =>
      up
        ? ok({ status: 'done' })
        : ok({ status: 'retry', error: { code: 'network', message: 'down' }, maybeSent: false }),
    );
    const engine = await OutboxEngine.open({
      db,
      execute: api.execute,
      actor: 'c',
      backoff: { baseMs: 60_000, maxMs: 60_000 },
    });
    engine.setOnline(true);
    while ((await db.outbox.toArray())[0]?.nextAttemptAt == null)
      await new Promise((resolve) => setTimeout(resolve, 5));
    engine.setOnline(false);
    up = true;
    engine.setOnline(true);
    await engine.whenIdle();
    expect((await db.outbox.toArray())[0]?.status).toBe('done');
  });

  it('parks a refused op for review and moves on to the others', async () => {
    const db = freshDb();
    await enqueueOps(db, [statusDraft(1, 'Bogus'), statusDraft(2, 'Inactive')]);
    const api = executor((req) =>
      req.op.kind === 'user.update' && req.op.userid === 1
        ? ok({
            status: 'needs-review',
            error: { code: 'rejected', message: 'invalid status', statuscode: 1001 },
          })
        : ok({ status: 'done' }),
    );
    await drained(db, api.execute);
    const ops = await db.outbox.orderBy('seq').toArray();
    expect(ops.map((op) => op.status)).toEqual(['needs-review', 'done']);
    expect(ops[0]?.lastError?.message).toBe('invalid status');
  });

  it('pauses the whole queue on a rejected token, losing nothing', async () => {
    const db = freshDb();
    await enqueueOps(db, [statusDraft(1, 'Inactive'), statusDraft(2, 'Inactive')]);
    let tokenOk = false;
    const api = executor(() =>
      tokenOk
        ? ok({ status: 'done' })
        : ok({ status: 'paused', error: { code: 'token-rejected', message: 'revoked', statuscode: 802 } }),
    );
    const engine = await OutboxEngine.open({ db, execute: api.execute, actor: 'c', concurrency: 1 });
    engine.setOnline(true);
    await engine.whenIdle();
    expect(engine.state().paused?.code).toBe('token-rejected');
    expect((await db.outbox.toArray()).map((op) => op.status)).toEqual(['pending', 'pending']);
    tokenOk = true;
    engine.resume();
    await engine.whenIdle();
    expect((await db.outbox.toArray()).map((op) => op.status)).toEqual(['done', 'done']);
  });

  it('still verifies before resending an op that may have been sent, after a refused token paused it (as a restart reads it back too)', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, [
      { op: { kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 1 }, summary: 'grant' },
    ]);
    let tokenOk = false;
    const api = executor((_req, n) => {
      // the first attempt timed out (it may have reached the server), the second was refused its token
      if (n === 1)
        return ok({ status: 'retry', error: { code: 'timeout', message: 'no answer' }, maybeSent: true });
      return tokenOk
        ? ok({ status: 'done', alreadyApplied: true })
        : ok({ status: 'paused', error: { code: 'token-rejected', message: 'revoked', statuscode: 802 } });
    });
    const engine = await OutboxEngine.open({ db, execute: api.execute, actor: 'c', backoff: fast });
    engine.setOnline(true);
    await engine.whenIdle();
    expect(engine.state().paused?.code).toBe('token-rejected');
    // what a restart reads back: still marked as maybe sent
    expect(await db.outbox.get(op!.id)).toMatchObject({ status: 'pending', maybeSent: true });
    tokenOk = true;
    engine.resume();
    await engine.whenIdle();
    expect(api.requests.map((r) => r.verifyFirst)).toEqual([false, true, true]);
    expect((await db.outbox.get(op!.id))?.status).toBe('done');
  });

  it("gives a created user's new id to the ops waiting for it", async () => {
    const db = freshDb();
    await enqueueOps(db, [
      {
        id: 'create',
        op: {
          kind: 'user.create',
          siteid: 101,
          fields: { username: 'bo', firstname: 'Bo', lastname: 'Ray' },
        },
        summary: 'create bo',
      },
      {
        op: { kind: 'email.add', userid: 0, email: 'bo@example.com' },
        dependsOn: ['create'],
        bindings: [{ fromOp: 'create', field: 'userid' }],
        targetKey: 'user:new:bo',
        summary: 'add e-mail',
      },
    ]);
    const api = executor((req) =>
      ok(req.op.kind === 'user.create' ? { status: 'done', createdId: 555 } : { status: 'done' }),
    );
    await drained(db, api.execute);
    expect(api.requests[1]?.op).toEqual({ kind: 'email.add', userid: 555, email: 'bo@example.com' });
  });

  it("keeps a conflict until the user keeps their change, then sends it checked against the server's values of the moment", async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, [statusDraft(1, 'Inactive')]);
    // the server holds Offline: an op made from anything else is a conflict
    const api = executor((req) =>
      ok(
        req.base?.['status'] === 'Offline'
          ? { status: 'done' }
          : { status: 'conflict', theirs: { status: 'Offline' }, fields: ['status'] },
      ),
    );
    const engine = await drained(db, api.execute);
    expect((await db.outbox.get(op!.id))?.status).toBe('conflict');
    await resolveConflicts(db, [op!.id], 'mine', 'c');
    await engine.reload();
    await engine.whenIdle();
    expect((await db.outbox.get(op!.id))?.status).toBe('done');
    expect(api.requests.at(-1)).toMatchObject({
      op: { changes: { status: 'Inactive' } },
      base: { status: 'Offline' },
    });
    expect(api.requests.at(-1)?.resolution).toBeUndefined();
  });

  it('a conflict resolved field by field sends the merged record, and logs the fields left to the server', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, [
      {
        op: { kind: 'user.update', userid: 1, changes: { status: 'Inactive', firstname: 'Ann' } },
        base: { status: 'Active', firstname: 'Anne' },
        summary: 'Anne Lee',
      },
    ]);
    const theirs = { status: 'Offline', firstname: 'Annie' };
    const api = executor((req) =>
      ok(
        req.base?.['status'] === 'Offline'
          ? { status: 'done' }
          : { status: 'conflict', theirs, fields: ['status', 'firstname'] },
      ),
    );
    const engine = await drained(db, api.execute);
    await resolveConflicts(db, [op!.id], { status: 'mine', firstname: 'theirs' }, 'c', {
      fieldName: (f) => (f === 'firstname' ? 'first name' : f),
    });
    await engine.reload();
    await engine.whenIdle();
    expect(api.requests.at(-1)).toMatchObject({
      op: { changes: { status: 'Inactive' } },
      base: { status: 'Offline' },
    });
    expect(api.requests.at(-1)?.op).not.toHaveProperty('changes.firstname');
    expect((await db.audit.toArray()).map((e) => e.message)).toContain(
      "Anne Lee: kept the server's first name; the rest is sent",
    );
  });

  it('a conflict whose every field goes to the server leaves the outbox, with an audit entry', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, [statusDraft(1, 'Inactive')]);
    const api = executor(() => ok({ status: 'conflict', theirs: { status: 'Offline' }, fields: ['status'] }));
    await drained(db, api.execute);
    await resolveConflicts(db, [op!.id], 'theirs', 'c');
    expect(await db.outbox.count()).toBe(0);
    expect((await db.audit.toArray()).at(-1)).toMatchObject({
      opId: op!.id,
      outcome: 'resolved',
      after: { status: 'Offline' },
    });
  });

  it('goes idle when what is left waits for a person: a conflict, the op queued behind it, and an op depending on it', async () => {
    const db = freshDb();
    const [first, behind, other] = await enqueueOps(db, [
      { id: 'first', ...statusDraft(1, 'Inactive') },
      statusDraft(1, 'Active'),
      {
        op: { kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 2 },
        dependsOn: ['first'],
        summary: 'grant after the change',
      },
      statusDraft(3, 'Inactive'),
    ]);
    const api = executor((req) =>
      ok(
        req.op.kind === 'user.update' && req.op.userid === 1
          ? { status: 'conflict', theirs: { status: 'Offline' }, fields: ['status'] }
          : { status: 'done' },
      ),
    );
    await drained(db, api.execute);
    expect(api.requests.map((r) => r.opId)).toEqual([first!.id, expect.any(String)]);
    expect((await db.outbox.get(first!.id))?.status).toBe('conflict');
    expect((await db.outbox.get(behind!.id))?.status).toBe('pending');
    expect((await db.outbox.get(other!.id))?.status).toBe('pending');
  });

  it('is not idle while an op waits out a backoff: it goes by itself when the wait ends', async () => {
    const db = freshDb();
    await enqueueOps(db, [statusDraft(1, 'Inactive')]);
    const api = executor((_req, n) =>
      ok(
        n === 1
          ? { status: 'retry', error: { code: 'server', message: '503' }, maybeSent: false }
          : { status: 'done' },
      ),
    );
    await drained(db, api.execute);
    expect(api.requests).toHaveLength(2);
    expect((await db.outbox.toArray())[0]?.status).toBe('done');
  });

  it('undoes a queued op before it is sent, keeping a trace in the audit log', async () => {
    const db = freshDb();
    const [op] = await enqueueOps(db, [statusDraft(1, 'Inactive')]);
    await discardOps(db, [op!.id], 'c');
    expect(await db.outbox.count()).toBe(0);
    expect((await db.audit.toArray())[0]).toMatchObject({ opId: op!.id, outcome: 'discarded' });
  });

  it("discarding a user's create also discards the ops that need its new id", async () => {
    const db = freshDb();
    await enqueueOps(db, CREATE_WITH_EMAIL);
    expect((await discardOps(db, ['create'], 'c')).removed).toHaveLength(2);
  });
});
