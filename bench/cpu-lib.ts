/**
 * CPU time of the benchmark's processes, by role (Linux /proc; elsewhere the
 * meter reads nothing): this process (the main-process side: harness and
 * handlers), the reference server, and Chromium's browser, renderer and other
 * processes. A benchmark reads it around a phase to say where its time went.
 */
import { readdirSync, readFileSync } from 'node:fs';

export type CpuRole = 'main' | 'server' | 'browser' | 'renderer' | 'chromium other';
export type CpuSeconds = Partial<Record<CpuRole, number>>;

/** Linux's USER_HZ: the unit of utime and stime in /proc/PID/stat. */
const TICKS_PER_SECOND = 100;

interface Proc {
  pid: number;
  ppid: number;
  ticks: number;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

function chromiumRole(pid: number): CpuRole {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return 'chromium other';
  }
  const type = /--type=([a-z-]+)/.exec(cmdline)?.[1];
  if (type === undefined) return 'browser';
  return type === 'renderer' ? 'renderer' : 'chromium other';
}

/** Every process now running, and whether one was started (at any depth) by this process. */
function readProcesses(): { procs: Map<number, Proc>; ours: (proc: Proc) => boolean } | null {
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return null;
  }
  const procs = new Map<number, Proc>();
  for (const pid of pids) {
    const proc = readProc(pid);
    if (proc) procs.set(pid, proc);
  }
  const ours = (proc: Proc): boolean => {
    for (let at: Proc | undefined = proc, depth = 0; at && depth < 16; at = procs.get(at.ppid), depth++)
      if (at.ppid === process.pid) return true;
    return false;
  };
  return { procs, ours };
}

/** CPU seconds used so far by this process, `serverPid`, and every Chromium process started under this one. */
export function cpuSeconds(serverPid: number | undefined): CpuSeconds {
  const all = readProcesses();
  if (!all) return {};
  const out: CpuSeconds = {};
  const add = (role: CpuRole, ticks: number) => (out[role] = (out[role] ?? 0) + ticks / TICKS_PER_SECOND);
  for (const proc of all.procs.values()) {
    if (proc.pid === process.pid) add('main', proc.ticks);
    else if (proc.pid === serverPid) add('server', proc.ticks);
    else if (all.ours(proc)) add(chromiumRole(proc.pid), proc.ticks);
  }
  return out;
}

/**
 * CPU seconds so far of every Chromium thread started under this process, by
 * "role/thread name" (threads of one name added up): where the browser's time
 * goes (IndexedDB's LevelDB, the IO thread relaying messages, the main thread).
 */
export function chromiumThreadSeconds(): Map<string, number> {
  const out = new Map<string, number>();
  const all = readProcesses();
  if (!all) return out;
  for (const proc of all.procs.values()) {
    if (!all.ours(proc)) continue;
    let role: string;
    try {
      const cmdline = readFileSync(`/proc/${proc.pid}/cmdline`, 'utf8');
      // the reference server and other Node children are not Chromium's
      if (!/chrom/i.test(cmdline.split('\0')[0] ?? '')) continue;
      role =
        /--utility-sub-type=([a-zA-Z.]+)/.exec(cmdline)?.[1] ??
        /--type=([a-z-]+)/.exec(cmdline)?.[1] ??
        'browser';
    } catch {
      continue;
    }
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${proc.pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${proc.pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[0-9]+$/, '');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const key = `${role}/${name}`;
        out.set(key, (out.get(key) ?? 0) + (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
      } catch {
        // the thread ended
      }
    }
  }
  return out;
}

/** Per-thread seconds between two readings, largest first, those under `min` left out. */
export function describeThreadDelta(
  before: Map<string, number>,
  after: Map<string, number>,
  min = 0.1,
): string {
  return [...after]
    .map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const)
    .filter(([, v]) => v >= min)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(', ');
}

/** What each role spent between two readings. */
export function cpuDelta(before: CpuSeconds, after: CpuSeconds): CpuSeconds {
  const out: CpuSeconds = {};
  for (const role of Object.keys(after) as CpuRole[]) out[role] = (after[role] ?? 0) - (before[role] ?? 0);
  return out;
}

/** CPU seconds rounded to `digits` decimals, for printing. */
export function roundCpu(cpu: CpuSeconds, digits = 1): CpuSeconds {
  return Object.fromEntries(
    Object.entries(cpu).map(([role, s]) => [role, Math.round(s * 10 ** digits) / 10 ** digits]),
  );
}

/** CPU seconds as milliseconds per unit of work (e.g. per op), rounded to 0.01 ms. */
export function cpuMsPer(spent: CpuSeconds, units: number): CpuSeconds {
  const out: CpuSeconds = {};
  for (const [role, seconds] of Object.entries(spent) as [CpuRole, number][])
    out[role] = Math.round((seconds * 1000 * 100) / Math.max(1, units)) / 100;
  return out;
}

export function describeCpu(perOp: CpuSeconds): string {
  return (Object.entries(perOp) as [CpuRole, number][])
    .filter(([, ms]) => ms > 0)
    .map(([role, ms]) => `${role} ${ms}`)
    .join(', ');
}

/** The CPU seconds Chromium's processes have used so far (browser, renderers and the others). */
export function chromiumSeconds(): number {
  const cpu = cpuSeconds(undefined);
  return (cpu.browser ?? 0) + (cpu.renderer ?? 0) + (cpu['chromium other'] ?? 0);
}

/**
 * Waits until `readSeconds` (a process group's CPU seconds so far) grows by
 * less than `maxShare` of a core over a whole `windowMs`, or `maxMs` have
 * passed. Chromium keeps compacting the IndexedDB a full sync wrote for a while
 * after it: a resync timed right after would pay for it, which a coordinator,
 * resyncing hours later, does not.
 */
export async function waitUntilQuiet(
  readSeconds: () => number,
  opts: { windowMs?: number; maxShare?: number; maxMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<{ waitedMs: number; settled: boolean }> {
  const { windowMs = 1000, maxShare = 0.1, maxMs = 60_000 } = opts;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let waited = 0;
  let last = readSeconds();
  while (waited < maxMs) {
    await sleep(windowMs);
    waited += windowMs;
    const now = readSeconds();
    if (now - last < (maxShare * windowMs) / 1000) return { waitedMs: waited, settled: true };
    last = now;
  }
  return { waitedMs: waited, settled: false };
}
