/**
 * The renderer's main-thread tasks from Chromium's own trace (`toplevel`): their
 * wall time and the CPU time the thread actually ran for each. On a shared
 * machine the Long Tasks API's wall time includes time the renderer was waiting
 * for a core; the CPU time tells a task that is long from one that was only
 * kept waiting.
 */
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, CDPSession, Page } from '@playwright/test';

export interface TaskTimes {
  tasks: number;
  /** the task that ran longest on the CPU: its CPU and wall times */
  longestCpuMs: number;
  longestCpuWallMs: number;
  /** when it ran, on the trace's clock (microseconds): [start, end] */
  longestCpuSpanUs: [number, number];
  /** tasks that ran over 50 ms of CPU */
  cpuOver50: number;
  /** the CPU time of all the thread's tasks: what the phase cost the main thread, however busy the machine */
  totalCpuMs: number;
  /** the CPU time of the page's workers' tasks (the import reads its files in one) */
  workerCpuMs: number;
  /**
   * The task longest in wall time (what the Long Tasks API reports): its wall
   * and CPU times, and the longest events inside it by CPU time ("Layout 12 ms
   * CPU of 40 ms wall"), when the trace recorded them (`detail`).
   */
  longestWall: { wallMs: number; cpuMs: number; inside: string };
}

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * A trace CDP returned as a stream (`transferMode: 'ReturnAsStream'`), read whole and closed. @public: the standalone
 * tracing scripts (trace-cold-start.ts, profile-resync.ts) read theirs so.
 */
export async function readStream(cdp: CDPSession, handle: string): Promise<string> {
  const parts: string[] = [];
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle, size: 1 << 20 });
    parts.push(chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data);
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle });
  return parts.join('');
}

/**
 * The event on one line of Chromium's JSON trace (one event a line, the array's opening and its closing before the
 * metadata on the first and last of them); null for the metadata or a line that is not an event.
 */
export function traceEventOf(line: string): TraceEvent | null {
  const text = line
    .trim()
    .replace(/^\{"traceEvents":\[/, '')
    .replace(/(,|\],"metadata":)$/, '');
  if (!text.startsWith('{"') || !text.includes('"ph":')) return null;
  try {
    return JSON.parse(text) as TraceEvent;
  } catch {
    return null;
  }
}

/**
 * A trace's events read a line at a time (Chromium writes one event a line): a trace of queueing 100,000 ops is more
 * text than one string can hold. `keep`: a file the text is also written to, whole.
 */
export async function readTraceEvents(cdp: CDPSession, handle: string, keep?: string): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const file = keep ? await open(keep, 'w') : null;
  let rest = '';
  const take = (line: string) => {
    const event = traceEventOf(line);
    if (event) events.push(event);
  };
  try {
    for (;;) {
      const chunk = await cdp.send('IO.read', { handle, size: 1 << 20 });
      const text = chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
      await file?.write(text);
      const lines = (rest + text).split('\n');
      rest = lines.pop()!;
      lines.forEach(take);
      if (chunk.eof) break;
    }
    take(rest);
  } finally {
    await file?.close();
  }
  await cdp.send('IO.close', { handle });
  return events;
}

const RUN_TASK = 'ThreadControllerImpl::RunTask';
const CHECKPOINT = 'BlinkScheduler_PerformMicrotaskCheckpoint';
const cpuOf = (e: TraceEvent) => (e.tdur ?? 0) / 1000;
const wallOf = (e: TraceEvent) => (e.dur ?? 0) / 1000;
const endOf = (e: TraceEvent) => (e.ts ?? 0) + (e.dur ?? 0);

/**
 * The tasks of the trace with the microtasks run after each: Blink runs a
 * task's microtask checkpoint after `ThreadControllerImpl::RunTask` has ended,
 * in the same task as the Long Tasks API sees it. The work resumed after a
 * `scheduler.yield()` and every promise callback of an IndexedDB answer run
 * there, so without them the import's preview showed half its main-thread CPU
 * (1,020 of 2,249 ms in a traced run at a load of 12).
 */
export function withMicrotasks(events: readonly TraceEvent[]): TraceEvent[] {
  const out: TraceEvent[] = [];
  const lastTask = new Map<string, TraceEvent>();
  const ordered = events
    .filter((e) => e.ph === 'X' && (e.name === RUN_TASK || e.name === CHECKPOINT) && e.ts !== undefined)
    .sort((a, b) => a.ts! - b.ts!);
  for (const e of ordered) {
    const key = `${e.pid}:${e.tid}`;
    const task = lastTask.get(key);
    if (e.name === RUN_TASK) {
      const own = { ...e };
      lastTask.set(key, own);
      out.push(own);
    } else if (task && e.ts! >= endOf(task)) {
      // a checkpoint after the task: its own (one inside the task is already in its times)
      task.dur = endOf(e) - task.ts!;
      task.tdur = (task.tdur ?? 0) + (e.tdur ?? 0);
    }
  }
  return out;
}

