/**
 * Replay throughput, measured where the app replays: status changes drained by
 * the outbox engine in Chromium (the app's database in real IndexedDB with
 * strict durability, the cache refreshed after each op), in batches through
 * `replay:executeBatch` to the real main-process handlers (list reads +
 * executeReplay + ApiClient, over the harness's WebSocket bridge), against the
 * reference server in its own process, at the engine's default concurrency:
 * 5,000 changes at 0 ms per request, then 1,000 at 50 ms (the server's latency
 * fault, set through its admin API), the latency of a real network.
 *
 * Floor: the plain loop the issue names (a GET of the record for the conflict
 * check, then the PUT) at the same concurrency from the main-process side (this
 * process, which hosts the handlers), with the same ApiClient. Requests are
 * counted on both sides: the floor's by its own fetch, the app's by the fetch
 * the handlers use. Floor and engine alternate in rounds over fresh users, so a
 * change in the machine's load hits both alike. Also: enqueueing one op into
 * the outbox, in the page.
 */
import { cpus, loadavg } from 'node:os';
import { ApiClient } from '../src/main/api/client.ts';
import { FRESH_MS } from '../src/main/replay/list-reads.ts';
import { benchPage, type BenchPage } from './browser-lib.ts';
import { cpuDelta, cpuMsPer, cpuSeconds, describeCpu, type CpuRole, type CpuSeconds } from './cpu-lib.ts';
import { percentile, perSecond, type BenchContext, type Figure } from './lib.ts';
import type { BenchChange, BenchUser } from './page-api.ts';
import { startBenchSession, type BenchSession } from './session-lib.ts';

export const name = 'replay';
export const description =
  'Replaying 5,000 status changes at 0 ms and 1,000 at 50 ms per request in Chromium through main vs a plain GET+PUT loop; enqueue latency';

const CONCURRENCY = 4; // the engine's default
/** FIELDBOOK_REPLAY_PACKED=1: the engine's changes queued packed, as an import queues them (packs.ts) */
const PACKED = process.env['FIELDBOOK_REPLAY_PACKED'] === '1';
const ENQUEUE_RUNS = 200;

/** One latency: how many changes, in how many counted rounds, after a warm-up round of `warmup` changes. */
interface LatencySet {
  latencyMs: number;
  ops: number;
  rounds: number;
  warmup: number;
}
const SETS: LatencySet[] = [
  { latencyMs: 0, ops: 5_000, rounds: 5, warmup: 300 },
  { latencyMs: 50, ops: 1_000, rounds: 2, warmup: 100 },
];

async function plainLoop(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<void>,
): Promise<number> {
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
const loadNow = () => Math.round(loadavg()[0]! * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The first `count` users the token sees, through the list route. */
async function listUsers(client: ApiClient, count: number): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let startrow = 1; users.length < count; startrow += 1000) {
    const page = await client.getPage('/users', 'users', 'user', { startrow, limit: 1000 });
    if (page.empty || page.items.length === 0) break;
    for (const u of page.items)
      users.push({ userid: u.userid, siteid: u.siteid, username: u.username, status: u.status });
  }
  if (users.length < count)
    throw new Error(`the dataset has ${users.length} users; the benchmark needs ${count}`);
  return users.slice(0, count);
}

interface Phase {
  ms: number;
  cpu: CpuSeconds;
  requests: number;
}

/** Runs `work` and notes its wall time, the requests `counted` saw and the CPU each process spent meanwhile. */
async function measured(
  serverPid: number | undefined,
  counted: () => number,
  work: () => Promise<number | void>,
): Promise<Phase> {
  const before = cpuSeconds(serverPid);
  const requestsBefore = counted();
  const started = performance.now();
  const reported = await work();
  const ms = typeof reported === 'number' ? reported : performance.now() - started;
  return { ms, cpu: cpuDelta(before, cpuSeconds(serverPid)), requests: counted() - requestsBefore };
}

