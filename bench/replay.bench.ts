/**
 * Replay throughput, measured where the app replays: 5,000 status changes
 * drained by the outbox engine in Chromium (the app's database in real
 * IndexedDB with strict durability, the cache refreshed after each op) through
 * `replay:execute` to the real main-process handlers (executeReplay + ApiClient,
 * over the harness's WebSocket bridge), against the reference server in its own
 * process with no faults, at the engine's default concurrency.
 *
 * Floor: the same requests (the read for the conflict check, then the PUT)
 * sent by a plain loop at the same concurrency from the main-process side (this
 * process, which hosts the handlers), with the same ApiClient. Floor and engine
 * alternate in rounds over fresh users, so a change in the machine's load hits
 * both alike. Also: enqueueing one op into the outbox, in the page.
 */
import { cpus } from 'node:os';
import { ApiClient } from '../src/main/api/client.ts';
import { benchPage } from './browser-lib.ts';
import { cpuDelta, cpuMsPer, cpuSeconds, describeCpu, type CpuRole, type CpuSeconds } from './cpu-lib.ts';
import { percentile, perSecond, type BenchContext, type Figure } from './lib.ts';
import type { BenchChange, BenchUser } from './page-api.ts';
import { startBenchSession } from './session-lib.ts';

export const name = 'replay';
export const description = 'Replaying 5,000 status changes in Chromium through main vs a plain loop of the same requests; enqueue latency';

const OPS = 5_000;
const WARMUP_OPS = 300;
const ROUNDS = 5;
const CONCURRENCY = 4; // the engine's default
const ENQUEUE_RUNS = 200;

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

/** The first `count` users the token sees, through the list route. */
async function listUsers(client: ApiClient, count: number): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let startrow = 1; users.length < count; startrow += 1000) {
    const page = await client.getPage('/users', 'users', 'user', { startrow, limit: 1000 });
    if (page.empty || page.items.length === 0) break;
    for (const u of page.items) users.push({ userid: u.userid, siteid: u.siteid, username: u.username, status: u.status });
  }
  if (users.length < count) throw new Error(`the dataset has ${users.length} users; the benchmark needs ${count}`);
  return users.slice(0, count);
}

interface Phase {
  ms: number;
  cpu: CpuSeconds;
}

/** Runs `work` and notes its wall time and the CPU each process spent meanwhile. */
async function measured(serverPid: number | undefined, work: () => Promise<number | void>): Promise<Phase> {
  const before = cpuSeconds(serverPid);
  const started = performance.now();
  const reported = await work();
  const ms = typeof reported === 'number' ? reported : performance.now() - started;
  return { ms, cpu: cpuDelta(before, cpuSeconds(serverPid)) };
}

function total(phases: Phase[]): Phase {
  const cpu: CpuSeconds = {};
  for (const phase of phases) for (const [role, s] of Object.entries(phase.cpu) as [CpuRole, number][]) cpu[role] = (cpu[role] ?? 0) + s;
  return { ms: phases.reduce((sum, p) => sum + p.ms, 0), cpu };
}