/** The tasks of the busiest renderer main thread in the trace (the page's). */
export function mainThreadTasks(events: readonly TraceEvent[]): TaskTimes {
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map<string, TraceEvent[]>();
  const allTasks = withMicrotasks(events);
  for (const e of allTasks) {
    const key = `${e.pid}:${e.tid}`;
    if (!mains.has(key)) continue;
    const list = byThread.get(key);
    if (list) list.push(e);
    else byThread.set(key, [e]);
  }
  const total = (list: TraceEvent[]) => list.reduce((sum, e) => sum + cpuOf(e), 0);
  const tasks = [...byThread.values()].sort((a, b) => total(b) - total(a))[0] ?? [];
  const longest = tasks.reduce<TraceEvent | null>(
    (best, e) => (!best || cpuOf(e) > cpuOf(best) ? e : best),
    null,
  );
  const longestWall = tasks.reduce<TraceEvent | null>(
    (best, e) => (!best || wallOf(e) > wallOf(best) ? e : best),
    null,
  );
  return {
    tasks: tasks.length,
    longestCpuMs: longest ? cpuOf(longest) : 0,
    longestCpuWallMs: longest ? wallOf(longest) : 0,
    longestCpuSpanUs: longest ? [longest.ts ?? 0, (longest.ts ?? 0) + (longest.dur ?? 0)] : [0, 0],
    cpuOver50: tasks.filter((e) => cpuOf(e) > 50).length,
    totalCpuMs: tasks.reduce((sum, e) => sum + cpuOf(e), 0),
    workerCpuMs: workerCpu(events, allTasks, tasks[0]?.pid),
    longestWall: longestWall
      ? { wallMs: wallOf(longestWall), cpuMs: cpuOf(longestWall), inside: insideOf(events, longestWall) }
      : { wallMs: 0, cpuMs: 0, inside: '' },
  };
}

/** The CPU time of the tasks of the dedicated workers of process `pid`. */
function workerCpu(
  events: readonly TraceEvent[],
  tasks: readonly TraceEvent[],
  pid: number | undefined,
): number {
  const workers = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid)
      .filter((e) => e.args?.name === 'DedicatedWorker thread')
      .map((e) => e.tid),
  );
  return tasks.filter((e) => e.pid === pid && workers.has(e.tid)).reduce((sum, e) => sum + cpuOf(e), 0);
}

/** The three longest events by CPU time inside `task` (same thread, within its time), by name: what the task did. */
function insideOf(events: readonly TraceEvent[], task: TraceEvent): string {
  const start = task.ts ?? 0;
  const end = start + (task.dur ?? 0);
  const inside = events.filter(
    (e) =>
      e.ph === 'X' &&
      e.name !== RUN_TASK &&
      e.pid === task.pid &&
      e.tid === task.tid &&
      (e.ts ?? -1) >= start &&
      (e.ts ?? 0) + (e.dur ?? 0) <= end,
  );
  return inside
    .sort((a, b) => cpuOf(b) - cpuOf(a))
    .slice(0, 3)
    .map((e) => `${e.name} ${Math.round(cpuOf(e))} ms CPU of ${Math.round(wallOf(e))} ms wall`)
    .join(', ');
}

/**
 * Starts tracing the page's process; `stop` ends it and gives its main thread's tasks meanwhile (with what ran inside
 * the longest, with `detail`).
 */
/** A trace's main thread over a span of page time: what the trace shows there (`describeSpan`). */
export type SpanDescriber = (fromPageMs: number, toPageMs: number) => string;

/** A phase's tasks, what ran over a span of it, and page time on the trace's clock (null without the mark). */
export type TracedTasks = TaskTimes & {
  describeSpan: SpanDescriber;
  toTraceUs: (pageMs: number) => number | null;
};

/** The user-timing mark a traced phase sets at its start: it ties page time (performance.now) to the trace's clock. */
export const TRACE_MARK = 'fieldbook-trace-start';

/**
 * What ran on the page's main thread between two page times, by the trace: the
 * tasks there (their wall and CPU time) and the longest events inside, and how
 * much of the span no task of the trace covers. `mark`: the page time of
 * TRACE_MARK, whose trace event gives the clock.
 */