function total(phases: Phase[]): Phase {
  const cpu: CpuSeconds = {};
  for (const phase of phases)
    for (const [role, s] of Object.entries(phase.cpu) as [CpuRole, number][])
      cpu[role] = (cpu[role] ?? 0) + s;
  return {
    ms: phases.reduce((sum, p) => sum + p.ms, 0),
    cpu,
    requests: phases.reduce((sum, p) => sum + p.requests, 0),
  };
}

const cpuSum = (phases: Phase[], ops: number) =>
  Object.values(cpuMsPer(total(phases).cpu, ops)).reduce((sum, ms) => sum + ms, 0);

interface Rig {
  session: BenchSession;
  bench: BenchPage;
  /** the floor's client, its requests counted */
  client: ApiClient;
  floorRequests: () => number;
  users: BenchUser[];
}

interface Rounds {
  floor: Phase[];
  ipcFloor: Phase[];
  engine: Phase[];
  ops: number;
}

/**
 * Each round changes its users three times: the floor, the IPC floor, the
 * engine, so a change in the machine's load hits all three alike. The first
 * round (r = -1) warms up every path and is not counted.
 */
async function rounds(ctx: BenchContext, rig: Rig, set: LatencySet): Promise<Rounds> {
  const { session, bench, client, users } = rig;
  const serverPid = session.server.pid;
  const out: Rounds = { floor: [], ipcFloor: [], engine: [], ops: 0 };
  const perRound = Math.ceil(set.ops / set.rounds);
  const at = `${set.latencyMs} ms`;
  for (let r = -1; r < set.rounds; r++) {
    const from = r < 0 ? 0 : r * perRound;
    const slice = users.slice(from, r < 0 ? set.warmup : Math.min(set.ops, from + perRound));
    // the floor changes each user's status, the IPC floor changes it back, the engine changes it again
    const there: BenchChange[] = slice.map((u) => ({
      userid: u.userid,
      username: u.username,
      status: toggled(u.status),
      base: u.status,
    }));
    const back: BenchChange[] = there.map((c) => ({ ...c, status: c.base, base: c.status }));
    const roundNumber = r + 1;
    ctx.log(
      r < 0
        ? `replay ${at}: warm-up round`
        : `replay ${at}: round ${roundNumber}/${set.rounds}: floor (GET + PUT per change from main), IPC floor, then the outbox engine`,
    );
    const byFloor = await measured(serverPid, rig.floorRequests, () =>
      plainLoop(slice.length, CONCURRENCY, async (i) => {
        const u = there[i]!;
        await client.request('GET', `/users/${u.userid}`);
        await client.request('PUT', `/users/${u.userid}`, { body: { status: u.status } });
      }),
    );
    const handled = () => session.requests.length;
    const byIpcFloor = await measured(serverPid, handled, () => bench.replayIpcFloor(back, CONCURRENCY));
    const byEngine = await measured(
      serverPid,
      handled,
      async () => (await bench.replayRound(there, PACKED)).ms,
    );
    for (const [k, c] of there.entries()) users[from + k]!.status = c.status;
    // The engine's list reads hold copies of every user for FRESH_MS, and within that bound a change made by
    // another client is not seen (the window the bound allows). The floors are other clients changing the
    // same users: they wait until main's copies are stale, as a replay's people are left alone by others.
    await new Promise((resolve) => setTimeout(resolve, FRESH_MS));
    if (r < 0) continue;
    out.floor.push(byFloor);
    out.ipcFloor.push(byIpcFloor);
    out.engine.push(byEngine);
    out.ops += slice.length;
    const floorRate = perSecond(out.ops, total(out.floor).ms);
    const ipcFloorRate = perSecond(out.ops, total(out.ipcFloor).ms);
    const engineRate = perSecond(out.ops, total(out.engine).ms);
    ctx.log(
      `replay ${at}: so far: floor ${floorRate} ops/s, IPC floor ${ipcFloorRate} ops/s, engine ${engineRate} ops/s`,
    );
  }
  return out;
}

