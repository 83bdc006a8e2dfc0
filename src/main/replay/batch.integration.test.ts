/**
 * The batched replay (the app's path: the engine hands many ops at once to a
 * batching executor; main reads their records through list routes and sends
 * them four at a time) against the real reference server with every fault mode
 * on, killed at random moments with batches in flight: the server ends in
 * exactly the intended state, every op has one outcome and one write reached
 * the server per op. A kill stops the host and main's batch with it (requests
 * in flight are aborted, which may or may not have reached the server).
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayBatchOutcome, ReplayOutcomesEvent } from '../../shared/ipc.ts';
import { startServer, tokenFor, type RunningServer } from '../../server/index.ts';
import { ApiClient } from '../api/client.ts';
import { openOutboxOnlyDb } from '../../shared/replay-queue/db.ts';
import { OutboxEngine } from '../../shared/replay-queue/engine.ts';
import {
  BATCHED_HANDOFF,
  createBatchingExecutor,
  type BatchTransport,
} from '../../shared/replay-queue/batch-executor.ts';
import { enqueueOps } from '../../shared/replay-queue/queue.ts';
import { executeBatch, NETWORK_SLOTS } from './batch.ts';
import { Semaphore } from '../../shared/semaphore.ts';
import { ListReads } from './list-reads.ts';
import { writeRequestOf } from './kinds.ts';
import { comparable, mixedScenario, seeded, stateOf } from '../testing/scenario.ts';

const KILLS = 20;
const FAULTS = {
  latencyMs: 1,
  errorRate: 0.1,
  dropRate: 0.05,
  lostResponseRate: 0.08,
  maxInFlightPerToken: 3,
  retryAfterSeconds: 0,
  seed: 5,
};

/** main's side in this process: one host life (a kill aborts what it has in flight). */
function mainSide(client: ApiClient, reads: ListReads, slots: Semaphore) {
  const host = new AbortController();
  const listeners = new Set<(event: ReplayOutcomesEvent) => void>();
  let batches = 0;
  const transport: BatchTransport = {
    async executeBatch({ batchId, requests }) {
      batches += 1;
      const outcomes: ReplayBatchOutcome[] = [];
      await executeBatch(client, requests, {
        reads,
        slots,
        signal: host.signal,
        onOutcome: (opId, outcome) => void outcomes.push({ opId, outcome }),
      });
      // half the outcomes streamed, half with the answer, as the service may deliver them
      const streamed = outcomes.splice(0, Math.floor(outcomes.length / 2));
      listeners.forEach((listener) => listener({ batchId, outcomes: streamed }));
      return { ok: true, value: { batchId, outcomes } };
    },
    onOutcomes: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { transport, kill: () => host.abort(new Error('the host was stopped')), batches: () => batches };
}

describe('batched replay under faults and crashes', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dataset: 'demo', admin: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'ends with the server in exactly the intended state, each op done once, after kills mid-batch',
    { timeout: 180_000 },
    async () => {
      const scenario = mixedScenario(server, { users: 220, newUsers: 20, seed: 11 });
      const db = openOutboxOnlyDb('batch-integration');
      const queued = await enqueueOps(db, scenario.drafts);
      const client = new ApiClient({
        baseUrl: server.baseUrl,
        token: tokenFor(server, 'full'),
        timeoutMs: 5_000,
        sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 5))),
      });
      const random = seeded(9);
      let batches = 0;
      const open = async () => {
        // main starts afresh with its host: its slots, and copies read through its list reads
        const slots = new Semaphore(NETWORK_SLOTS);
        const main = mainSide(
          client,
          new ListReads({ inSlot: (run) => slots.run(run, { first: true }) }),
          slots,
        );
        const executor = createBatchingExecutor(main.transport);
        const engine = await OutboxEngine.open({
          db,
          execute: executor.execute,
          actor: 'integration',
          concurrency: 4,
          handoff: BATCHED_HANDOFF,
          backoff: { baseMs: 2, maxMs: 40 },
          random,
        });
        engine.setOnline(true);
        return {
          engine,
          stop: async () => (await engine.kill(), executor.close(), main.kill(), (batches += main.batches())),
        };
      };

      server.setFaults(FAULTS);
      let landedMidFlight = 0;
      for (let kill = 0; kill < KILLS; kill++) {
        const host = await open();
        await new Promise((r) => setTimeout(r, 10 + random() * 150));
        for (let waited = 0; host.engine.state().inFlight === 0 && waited < 2_000; waited += 1)
          await new Promise((r) => setTimeout(r, 1));
        if (host.engine.state().inFlight > 0) landedMidFlight += 1;
        await host.stop();
      }
      const survivor = await open();
      await survivor.engine.whenIdle();
      await survivor.stop();
      server.setFaults({
        errorRate: 0,
        dropRate: 0,
        lostResponseRate: 0,
        maxInFlightPerToken: 0,
        latencyMs: 0,
      });
      expect(landedMidFlight).toBeGreaterThanOrEqual(KILLS / 2);
      expect(batches).toBeLessThan(queued.length / 2); // ops did travel in batches

      const ops = await db.outbox.toArray();
      expect(
        ops
          .filter((op) => op.status !== 'done')
          .map((op) => `${op.summary}: ${op.status} ${op.lastError?.message ?? ''}`),
      ).toEqual([]);
      const doneEntries = (await db.audit.toArray()).filter((e) => e.outcome === 'done');
      const perOp = new Map<string, number>();
      for (const e of doneEntries) perOp.set(e.opId, (perOp.get(e.opId) ?? 0) + 1);
      expect(perOp.size).toBe(queued.length);
      expect([...perOp.values()].every((n) => n === 1)).toBe(true);

      // exactly one write reached the server per op (a blind resend shows here even when the state looks right)
      const expected = new Map<string, number>();
      for (const op of ops) {
        const write = writeRequestOf(op.op);
        expected.set(
          `${write.method} ${write.path}`,
          (expected.get(`${write.method} ${write.path}`) ?? 0) + 1,
        );
      }
      const reached = server.writeCounts();
      expect(
        [...reached]
          .filter(([target, n]) => n > (expected.get(target) ?? 0))
          .map(([target, n]) => `${target}: ${n} writes`),
      ).toEqual([]);
      expect(
        [...expected].filter(([target, n]) => (reached.get(target) ?? 0) < n).map(([target]) => target),
      ).toEqual([]);

      expect(comparable(stateOf(server.snapshot()))).toEqual(comparable(scenario.intended));
      db.close();
    },
  );
});