export function describeSpan(
  events: readonly TraceEvent[],
  markPageMs: number,
  fromPageMs: number,
  toPageMs: number,
): string {
  const mark = events.find((e) => e.name === TRACE_MARK && e.ts !== undefined);
  const main = busiestMain(events);
  if (!mark || !main) return 'not in the trace (no mark, or no main thread)';
  const from = mark.ts! + (fromPageMs - markPageMs) * 1000;
  const to = mark.ts! + (toPageMs - markPageMs) * 1000;
  const overlap = (e: TraceEvent) =>
    Math.max(0, Math.min(to, (e.ts ?? 0) + (e.dur ?? 0)) - Math.max(from, e.ts ?? 0)) / 1000;
  const there = events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === main && overlap(e) > 0);
  const tasks = withMicrotasks(there);
  const covered = tasks.reduce((n, e) => n + overlap(e), 0);
  const top = there
    .filter((e) => e.name !== RUN_TASK && e.name !== CHECKPOINT)
    .sort((a, b) => overlap(b) - overlap(a))
    .slice(0, 3)
    .map((e) => `${e.name} ${Math.round(overlap(e))} ms`)
    .join(', ');
  const span = Math.round(toPageMs - fromPageMs);
  const coveredMs = Math.round(covered);
  const cpuMs = Math.round(tasks.reduce((n, e) => n + cpuOf(e), 0));
  const busiest = top ? `: ${top}` : '';
  return `${tasks.length} trace tasks in those ${span} ms (${coveredMs} ms of it, ${cpuMs} ms CPU)${busiest}`;
}

/** The busiest renderer main thread ("pid:tid"), by the CPU time of its tasks. */
function busiestMain(events: readonly TraceEvent[]): string | undefined {
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const cpu = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph === 'X' && e.name === RUN_TASK && mains.has(key)) cpu.set(key, (cpu.get(key) ?? 0) + cpuOf(e));
  }
  return [...cpu.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * FIELDBOOK_BENCH_TRACE_DIR: every trace is also written there whole, with what every thread and process did
 * (IndexedDB, IPC, loading, the scheduler), for DevTools' Performance panel or bench/trace-gaps.ts.
 * FIELDBOOK_BENCH_TRACE_LIGHT=1 as well: written with the bench's own categories only (every thread's tasks, not
 * what runs inside them): the whole of queueing 100,000 ops is a trace over the 512 MB a string can hold.
 */
const TRACE_DIR = process.env.FIELDBOOK_BENCH_TRACE_DIR;
/**
 * FIELDBOOK_BENCH_TRACE_GC=1 as well: V8's garbage collections in the written trace (their kind and phases, few events
 * where the timeline's are millions), to tell which collection a long task held.
 */
const GC = process.env.FIELDBOOK_BENCH_TRACE_GC === '1' ? ['disabled-by-default-v8.gc'] : [];
const WHOLE = process.env.FIELDBOOK_BENCH_TRACE_LIGHT !== '1';
const WHOLE_TIMELINE = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'IndexedDB',
  'loading',
  'navigation',
  'blink',
  'mojom',
  'ipc',
  'toplevel.flow',
  'disabled-by-default-devtools.timeline.stack',
];
let traces = 0;

/** The file a trace is written to whole (FIELDBOOK_BENCH_TRACE_DIR), when one is asked for. */
async function traceFile(): Promise<string | undefined> {
  if (!TRACE_DIR) return undefined;
  traces += 1;
  await mkdir(TRACE_DIR, { recursive: true });
  const file = path.join(TRACE_DIR, `trace-${process.pid}-${traces}.json`);
  console.error(`  the whole trace: ${file}`);
  return file;
}

export async function traceMainThread(
  context: BrowserContext,
  page: Page,
  detail = false,
): Promise<{ stop(): Promise<TracedTasks> }> {
  const cdp = await context.newCDPSession(page);
  // with `detail`, what runs inside tasks too (script, style, layout, paint, garbage collection): a phase of few tasks
  // only
  const categories = [
    'toplevel',
    '__metadata',
    'blink.user_timing',
    ...(detail ? ['devtools.timeline', 'v8', 'disabled-by-default-v8.gc'] : []),
    ...(TRACE_DIR && WHOLE ? WHOLE_TIMELINE : []),
    ...(TRACE_DIR ? GC : []),
  ];
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: categories, recordMode: 'recordAsMuchAsPossible' },
    transferMode: 'ReturnAsStream',
  });
  const markPageMs = await page.evaluate<number>(`performance.mark(${JSON.stringify(TRACE_MARK)}).startTime`);
  return {
    async stop() {
      const complete = new Promise<string | undefined>((resolve) =>
        cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream)),
      );
      await cdp.send('Tracing.end');
      const stream = await complete;
      const events = stream ? await readTraceEvents(cdp, stream, await traceFile()) : [];
      await cdp.detach();
      const mark = events.find((e) => e.name === TRACE_MARK && e.ts !== undefined);
      const toTraceUs = (pageMs: number) => (mark ? mark.ts! + (pageMs - markPageMs) * 1000 : null);
      return {
        ...mainThreadTasks(events),
        describeSpan: (from, to) => describeSpan(events, markPageMs, from, to),
        toTraceUs,
      };
    },
  };
}