/** The figures of one latency: throughput and requests against the plain loop, CPU per op by process. */
async function latencyFigures(
  ctx: BenchContext,
  rig: Rig,
  set: LatencySet,
): Promise<{ figures: Figure[]; floorPerSecond: number; ipcFloorCpuPerOp: number }> {
  const at = `${set.latencyMs} ms/request`;
  await rig.session.server.admin('faults', { latencyMs: set.latencyMs });
  try {
    const loadBefore = loadNow();
    const totalsBefore = await rig.bench.replayTotals();
    const r = await rounds(ctx, rig, set);
    const totalsAfter = await rig.bench.replayTotals();
    const done = (totalsAfter.byStatus.done ?? 0) - (totalsBefore.byStatus.done ?? 0) - set.warmup;
    const unfinished = Object.entries(totalsAfter.byStatus).filter(([status]) => status !== 'done');
    const inEffect = totalsAfter.alreadyInEffect - totalsBefore.alreadyInEffect;
    const problems = [
      ...(done !== r.ops ? [`${done} of ${r.ops} done`] : []),
      ...unfinished.map(([status, n]) => `${n} ${status}`),
      ...(inEffect > 0 ? [`${inEffect} found already in effect`] : []),
    ];
    const load = `load average ${loadBefore} -> ${loadNow()}, ${cpus().length} CPU cores`;
    const cpu = (phases: Phase[]) => describeCpu(cpuMsPer(total(phases).cpu, r.ops));
    ctx.log(
      `replay ${at}: CPU ms per op: floor ${cpu(r.floor)}; IPC floor ${cpu(r.ipcFloor)}; engine ${cpu(r.engine)}`,
    );
    const engine = total(r.engine);
    const floor = total(r.floor);
    const ipcFloor = total(r.ipcFloor);
    const opsPerSecond = perSecond(r.ops, engine.ms);
    const floorPerSecond = perSecond(r.ops, floor.ms);
    const ratio = floorPerSecond > 0 ? round2(opsPerSecond / floorPerSecond) : 0;
    const requestRatio = floor.requests > 0 ? round2(engine.requests / floor.requests) : 0;
    const cpuRatio = round2(cpuSum(r.engine, r.ops) / Math.max(0.01, cpuSum(r.ipcFloor, r.ops)));
    const problemNote = problems.length ? `${problems.join(', ')}; ` : '';
    const slow = set.latencyMs > 0;
    const floorCpu = cpu(r.floor);
    const ipcFloorCpu = cpu(r.ipcFloor);
    const engineCpu = cpu(r.engine);
    const ipcFloorRate = perSecond(r.ops, ipcFloor.ms);
    const figures: Figure[] = [
      {
        name: `replay ${r.ops} status changes${PACKED ? ' queued packed' : ''}, ${at} (concurrency ${CONCURRENCY})`,
        value: opsPerSecond,
        unit: 'ops/s',
        floor: floorPerSecond,
        ratio,
        ...(slow ? { target: '>= 1.8x floor', pass: ratio >= 1.8 && problems.length === 0 } : {}),
        note: `${problemNote}floor = a plain loop of GET+PUT per change from main (this process) with the same ApiClient; engine in Chromium (IndexedDB, strict durability, cache refreshed) in batches through replay:executeBatch; server in its own process; ${load}. CPU ms per op: floor ${floorCpu}; engine ${engineCpu}`,
      },
      {
        name: `requests per change, ${at}`,
        value: round2(engine.requests / r.ops),
        unit: 'requests',
        floor: round2(floor.requests / r.ops),
        ratio: requestRatio,
        ...(slow ? { target: '<= 0.55x floor', pass: requestRatio <= 0.55 } : {}),
        note: `engine ${engine.requests} requests (counted by the handlers' fetch), floor ${floor.requests} (its own fetch), IPC floor ${ipcFloor.requests}, for ${r.ops} changes`,
      },
      {
        name: `CPU per op, engine vs the IPC floor, ${at}`,
        value: round2(cpuSum(r.engine, r.ops)),
        unit: 'ms',
        floor: round2(cpuSum(r.ipcFloor, r.ops)),
        ratio: cpuRatio,
        ...(slow ? {} : { target: '<= 1.5x IPC floor', pass: cpuRatio <= 1.5 }),
        note: `all processes; IPC floor = a plain loop in the page calling replay:execute once per change (${ipcFloorRate} ops/s): the app's path to the API without the queue. CPU ms per op: IPC floor ${ipcFloorCpu}; engine ${engineCpu}; ${load}`,
      },
    ];
    return { figures, floorPerSecond, ipcFloorCpuPerOp: cpuSum(r.ipcFloor, r.ops) };
  } finally {
    await rig.session.server.admin('faults', { latencyMs: 0 });
  }
}

