import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReplayBatchResult, ReplayOutcome, ReplayOutcomesEvent, ReplayRequest, Result } from '../ipc.ts';
import { BATCHED_HANDOFF, createBatchingExecutor, type BatchTransport } from './batch-executor.ts';
import { openOutboxOnlyDb, type OutboxDb } from './db.ts';
import { OutboxEngine } from './engine.ts';
import { enqueueOps } from './queue.ts';

/** main's side, scripted: records each batch; the test answers it (events and/or the answer) when it likes. */
function fakeMain() {
  const listeners = new Set<(event: ReplayOutcomesEvent) => void>();
  const batches: {
    batchId: string;
    requests: ReplayRequest[];
    answer: (result: Result<ReplayBatchResult>) => void;
  }[] = [];
  const transport: BatchTransport = {
    executeBatch: (arg) => new Promise((answer) => batches.push({ ...arg, answer })),
    onOutcomes: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const stream = (event: ReplayOutcomesEvent) => listeners.forEach((listener) => listener(event));
  return { transport, batches, stream, listeners };
}

const done: ReplayOutcome = { status: 'done' };
const request = (opId: string): ReplayRequest => ({
  opId,
  op: { kind: 'email.remove', userid: 1, emailid: Number(opId.slice(1)) },
  verifyFirst: false,
});
const turn = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the batching executor', () => {
  it('sends the ops handed over in one turn as one batch', async () => {
    const main = fakeMain();
    const { execute } = createBatchingExecutor(main.transport);
    const signal = new AbortController().signal;
    void execute(request('o1'), signal);
    void execute(request('o2'), signal);
    void execute(request('o3'), signal);
    await turn();
    void execute(request('o4'), signal);
    await turn();
    expect(main.batches.map((b) => b.requests.map((r) => r.opId))).toEqual([['o1', 'o2', 'o3'], ['o4']]);
  });

  it('splits a turn larger than a batch may be', async () => {
    const main = fakeMain();
    const { execute } = createBatchingExecutor(main.transport, 2);
    const signal = new AbortController().signal;
    for (const id of ['o1', 'o2', 'o3']) void execute(request(id), signal);
    await turn();
    expect(main.batches.map((b) => b.requests.length)).toEqual([2, 1]);
  });

  it('settles each op with its own outcome once, whether it came streamed or with the answer', async () => {
    const main = fakeMain();
    const { execute } = createBatchingExecutor(main.transport);
    const signal = new AbortController().signal;
    const results = ['o1', 'o2'].map((id) => execute(request(id), signal));
    await turn();
    const [batch] = main.batches;
    const conflict: ReplayOutcome = { status: 'conflict', theirs: {}, fields: ['status'] };
    main.stream({ batchId: batch!.batchId, outcomes: [{ opId: 'o1', outcome: done }] });
    // a second word on o1: ignored
    main.stream({ batchId: batch!.batchId, outcomes: [{ opId: 'o1', outcome: conflict }] });
    main.stream({ batchId: 'another', outcomes: [{ opId: 'o2', outcome: done }] }); // not this batch's
    batch!.answer({
      ok: true,
      value: { batchId: batch!.batchId, outcomes: [{ opId: 'o2', outcome: conflict }] },
    });
    expect(await Promise.all(results)).toEqual([
      { ok: true, value: done },
      { ok: true, value: conflict },
    ]);
  });

  it('fails an op whose outcome never came as a transport failure (retried, verified first)', async () => {
    const main = fakeMain();
    const { execute } = createBatchingExecutor(main.transport);
    const signal = new AbortController().signal;
    const results = ['o1', 'o2'].map((id) => execute(request(id), signal));
    await turn();
    main.batches[0]!.answer({
      ok: true,
      value: { batchId: main.batches[0]!.batchId, outcomes: [{ opId: 'o1', outcome: done }] },
    });
    const [first, second] = await Promise.all(results);
    expect(first).toEqual({ ok: true, value: done });
    expect(second).toMatchObject({ ok: false, error: { code: 'network' } });
  });

  it('fails every op of a batch the transport refused with its error', async () => {
    const main = fakeMain();
    const { execute } = createBatchingExecutor(main.transport);
    const results = ['o1', 'o2'].map((id) => execute(request(id), new AbortController().signal));
    await turn();
    main.batches[0]!.answer({ ok: false, error: { code: 'token-rejected', message: 'no' } });
    expect(await Promise.all(results)).toEqual(
      [0, 1].map(() => ({ ok: false, error: { code: 'token-rejected', message: 'no' } })),
    );
  });

  it('settles an aborted op at once as cancelled, and ignores what main says of it later', async () => {
    const main = fakeMain();
    const { execute } = createBatchingExecutor(main.transport);
    const controller = new AbortController();
    const result = execute(request('o1'), controller.signal);
    await turn();
    controller.abort();
    expect(await result).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    main.stream({ batchId: main.batches[0]!.batchId, outcomes: [{ opId: 'o1', outcome: done }] });
  });

  it('stops listening when closed', () => {
    const main = fakeMain();
    createBatchingExecutor(main.transport).close();
    expect(main.listeners.size).toBe(0);
  });
});

