/**
 * The reference server must never be the bottleneck: pages of 1,000 users and
 * of 1,000 training assignments at 4 requests in flight, dataset `l`
 * (target >= 50,000 records/s), and the time to generate `l` (target < 60 s).
 * The server runs in its own process (the CLI), as it does for the app's
 * benchmarks, so the client's JSON parsing does not share its thread.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { todayIso } from '../src/shared/dates.ts';
import { generateDataset } from '../src/server/generate.ts';
import { Store } from '../src/server/store.ts';
import { perSecond, type BenchContext, type Figure } from './lib.ts';

export const name = 'server';
export const description =
  'reference server: generate dataset l, then page users and training assignments (1,000 per page, 4 in flight)';

const PAGE = 1000;
const IN_FLIGHT = 4;
const TARGET_RATE = 50_000;

interface Started {
  child: ChildProcess;
  baseUrl: string;
  token: string;
}

async function startCli(root: string): Promise<Started> {
  const child = spawn(
    process.execPath,
    ['--no-warnings', 'src/server/cli.ts', '--port', '0', '--dataset', 'l'],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    lines.once('line', resolve);
  });
  const info = JSON.parse(first) as { baseUrl: string; tokens: { token: string; access: string }[] };
  const token = info.tokens.find((t) => t.access === 'full')?.token;
  if (!token) throw new Error('no full-access token printed');
  return { child, baseUrl: info.baseUrl, token };
}

/** Reads a whole list with `IN_FLIGHT` pages requested at once; stops at the first short page or 901. */
async function drain(
  url: (startrow: number) => string,
  key: string,
  token: string,
): Promise<{ records: number; pages: number; ms: number }> {
  let next = 1;
  let done = false;
  let records = 0;
  let pages = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (!done) {
      const startrow = next;
      next += PAGE;
      const res = await fetch(url(startrow), {
        headers: { AccessToken: token, 'Cache-Control': 'no-cache' },
      });
      const body = (await res.json()) as Record<string, unknown>;
      const list = body[key];
      if (!Array.isArray(list)) {
        done = true;
        break;
      }
      records += list.length;
      pages++;
      if (list.length < PAGE) done = true;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { records, pages, ms: performance.now() - started };
}

/**
 * CPU seconds the server process has used (Linux /proc; clock ticks of 1/100 s).
 * Records per server CPU second is the server's capacity even when other work
 * shares the machine's two cores; wall-clock rate is what a client sees.
 */
function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

interface Measured {
  records: number;
  pages: number;
  ms: number;
  cpu: number | null;
}

function cpuFigure(label: string, r: Measured): Figure[] {
  if (r.cpu === null || r.cpu <= 0) return [];
  const value = Math.round(r.records / r.cpu);
  return [
    {
      name: `${label}, per server CPU second`,
      value,
      unit: 'records/cpu-s',
      target: `>= ${TARGET_RATE.toLocaleString('en-US')} records/cpu-s`,
      ratio: Math.round((value / TARGET_RATE) * 100) / 100,
      pass: value >= TARGET_RATE,
      note: `server used ${r.cpu.toFixed(2)} CPU s`,
    },
  ];
}

/** Drains a list `passes` times, adding up records, pages, wall time and the server's CPU time. */
async function measure(
  server: Started,
  urls: ((startrow: number) => string)[],
  key: string,
): Promise<Measured> {
  const total: Measured = { records: 0, pages: 0, ms: 0, cpu: 0 };
  const cpuBefore = cpuSeconds(server.child.pid);
  for (const url of urls) {
    const r = await drain(url, key, server.token);
    total.records += r.records;
    total.pages += r.pages;
    total.ms += r.ms;
  }
  const cpuAfter = cpuSeconds(server.child.pid);
  total.cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  return total;
}

function rateFigure(label: string, r: Measured): Figure {
  const value = perSecond(r.records, r.ms);
  return {
    name: label,
    value,
    unit: 'records/s',
    target: `>= ${TARGET_RATE.toLocaleString('en-US')} records/s`,
    ratio: Math.round((value / TARGET_RATE) * 100) / 100,
    pass: value >= TARGET_RATE,
    note: `${r.records.toLocaleString('en-US')} records in ${r.pages} pages, ${Math.round(r.ms)} ms`,
  };
}

export async function run(ctx: BenchContext): Promise<Figure[]> {
  ctx.log('generating dataset l in memory');
  const store = new Store(':memory:');
  const genStarted = performance.now();
  const genCpu = process.cpuUsage();
  generateDataset(store, { dataset: 'l', seed: 1, today: todayIso(), hostile: false });
  const genSeconds = (performance.now() - genStarted) / 1000;
  const used = process.cpuUsage(genCpu);
  const genCpuSeconds = ((used.user + used.system) / 1e6).toFixed(2);
  store.close();
  const figures: Figure[] = [
    {
      name: 'generate dataset l',
      value: Math.round(genSeconds * 100) / 100,
      unit: 's',
      target: '< 60 s',
      pass: genSeconds < 60,
      note: `${genCpuSeconds} CPU s; 20,000 users, 100,000 credential and 400,000 training assignments`,
    },
  ];

  ctx.log('starting the server (CLI, dataset l)');
  const server = await startCli(ctx.root);
  try {
    // warm-up: first pages compile the statements and fill SQLite's cache
    await drain((s) => `${server.baseUrl}/users?startrow=${s}&limit=${PAGE}`, 'users', server.token);
    ctx.log('paging users (3 passes)');
    const usersUrl = (s: number): string => `${server.baseUrl}/users?startrow=${s}&limit=${PAGE}`;
    const users = await measure(server, [usersUrl, usersUrl, usersUrl], 'users');
    figures.push(rateFigure('users, 1,000 per page, 4 in flight', users), ...cpuFigure('users', users));
    ctx.log('paging training assignments of both sites');
    const trainingUrls = [101, 102].map(
      (siteid) =>
        (s: number): string =>
          `${server.baseUrl}/sites/${siteid}/trainingassignments?startrow=${s}&limit=${PAGE}`,
    );
    const training = await measure(server, trainingUrls, 'trainingassignments');
    figures.push(
      rateFigure('training assignments, 1,000 per page, 4 in flight', training),
      ...cpuFigure('training assignments', training),
    );
  } finally {
    server.child.kill('SIGTERM');
  }
  return figures;
}