export async function run(ctx: BenchContext): Promise<Figure[]> {
  const session = await startBenchSession(ctx, 'm');
  try {
    let floorRequests = 0;
    const counting: typeof fetch = (input, init) => {
      floorRequests += 1;
      return fetch(input, init);
    };
    const client = new ApiClient({
      baseUrl: session.server.baseUrl,
      token: session.server.token,
      fetch: counting,
    });
    // the status each user has on the server now (a round leaves its users changed)
    const users = await listUsers(client, Math.max(...SETS.map((set) => set.ops)));
    const page = await session.context.newPage();
    await page.goto(session.benchUrl);
    const bench = benchPage(page);
    await bench.ready();
    await bench.replayOpen(users);
    const rig: Rig = { session, bench, client, floorRequests: () => floorRequests, users };

    const [atZero, atLatency] = SETS as [LatencySet, LatencySet];
    const zero = await latencyFigures(ctx, rig, atZero);
    ctx.log("replay: write floor: the outcome rows alone, in the engine's groups");
    const writes = await measured(
      session.server.pid,
      () => 0,
      () => bench.replayWriteFloor(atZero.ops),
    );
    const writeCpuPerOp = Object.values(cpuMsPer(writes.cpu, atZero.ops)).reduce((sum, ms) => sum + ms, 0);
    // What a queue sending one replay:execute per op could not beat here at 0 ms: each op costs the IPC floor's CPU
    // plus writing its outcome.
    const cores = cpus().length;
    const ceiling = Math.round((cores * 1000) / (zero.ipcFloorCpuPerOp + writeCpuPerOp));
    const writeRate = perSecond(atZero.ops, writes.ms);
    const writeCpu = describeCpu(cpuMsPer(writes.cpu, atZero.ops));
    const figures: Figure[] = [
      ...zero.figures,
      {
        name: 'ceiling at 0 ms/request of one replay:execute per op (CPU-bound)',
        value: ceiling,
        unit: 'ops/s',
        floor: zero.floorPerSecond,
        ratio: zero.floorPerSecond > 0 ? round2(ceiling / zero.floorPerSecond) : 0,
        note: `${cores} cores / (CPU per op of the IPC floor + the write floor): what a durable queue in the page sending one replay:execute per op could not pass on this machine at 0 ms (the batched engine spends less per op than the IPC floor: fewer requests and messages); write floor ${writeRate} ops/s (outcome + audit rows alone, groups of 32, strict durability, no network; CPU ms per op ${writeCpu})`,
      },
      ...(await latencyFigures(ctx, rig, atLatency)).figures,
    ];

    ctx.log(`replay: enqueue latency (${ENQUEUE_RUNS} runs)`);
    const enqueueMs = await bench.replayEnqueueLatency(users, ENQUEUE_RUNS);
    await bench.replayClose();
    await page.close();
    const p95 = Math.round(percentile(enqueueMs, 95) * 10) / 10;
    figures.push({
      name: `enqueue one op, p95 (${ENQUEUE_RUNS} runs, ${SETS[0]!.ops}+ in the outbox)`,
      value: p95,
      unit: 'ms',
      target: '<= 50 ms',
      pass: p95 <= 50,
    });
    return figures;
  } finally {
    await session.close();
  }
}
