/**
 * What the engine reports to the views (`onChange`, `state()`): every change they show, and nothing when nothing
 * changed. A connection probe every 15 s tells the engine whether it is online; reported each time, it made every view
 * read the whole queue again (100,000 ops after a large import).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ReplayOutcome, Result } from '../ipc.ts';
import type { OutboxDb } from './db.ts';
import { outboxDbsClosedAfterEach } from '../testing/outbox-dbs.ts';
import { OutboxEngine, type EngineState, type ReplayExecutor } from './engine.ts';
import { enqueueOps } from './queue.ts';

const freshDb = outboxDbsClosedAfterEach('engine-changes-test');

const statusDraft = (userid: number) => ({
  op: { kind: 'user.update' as const, userid, changes: { status: 'Inactive' } },
  base: { status: 'Active' },
  summary: `user ${userid} -> Inactive`,
});

const answering =
  (outcome: ReplayOutcome): ReplayExecutor =>
  async () => ({ ok: true, value: outcome });

/** An executor whose answers wait until the test lets them go. */
function heldPlatform(outcome: ReplayOutcome) {
  const waiting: (() => void)[] = [];
  const execute: ReplayExecutor = () =>
    new Promise<Result<ReplayOutcome>>((resolve) =>
      waiting.push(() => resolve({ ok: true, value: outcome })),
    );
  return { execute, waiting, answer: () => waiting.splice(0).forEach((go) => go()) };
}

/** An engine over `db`, with every state it reported. */
async function watched(db: OutboxDb, execute: ReplayExecutor = answering({ status: 'done' })) {
  const told: EngineState[] = [];
  const opened: { engine?: OutboxEngine } = {};
  const engine = await OutboxEngine.open({
    db,
    execute,
    actor: 'Coordinator',
    backoff: { baseMs: 1, maxMs: 5 },
    // what it reports while it opens is its first state (state() is not there yet)
    onChange: () => opened.engine && told.push(opened.engine.state()),
  });
  opened.engine = engine;
  return { engine, told };
}

const TOKEN_REFUSED = { code: 'token-rejected' as const, message: 'The token was refused.' };

describe('what the outbox engine reports to the views', () => {
  it('reports nothing when a connection probe changes nothing, offline or online', async () => {
    const { engine, told } = await watched(freshDb());
    engine.setOnline(false);
    await engine.whenIdle();
    const offline = told.length;
    engine.setOnline(false);
    engine.setOnline(false);
    await engine.whenIdle();
    expect(told).toHaveLength(offline);
    engine.setOnline(true);
    await engine.whenIdle();
    const online = told.length;
    engine.setOnline(true);
    engine.setOnline(true);
    await engine.whenIdle();
    expect(told).toHaveLength(online);
  });

  it('reports going online and offline at once', async () => {
    const { engine, told } = await watched(freshDb());
    engine.setOnline(true);
    expect(told.at(-1)?.online).toBe(true);
    await engine.whenIdle();
    engine.setOnline(false);
    expect(told.at(-1)?.online).toBe(false);
  });

  it('reports a pause (the token refused) and its end', async () => {
    const db = freshDb();
    await enqueueOps(db, [statusDraft(1)]);
    const { engine, told } = await watched(db, answering({ status: 'paused', error: TOKEN_REFUSED }));
    engine.setOnline(true);
    await engine.whenIdle();
    expect(told.at(-1)?.paused?.code).toBe('token-rejected');
    // offline, so that lifting the pause changes nothing else
    engine.setOnline(false);
    const before = told.length;
    engine.resume();
    expect(told).toHaveLength(before + 1);
    expect(told.at(-1)).toMatchObject({ paused: null, inFlight: 0 });
  });

  it('reports "Send now" lifting a pause at once', async () => {
    const db = freshDb();
    await enqueueOps(db, [statusDraft(1)]);
    const { engine, told } = await watched(db, answering({ status: 'paused', error: TOKEN_REFUSED }));
    engine.setOnline(true);
    await engine.whenIdle();
    engine.setOnline(false);
    const before = told.length;
    const sending = engine.sendNow();
    expect(told).toHaveLength(before + 1);
    expect(told.at(-1)?.paused).toBeNull();
    await sending;
  });

  it('reports an op handed over as queued, as a change of the ops', async () => {
    const db = freshDb();
    const { engine, told } = await watched(db);
    const before = engine.state().changes;
    await engine.added(await enqueueOps(db, [statusDraft(1)]));
    expect(told.at(-1)?.changes).toBeGreaterThan(before);
  });

  it('reports a reload whose state takes over, as a change of the ops', async () => {
    const db = freshDb();
    const { engine, told } = await watched(db);
    const before = engine.state().changes;
    // queued elsewhere: only a reload brings it in
    await enqueueOps(db, [statusDraft(1)]);
    await engine.reload();
    expect(told.at(-1)?.changes).toBeGreaterThan(before);
  });

  it('reports an op starting to be sent and its end, each with a change of the ops', async () => {
    const db = freshDb();
    await enqueueOps(db, [statusDraft(1)]);
    const platform = heldPlatform({ status: 'done' });
    const { engine, told } = await watched(db, platform.execute);
    const queued = engine.state().changes;
    engine.setOnline(true);
    await expect.poll(() => platform.waiting.length).toBe(1);
    const sending = told.at(-1)!;
    expect(sending.inFlight).toBe(1);
    expect(sending.changes).toBeGreaterThan(queued);
    platform.answer();
    await engine.whenIdle();
    const sent = told.at(-1)!;
    expect(sent.inFlight).toBe(0);
    expect(sent.changes).toBeGreaterThan(sending.changes);
  });

  it.each<[string, ReplayOutcome]>([
    ['done', { status: 'done' }],
    ['a conflict', { status: 'conflict', theirs: { status: 'Leave' }, fields: ['status'] }],
    [
      'refused (to review)',
      { status: 'needs-review', error: { code: 'rejected', message: 'invalid status', statuscode: 1001 } },
    ],
  ])('reports the outcome %s only once it is written, as a change of the ops', async (_name, outcome) => {
    const db = freshDb();
    const [op] = await enqueueOps(db, [statusDraft(1)]);
    const platform = heldPlatform(outcome);
    const stored: string[] = [];
    const told: EngineState[] = [];
    const opened: { engine?: OutboxEngine } = {};
    opened.engine = await OutboxEngine.open({
      db,
      execute: platform.execute,
      actor: 'Coordinator',
      onChange: () => {
        if (!opened.engine) return;
        told.push(opened.engine.state());
        // what a view that re-reads now finds (a read begun after a write sees it)
        void db.outbox.get(op!.id).then((read) => stored.push(read!.status));
      },
    });
    const engine = opened.engine;
    engine.setOnline(true);
    await expect.poll(() => platform.waiting.length).toBe(1);
    const sending = told.at(-1)!.changes;
    platform.answer();
    await engine.whenIdle();
    await expect.poll(() => stored.length).toBe(told.length);
    expect(told.at(-1)!.changes).toBeGreaterThan(sending);
    expect(stored.at(-1)).toBe(outcome.status);
  });
});