describe('the engine over a batching executor', () => {
  const dbs: OutboxDb[] = [];
  afterEach(() => dbs.splice(0).forEach((db) => db.close()));
  const freshDb = (name: string) => {
    const db = openOutboxOnlyDb(`batch-executor-${name}-${Math.random()}`);
    dbs.push(db);
    return db;
  };
  const removals = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      op: { kind: 'email.remove' as const, userid: 100 + i, emailid: i + 1 },
      summary: `e-mail ${i}`,
    }));

  it('hands over more ops than network slots, so one batch carries many', async () => {
    const db = freshDb('handoff');
    await enqueueOps(db, removals(100));
    const main = fakeMain();
    const { execute } = createBatchingExecutor(main.transport);
    const engine = await OutboxEngine.open({
      db,
      execute,
      actor: 'c',
      concurrency: 4,
      handoff: BATCHED_HANDOFF,
    });
    engine.setOnline(true);
    const handed = () => main.batches.reduce((sum, b) => sum + b.requests.length, 0);
    // waits by turns, not by a fixed time: a busy machine may take several turns to hand them all over
    for (let waited = 0; handed() < BATCHED_HANDOFF && waited < 400; waited++) await turn();
    for (let more = 0; more < 3; more++) await turn();
    // no reply came: exactly the hand-off's worth is in flight, no more
    expect(handed()).toBe(BATCHED_HANDOFF);
    expect(Math.max(...main.batches.map((b) => b.requests.length))).toBeGreaterThan(4);
    await engine.kill();
  });

  it('leaves the ops of a batch killed mid-flight marked as maybe sent, and verifies them before any resend', async () => {
    const db = freshDb('kill');
    await enqueueOps(db, removals(10));
    const main = fakeMain();
    const first = createBatchingExecutor(main.transport);
    const engine = await OutboxEngine.open({
      db,
      execute: first.execute,
      actor: 'c',
      concurrency: 4,
      handoff: BATCHED_HANDOFF,
    });
    engine.setOnline(true);
    const handed = (of: typeof main) => of.batches.flatMap((b) => b.requests);
    for (let waited = 0; handed(main).length < 10 && waited < 200; waited++) await turn();
    // main has every op (their writes may have left); the host dies before any outcome comes back
    expect(handed(main)).toHaveLength(10);
    await engine.kill();
    first.close();
    for (const b of main.batches)
      b.answer({
        ok: true,
        value: { batchId: b.batchId, outcomes: b.requests.map((r) => ({ opId: r.opId, outcome: done })) },
      });
    expect((await db.outbox.toArray()).map((op) => [op.status, op.maybeSent])).toEqual(
      Array.from({ length: 10 }, () => ['sending', true]),
    );

    const after = fakeMain();
    const second = createBatchingExecutor(after.transport);
    const reopened = await OutboxEngine.open({
      db,
      execute: second.execute,
      actor: 'c',
      concurrency: 4,
      handoff: BATCHED_HANDOFF,
    });
    reopened.setOnline(true);
    for (let waited = 0; handed(after).length < 10 && waited < 200; waited++) await turn();
    const resent = handed(after);
    expect(resent).toHaveLength(10);
    expect(resent.every((r) => r.verifyFirst)).toBe(true);
    for (const b of after.batches)
      b.answer({
        ok: true,
        value: {
          batchId: b.batchId,
          outcomes: b.requests.map((r) => ({
            opId: r.opId,
            outcome: { status: 'done', alreadyApplied: true },
          })),
        },
      });
    await reopened.whenIdle();
    expect((await db.outbox.toArray()).every((op) => op.status === 'done')).toBe(true);
    await reopened.kill();
    second.close();
  });
});
