/**
 * Replay throughput: 5,000 status changes replayed by the outbox engine (durable
 * queue in IndexedDB — fake-indexeddb under Node — + executeReplay + ApiClient)
 * against the reference server with no faults, at the default concurrency,
 * compared with the floor: the same requests (read for the conflict check, then
 * the PUT) sent by a plain loop at the same concurrency. Also: enqueueing one op.
 *
 * The server runs on its own thread (as a real server is elsewhere): on one
 * event loop, the queue's IndexedDB work and the server's would slow each other.
 */
import 'fake-indexeddb/auto';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { startServer, tokenFor, type RunningServer, type Snapshot } from '../src/server/index.ts';
import { ApiClient } from '../src/main/api/client.ts';
import { executeReplay } from '../src/main/replay/index.ts';
import { openOutboxOnlyDb } from '../src/shared/replay-queue/db.ts';
import { OutboxEngine } from '../src/shared/replay-queue/engine.ts';
import { enqueueOps, type OpDraft } from '../src/shared/replay-queue/queue.ts';
import { percentile, perSecond, type BenchContext, type Figure } from './lib.ts';

export const name = 'replay';
export const description = 'Replaying 5,000 status changes vs a plain loop of the same requests; enqueue latency';

const OPS = 5_000;
const CONCURRENCY = 4; // the engine's default

async function plainLoop(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
  return performance.now() - started;
}

const toggled = (status: string) => (status === 'Active' ? 'Inactive' : 'Active');

interface ServerThread {
  baseUrl: string;
  token: string;
  users: Snapshot['users'];
  close(): Promise<void>;
}

/** The reference server on a worker thread (this same module, started with workerData.role = 'replay-server'). */
async function serverThread(dataset: 'm'): Promise<ServerThread> {
  const worker = new Worker(new URL(import.meta.url), { workerData: { role: 'replay-server', dataset } });
  const ready = await new Promise<{ baseUrl: string; token: string; users: Snapshot['users'] }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { ...ready, close: async () => void (await worker.terminate()) };
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === 'replay-server') {
  const { dataset } = workerData as { dataset: 'm' };
  const running: RunningServer = await startServer({ dataset });
  parentPort?.postMessage({ baseUrl: running.baseUrl, token: tokenFor(running, 'full'), users: running.snapshot().users });
}

export async function run(ctx: BenchContext): Promise<Figure[]> {
  ctx.log('replay: generating dataset m (server thread)');
  const server = await serverThread('m');
  try {
    const client = new ApiClient({ baseUrl: server.baseUrl, token: server.token });
    const users = server.users.filter((u) => u.siteid < 900).slice(0, OPS);

    // Floor and engine alternate in rounds over fresh users, so a change in the machine's load hits both alike.
    const db = openOutboxOnlyDb(`bench-replay-${Date.now()}`);
    const engine = await OutboxEngine.open({ db, actor: 'bench', execute: async (req, signal) => ({ ok: true, value: await executeReplay(client, req, signal) }) });
    engine.setOnline(true);
    let floorMs = 0;
    let putOnlyMs = 0;
    let replayMs = 0;
    const rounds = 5;
    const perRound = Math.ceil(users.length / rounds);
    // the first round (r = -1) warms up both paths (JIT, connections) and is not counted
    for (let r = -1; r < rounds; r++) {
      const slice = r < 0 ? users.slice(0, 300) : users.slice(r * perRound, (r + 1) * perRound);
      if (r === 0) {
        floorMs = 0;
        putOnlyMs = 0;
        replayMs = 0;
      }
      ctx.log(r < 0 ? 'replay: warm-up round' : `replay: round ${r + 1}/${rounds}: plain loop (GET + PUT per change), then the outbox engine`);
      floorMs += await plainLoop(slice.length, CONCURRENCY, async (i) => {
        const u = slice[i]!;
        await client.request('GET', `/users/${u.userid}`);
        await client.request('PUT', `/users/${u.userid}`, { body: { status: toggled(u.status) } });
      });
      // the engine toggles them back from the state the floor left
      const drafts: OpDraft[] = slice.map((u) => ({ op: { kind: 'user.update', userid: u.userid, changes: { status: u.status } }, base: { status: toggled(u.status) }, summary: u.username }));
      await enqueueOps(db, drafts);
      const started = performance.now();
      await engine.reload();
      await engine.whenIdle();
      replayMs += performance.now() - started;
      if (r >= 0) ctx.log(`replay: round ${r + 1}: floor ${perSecond(slice.length * (r + 1), floorMs)} ops/s so far, engine ${perSecond(slice.length * (r + 1), replayMs)} ops/s so far`);
      putOnlyMs += await plainLoop(slice.length, CONCURRENCY, async (i) => {
        const u = slice[i]!;
        await client.request('PUT', `/users/${u.userid}`, { body: { status: u.status } });
      });
    }
    const done = (await db.outbox.where('status').equals('done').count()) - 300;
    const alreadyThere = (await db.audit.toArray()).filter((e) => e.message.includes('already in effect')).length;
    await engine.kill();

    ctx.log('replay: enqueue latency');
    const enqueueMs: number[] = [];
    for (let i = 0; i < 200; i++) {
      const u = users[i % users.length]!;
      const t = performance.now();
      await enqueueOps(db, [{ op: { kind: 'user.update', userid: u.userid, changes: { firstname: `B${i}` } }, base: { firstname: u.firstname }, summary: 'bench' }]);
      enqueueMs.push(performance.now() - t);
    }
    db.close();

    const opsPerSecond = perSecond(done, replayMs);
    const floorPerSecond = perSecond(users.length, floorMs);
    const ratio = floorPerSecond > 0 ? Math.round((opsPerSecond / floorPerSecond) * 100) / 100 : 0;
    const p95 = Math.round(percentile(enqueueMs, 95) * 10) / 10;
    return [
      {
        name: `replay ${done} status changes (concurrency ${CONCURRENCY})`,
        value: opsPerSecond,
        unit: 'ops/s',
        floor: floorPerSecond,
        ratio,
        target: '>= 0.8x floor',
        pass: ratio >= 0.8 && done === users.length && alreadyThere === 0,
        note: `floor = plain loop of the same GET+PUT (the read is the conflict check); a PUT-only loop does ${perSecond(users.length, putOnlyMs)} ops/s; durable queue in fake-indexeddb, server on its own thread`,
      },
      { name: 'enqueue one op, p95 (200 runs, 5,000 queued)', value: p95, unit: 'ms', target: '<= 50 ms', pass: p95 <= 50 },
    ];
  } finally {
    await server.close();
  }
}
