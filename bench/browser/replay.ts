/**
 * The replay benchmark, page side: the running app's outbox, as
 * src/renderer/outbox/runtime.ts wires it. The engine (src/shared/replay-queue)
 * drains the app's database in this browser's IndexedDB, opened with strict
 * durability; its ops go in batches through `window.fieldbook['replay:executeBatch']`
 * (the batching executor, as the runtime wires it) to the main-process handlers
 * (the harness's WebSocket bridge, loaded here as the harness loads it into the
 * app), their outcomes come back as `replay:outcomes`, and every op done
 * refreshes the cache.
 */
import { openFieldbookDb, type FieldbookDb } from '../../src/renderer/db/index.ts';
import { createCacheRefresher, type CacheRefresher } from '../../src/renderer/outbox/cache-refresh.ts';
import { refreshedUser } from '../../src/renderer/outbox/refreshed.ts';
import { OutboxEngine } from '../../src/shared/replay-queue/engine.ts';
import { enqueueOps, type OpDraft } from '../../src/shared/replay-queue/queue.ts';
import {
  BATCHED_HANDOFF,
  createBatchingExecutor,
  type BatchingExecutor,
} from '../../src/shared/replay-queue/batch-executor.ts';
import type { FieldbookApi, ReplayRequest } from '../../src/shared/ipc.ts';
import type { BenchChange, BenchUser, ReplayRound, ReplayTotals } from '../page-api.ts';

/** Under the app's name prefix, as a profile's database is; deleted before and after. */
const REPLAY_DB_NAME = 'fieldbook-bench-replay';
const BRIDGE_URL = '/__harness/bridge.js';

interface Replay {
  api: FieldbookApi;
  cache: FieldbookDb;
  outbox: FieldbookDb;
  engine: OutboxEngine;
  executor: BatchingExecutor;
  refresher: CacheRefresher;
}

let replay: Replay | null = null;

/** `window.fieldbook`, from the harness's bridge (the app gets it the same way in the harness). */
export async function mainApi(): Promise<FieldbookApi> {
  if (!window.fieldbook) await import(/* @vite-ignore */ new URL(BRIDGE_URL, location.href).href);
  if (!window.fieldbook) throw new Error('The harness bridge gave this page no window.fieldbook.');
  return window.fieldbook;
}

/**
 * Main's active profile is the harness's demo (the reference server of the
 * bench); the cache holds the users (so each refresh after an op does its real
 * work); the engine is open and online.
 */
export async function replayOpen(users: BenchUser[]): Promise<void> {
  if (replay) throw new Error('replayOpen() twice');
  const api = await mainApi();
  const started = await api['demo:start']();
  if (!started.ok) throw new Error(`demo:start: ${started.error.message}`);
  await openFieldbookDb(REPLAY_DB_NAME).delete();
  const cache = openFieldbookDb(REPLAY_DB_NAME);
  await cache.users.bulkPut(
    users.map((u) =>
      refreshedUser(
        undefined,
        { status: u.status, username: u.username },
        { userid: u.userid, siteid: u.siteid },
      ),
    ),
  );
  const outbox = openFieldbookDb(REPLAY_DB_NAME, { durability: 'strict', memory: cache.memory });
  const refresher = createCacheRefresher(cache);
  const executor = createBatchingExecutor({
    executeBatch: (arg) => api['replay:executeBatch']({ ...arg, profileId: started.value.id }),
    onOutcomes: (listener) => api.on['replay:outcomes'](listener),
  });
  const engine = await OutboxEngine.open({
    db: outbox,
    actor: 'bench',
    execute: executor.execute,
    handoff: BATCHED_HANDOFF,
    onApplied: (op, outcome) => refresher.add(op, outcome),
  });
  engine.setOnline(true);
  replay = { api, cache, outbox, engine, executor, refresher };
}

function opened(): Replay {
  if (!replay) throw new Error('replayOpen() first');
  return replay;
}

/**
 * The IPC floor: each change sent as one `replay:execute` call by a plain loop
 * at `concurrency`, with no queue: what the app's path to the API costs
 * without the outbox.
 */