export async function run(ctx: BenchContext): Promise<Figure[]> {
  const session = await startBenchSession(ctx, 'm');
  try {
    const client = new ApiClient({ baseUrl: session.server.baseUrl, token: session.server.token });
    // the status each user has on the server now (a round leaves its users changed)
    const users = await listUsers(client, OPS);
    const page = await session.context.newPage();
    await page.goto(session.benchUrl);
    const bench = benchPage(page);
    await bench.ready();
    await bench.replayOpen(users);

    const serverPid = session.server.pid;
    const floor: Phase[] = [];
    const ipcFloor: Phase[] = [];
    const engine: Phase[] = [];
    const perRound = Math.ceil(users.length / ROUNDS);
    // Each round changes its users three times: the floor, the IPC floor, the engine, so a change in the
    // machine's load hits all three alike. The first round (r = -1) warms up every path and is not counted.
    for (let r = -1; r < ROUNDS; r++) {
      const from = r < 0 ? 0 : r * perRound;
      const slice = users.slice(from, r < 0 ? WARMUP_OPS : from + perRound);
      // the floor changes each user's status, the IPC floor changes it back, the engine changes it again
      const there: BenchChange[] = slice.map((u) => ({ userid: u.userid, username: u.username, status: toggled(u.status), base: u.status }));
      const back: BenchChange[] = there.map((c) => ({ ...c, status: c.base, base: c.status }));
      ctx.log(r < 0 ? 'replay: warm-up round' : `replay: round ${r + 1}/${ROUNDS}: floor (GET + PUT per change from main), IPC floor, then the outbox engine`);
      const byFloor = await measured(serverPid, () =>
        plainLoop(slice.length, CONCURRENCY, async (i) => {
          const u = there[i]!;
          await client.request('GET', `/users/${u.userid}`);
          await client.request('PUT', `/users/${u.userid}`, { body: { status: u.status } });
        }),
      );
      const byIpcFloor = await measured(serverPid, () => bench.replayIpcFloor(back, CONCURRENCY));
      const byEngine = await measured(serverPid, async () => (await bench.replayRound(there)).ms);
      for (const [k, c] of there.entries()) users[from + k]!.status = c.status;
      if (r < 0) continue;
      floor.push(byFloor);
      ipcFloor.push(byIpcFloor);
      engine.push(byEngine);
      const sofar = slice.length + perRound * r;
      ctx.log(`replay: so far: floor ${perSecond(sofar, total(floor).ms)} ops/s, IPC floor ${perSecond(sofar, total(ipcFloor).ms)} ops/s, engine ${perSecond(sofar, total(engine).ms)} ops/s`);
    }
    ctx.log('replay: write floor: the outcome rows alone, in the engine\'s groups');
    const writes = await measured(serverPid, () => bench.replayWriteFloor(users.length));
    const cpu = (phases: Phase[]) => describeCpu(cpuMsPer(total(phases).cpu, users.length));
    const cpuSum = (phases: Phase[]) => Object.values(cpuMsPer(total(phases).cpu, users.length)).reduce((sum, ms) => sum + ms, 0);
    ctx.log(`replay: CPU ms per op: floor ${cpu(floor)}; IPC floor ${cpu(ipcFloor)}; write floor ${cpu([writes])}; engine ${cpu(engine)}`);
    // What no engine could beat here: each op costs at least the IPC floor's CPU plus writing its outcome, on this many cores.
    const ceiling = Math.round((cpus().length * 1000) / (cpuSum(ipcFloor) + cpuSum([writes])));
    const totals = await bench.replayTotals();
    const done = (totals.byStatus.done ?? 0) - WARMUP_OPS;
    const unfinished = Object.entries(totals.byStatus).filter(([status]) => status !== 'done');

    ctx.log(`replay: enqueue latency (${ENQUEUE_RUNS} runs)`);
    const enqueueMs = await bench.replayEnqueueLatency(users, ENQUEUE_RUNS);
    await bench.replayClose();
    await page.close();

    const opsPerSecond = perSecond(done, total(engine).ms);
    const floorPerSecond = perSecond(users.length, total(floor).ms);
    const ipcFloorPerSecond = perSecond(users.length, total(ipcFloor).ms);
    const ratioTo = (base: number) => (base > 0 ? Math.round((opsPerSecond / base) * 100) / 100 : 0);
    const p95 = Math.round(percentile(enqueueMs, 95) * 10) / 10;
    const problems = [
      ...(done !== users.length ? [`${done} of ${users.length} done`] : []),
      ...unfinished.map(([status, n]) => `${n} ${status}`),
      ...(totals.alreadyInEffect > 0 ? [`${totals.alreadyInEffect} found already in effect`] : []),
    ];
    const problemNote = problems.length ? `${problems.join(', ')}; ` : '';
    return [
      {
        name: `replay ${done} status changes (concurrency ${CONCURRENCY})`,
        value: opsPerSecond,
        unit: 'ops/s',
        floor: floorPerSecond,
        ratio: ratioTo(floorPerSecond),
        target: '>= 0.8x floor',
        pass: ratioTo(floorPerSecond) >= 0.8 && problems.length === 0,
        note: `${problemNote}ceiling here ${ceiling} ops/s (${floorPerSecond > 0 ? Math.round((ceiling / floorPerSecond) * 100) / 100 : 0}x floor) = ${cpus().length} cores / the CPU per op of the IPC floor + the write floor; floor = a plain loop of the same GET+PUT from main (this process) with the same ApiClient; engine in Chromium (IndexedDB, strict durability, cache refreshed) through replay:execute; server in its own process; ${cpus().length} CPU cores. CPU ms per op: floor ${cpu(floor)}; engine ${cpu(engine)}`,
      },
      {
        name: 'replay vs the same changes through replay:execute, no queue',
        value: opsPerSecond,
        unit: 'ops/s',
        floor: ipcFloorPerSecond,
        ratio: ratioTo(ipcFloorPerSecond),
        note: `IPC floor = a plain loop in the page calling replay:execute once per change (the app's path to the API without the outbox): what the durable queue itself costs. CPU ms per op: IPC floor ${cpu(ipcFloor)}`,
      },
      {
        name: 'write floor: outcome + audit rows alone, groups of 32',
        value: perSecond(users.length, writes.ms),
        unit: 'ops/s',
        note: `strict durability, no network; CPU ms per op: ${cpu([writes])}`,
      },
      { name: `enqueue one op, p95 (${ENQUEUE_RUNS} runs, ${OPS}+ in the outbox)`, value: p95, unit: 'ms', target: '<= 50 ms', pass: p95 <= 50 },
    ];
  } finally {
    await session.close();
  }
}
