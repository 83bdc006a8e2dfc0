/**
 * Replay against the real reference server with every fault mode on, and the
 * replay host "killed" at random moments: the server must end in exactly the
 * intended state (zero lost, zero duplicated) and every op must have one outcome.
 *
 * The host here is the renderer's queue engine (fake-indexeddb) + executeReplay
 * + a real ApiClient over HTTP. A kill aborts every request in flight (which may
 * or may not have reached the server: the kill can land between sending and
 * recording the outcome) and a fresh engine is built over the same stored outbox.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tokenFor, type RunningServer } from '../../server/index.ts';
import { ApiClient } from '../api/client.ts';
import { openOutboxOnlyDb } from '../../shared/replay-queue/db.ts';
import { OutboxEngine, type ReplayExecutor } from '../../shared/replay-queue/engine.ts';
import { enqueueOps } from '../../shared/replay-queue/queue.ts';
import { executeReplay } from './index.ts';
import { writeRequestOf } from './kinds.ts';
import { comparable, mixedScenario, seeded, stateOf } from '../testing/scenario.ts';

const KILLS = 30;
const FAULTS = {
  latencyMs: 1,
  errorRate: 0.13,
  dropRate: 0.06,
  lostResponseRate: 0.1,
  maxInFlightPerToken: 3,
  retryAfterSeconds: 0,
  seed: 7,
};

/** Counts every request's fate, to prove the fault share (a request we aborted ourselves is not a fault). */
function countingFetch() {
  const counts = {
    total: 0,
    failed: 0,
    byMode: { '500': 0, '503': 0, '429': 0, network: 0 } as Record<string, number>,
  };
  const wrapped: typeof fetch = async (input, init) => {
    counts.total += 1;
    try {
      const response = await fetch(input, init);
      if (response.status >= 500 || response.status === 429) {
        counts.failed += 1;
        const mode = String(response.status);
        counts.byMode[mode] = (counts.byMode[mode] ?? 0) + 1;
      }
      return response;
    } catch (err) {
      if (!init?.signal?.aborted) {
        counts.failed += 1;
        counts.byMode['network']! += 1;
      } else counts.total -= 1;
      throw err;
    }
  };
  return { counts, fetch: wrapped };
}

describe('replay under faults and crashes', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dataset: 'demo', admin: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'ends with the server in exactly the intended state, each op done once, after 20+ kills',
    { timeout: 180_000 },
    async () => {
      const scenario = mixedScenario(server, { users: 220, newUsers: 20, seed: 11 });
      expect(scenario.drafts.length).toBeGreaterThanOrEqual(1000);
      expect(scenario.users).toBeGreaterThanOrEqual(200);

      const db = openOutboxOnlyDb('replay-integration');
      const queued = await enqueueOps(db, scenario.drafts);
      const counting = countingFetch();
      const client = new ApiClient({
        baseUrl: server.baseUrl,
        token: tokenFor(server, 'full'),
        fetch: counting.fetch,
        timeoutMs: 5_000,
        sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 5))),
      });
      const execute: ReplayExecutor = async (req, signal) => ({
        ok: true,
        value: await executeReplay(client, req, signal),
      });
      const random = seeded(3);
      const open = () =>
        OutboxEngine.open({
          db,
          execute,
          actor: 'integration',
          concurrency: 4,
          backoff: { baseMs: 2, maxMs: 40 },
          random,
        });

      server.setFaults(FAULTS);
      let landedMidFlight = 0;
      for (let kill = 0; kill < KILLS; kill++) {
        const engine = await open();
        engine.setOnline(true);
        await new Promise((r) => setTimeout(r, 10 + random() * 150));
        // aim the kill at a moment with requests in flight (between sending and recording), as a crash would land
        for (let waited = 0; engine.state().inFlight === 0 && waited < 2_000; waited += 1)
          await new Promise((r) => setTimeout(r, 1));
        if (engine.state().inFlight > 0) landedMidFlight += 1;
        await engine.kill();
      }
      const survivor = await open();
      survivor.setOnline(true);
      await survivor.whenIdle();
      server.setFaults({
        errorRate: 0,
        dropRate: 0,
        lostResponseRate: 0,
        maxInFlightPerToken: 0,
        latencyMs: 0,
      });

      const share = counting.counts.failed / counting.counts.total;
      console.info(
        `replay: ${queued.length} ops, ${counting.counts.total} requests, ${(share * 100).toFixed(1)}% failed`,
        counting.counts.byMode,
        `${landedMidFlight}/${KILLS} kills mid-flight`,
      );
      expect(share).toBeGreaterThanOrEqual(0.2);
      for (const mode of ['500', '503', '429', 'network'])
        expect(counting.counts.byMode[mode]).toBeGreaterThan(0);
      expect(landedMidFlight).toBeGreaterThanOrEqual(20);

      // every op has an outcome: all done, each with exactly one 'done' audit entry
      const ops = await db.outbox.toArray();
      expect(
        ops
          .filter((op) => op.status !== 'done')
          .map((op) => `${op.summary}: ${op.status} ${op.lastError?.message ?? ''}`),
      ).toEqual([]);
      expect(ops).toHaveLength(queued.length);
      const doneEntries = (await db.audit.toArray()).filter((e) => e.outcome === 'done');
      const perOp = new Map<string, number>();
      for (const e of doneEntries) perOp.set(e.opId, (perOp.get(e.opId) ?? 0) + 1);
      expect(perOp.size).toBe(queued.length);
      expect([...perOp.values()].every((n) => n === 1)).toBe(true);

      // exactly one write reached the server per op: the server counts every write its handlers saw,
      // a blind resend answered 1002 included, so a duplicate send shows here even when the state looks right
      const expected = new Map<string, number>();
      for (const op of ops) {
        const write = writeRequestOf(op.op);
        const target = `${write.method} ${write.path}`;
        expected.set(target, (expected.get(target) ?? 0) + 1);
      }
      const reached = server.writeCounts();
      const sentTwice = [...reached]
        .filter(([target, n]) => n > (expected.get(target) ?? 0))
        .map(([target, n]) => `${target}: ${n} writes for ${expected.get(target) ?? 0} ops`);
      expect(sentTwice).toEqual([]);
      const neverSent = [...expected]
        .filter(([target, n]) => (reached.get(target) ?? 0) < n)
        .map(([target, n]) => `${target}: ${reached.get(target) ?? 0} writes for ${n} ops`);
      expect(neverSent).toEqual([]);

      // zero lost, zero duplicated: the server holds exactly the intended state
      const snapshot = server.snapshot();
      expect(comparable(stateOf(snapshot))).toEqual(comparable(scenario.intended));
      const created = snapshot.users.filter((u) => u.username.startsWith('replay-new-'));
      expect(created).toHaveLength(20);
      expect(snapshot.emails.filter((e) => e.email.endsWith('@example.test'))).toHaveLength(
        scenario.drafts.filter((d) => d.op.kind === 'email.add').length,
      );
      db.close();
    },
  );
});