export async function replayIpcFloor(changes: BenchChange[], concurrency: number): Promise<number> {
  const { api } = opened();
  let next = 0;
  const failures: string[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < changes.length) {
        const c = changes[next++]!;
        const request: ReplayRequest = {
          opId: `ipc-floor-${c.userid}`,
          op: { kind: 'user.update', userid: c.userid, changes: { status: c.status } },
          base: { status: c.base },
          verifyFirst: false,
        };
        const result = await api['replay:execute'](request);
        if (!result.ok || result.value.status !== 'done')
          failures.push(result.ok ? result.value.status : result.error.message);
      }
    }),
  );
  const ms = performance.now() - started;
  if (failures.length > 0)
    throw new Error(`${failures.length} of the IPC floor's changes failed, e.g. ${failures[0]}`);
  return ms;
}

/**
 * One round: the changes queued as the bulk action queues them, or packed as the import does (untimed), then
 * timed from "the queue changed" to the engine idle and the cache refreshed
 * (when the app's replay has ended).
 */
export async function replayRound(changes: BenchChange[], packed: boolean): Promise<ReplayRound> {
  const { outbox, engine, refresher } = opened();
  const drafts: OpDraft[] = changes.map((c) => ({
    op: { kind: 'user.update', userid: c.userid, changes: { status: c.status } },
    base: { status: c.base },
    summary: c.username,
  }));
  await enqueueOps(outbox, drafts, { packed });
  const started = performance.now();
  await engine.reload();
  await engine.whenIdle();
  await refresher.settled();
  return { ms: performance.now() - started };
}

/** The database the write floor fills: not the app's, deleted before and after. */
const WRITE_FLOOR_DB_NAME = 'bench-replay-write-floor';
/** as many outcomes as the engine commits together at most (its GROUP_MAX) */
const WRITE_FLOOR_GROUP = 32;

/**
 * The write floor: the outcome rows the rounds stored (each done op and its
 * audit entry), written again into an empty database of the same schema with
 * strict durability, in transactions of the engine's largest group: what
 * recording outcomes costs without any network or IPC. Milliseconds of the writes.
 */
export async function replayWriteFloor(count: number): Promise<number> {
  const { outbox } = opened();
  const ops = await outbox.outbox.where('status').equals('done').limit(count).toArray();
  const audits = (await outbox.audit.limit(count).toArray()).map(({ seq: _seq, ...entry }) => entry);
  await openFieldbookDb(WRITE_FLOOR_DB_NAME).delete();
  const target = openFieldbookDb(WRITE_FLOOR_DB_NAME, { durability: 'strict' });
  try {
    await target.open();
    const started = performance.now();
    for (let at = 0; at < ops.length; at += WRITE_FLOOR_GROUP) {
      await target.transaction('rw', target.outbox, target.audit, async () => {
        await target.outbox.bulkPut(ops.slice(at, at + WRITE_FLOOR_GROUP));
        await target.audit.bulkAdd(audits.slice(at, at + WRITE_FLOOR_GROUP));
      });
    }
    return performance.now() - started;
  } finally {
    target.close();
    await openFieldbookDb(WRITE_FLOOR_DB_NAME).delete();
  }
}

/** Milliseconds to queue one op durably, `runs` times, into the outbox as it stands. */
export async function replayEnqueueLatency(users: BenchUser[], runs: number): Promise<number[]> {
  const { outbox } = opened();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const u = users[i % users.length]!;
    const started = performance.now();
    await enqueueOps(outbox, [
      {
        op: { kind: 'user.update', userid: u.userid, changes: { firstname: `B${i}` } },
        base: { firstname: '' },
        summary: 'bench',
      },
    ]);
    times.push(performance.now() - started);
  }
  return times;
}

/** What the rounds left in the outbox and its audit log. */
export async function replayTotals(): Promise<ReplayTotals> {
  const { outbox } = opened();
  const byStatus: Record<string, number> = {};
  await outbox.outbox.each((op) => {
    byStatus[op.status] = (byStatus[op.status] ?? 0) + 1;
  });
  const audits = await outbox.audit.toArray();
  return {
    byStatus,
    audited: audits.length,
    alreadyInEffect: audits.filter((e) => e.message.includes('already in effect')).length,
  };
}

export async function replayClose(): Promise<void> {
  const current = replay;
  replay = null;
  if (!current) return;
  await current.engine.kill();
  current.executor.close();
  current.outbox.close();
  current.cache.close();
  await openFieldbookDb(REPLAY_DB_NAME).delete();
}
