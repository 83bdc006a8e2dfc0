/**
 * Where the wall time of a traced phase went, thread by thread: a whole trace
 * written by FIELDBOOK_BENCH_TRACE_DIR, read back. For each thread of each
 * process, the time its tasks ran (wall, CPU) from the phase's start mark to the
 * last task of the page's main thread; then the page's main thread and its
 * workers as a timeline of busy stretches and the gaps between them, with what
 * ran (by the trace's event names) around each gap.
 *
 *     node --experimental-strip-types bench/trace-gaps.ts /tmp/x/trace-1-2.json [minimum gap in ms, default 20]
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { TraceEvent } from './trace-lib.ts';
import { TRACE_MARK, traceEventOf, withMicrotasks } from './trace-lib.ts';

type Event = TraceEvent & { cat?: string; args?: { name?: string; data?: unknown } };

const RUN_TASK = 'ThreadControllerImpl::RunTask';
const ms = (us: number) => Math.round(us / 100) / 10;

function threadNames(events: readonly Event[]): Map<string, string> {
  const names = new Map<string, string>();
  const processes = new Map<number, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'process_name') processes.set(e.pid, e.args?.name ?? '?');
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name')
      names.set(`${e.pid}:${e.tid}`, `${processes.get(e.pid) ?? e.pid} / ${e.args?.name ?? e.tid}`);
  return names;
}

/** The thread's tasks within [from, to], merged into busy stretches (gaps under `join` µs closed). */
function stretches(tasks: readonly Event[], join: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const t of [...tasks].sort((a, b) => a.ts! - b.ts!)) {
    const end = t.ts! + (t.dur ?? 0);
    const last = out[out.length - 1];
    if (last && t.ts! - last[1] < join) last[1] = Math.max(last[1], end);
    else out.push([t.ts!, end]);
  }
  return out;
}

/** The longest non-task events of a thread overlapping [from, to]: what it did there. */
function whatRan(events: readonly Event[], key: string, from: number, to: number): string {
  const there = events.filter(
    (e) =>
      e.ph === 'X' &&
      e.name !== RUN_TASK &&
      `${e.pid}:${e.tid}` === key &&
      e.ts! < to &&
      e.ts! + (e.dur ?? 0) > from,
  );
  const byName = new Map<string, number>();
  for (const e of there) {
    const overlap = Math.min(to, e.ts! + (e.dur ?? 0)) - Math.max(from, e.ts!);
    byName.set(e.name, (byName.get(e.name) ?? 0) + overlap);
  }
  return [...byName.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([n, d]) => `${n} ${ms(d)}`)
    .join(', ');
}

/** The trace's events, a line at a time (one event a line): a trace of queueing is more than one string holds. */
async function readEvents(file: string): Promise<Event[]> {
  const events: Event[] = [];
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    const event = traceEventOf(line) as Event | null;
    if (event) events.push(event);
  }
  return events;
}

async function main(): Promise<void> {
  const [file, gapArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: trace-gaps.ts TRACE.json [gap ms]');
  const events = await readEvents(file);
  const names = threadNames(events);
  const mark = events.find((e) => e.name === TRACE_MARK);
  const tasks = withMicrotasks(events);
  const byThread = new Map<string, Event[]>();
  for (const t of tasks) {
    const key = `${t.pid}:${t.tid}`;
    byThread.set(key, [...(byThread.get(key) ?? []), t]);
  }
  const cpu = (list: readonly Event[]) => list.reduce((n, e) => n + (e.tdur ?? 0), 0);
  const mainKey = [...byThread.entries()]
    .filter(([k]) => names.get(k)?.endsWith('CrRendererMain'))
    .sort((a, b) => cpu(b[1]) - cpu(a[1]))[0]?.[0];
  const from = mark?.ts ?? Math.min(...tasks.map((t) => t.ts!));
  const to = Math.max(...(byThread.get(mainKey ?? '') ?? tasks).map((t) => t.ts! + (t.dur ?? 0)));
  console.log(`span ${ms(to - from)} ms from the start mark to the main thread's last task`);
  const inSpan = (list: readonly Event[]) => list.filter((t) => t.ts! >= from && t.ts! <= to);
  const rows = [...byThread.entries()]
    .map(([k, list]) => {
      const span = inSpan(list);
      return { k, wall: span.reduce((n, e) => n + (e.dur ?? 0), 0), cpu: cpu(span), n: span.length };
    })
    .filter((r) => r.wall > 5000)
    .sort((a, b) => b.wall - a.wall);
  for (const r of rows)
    console.log(`${ms(r.wall)} ms wall, ${ms(r.cpu)} ms CPU, ${r.n} tasks: ${names.get(r.k) ?? r.k}`);
  const gap = Number(gapArg ?? 20) * 1000;
  const watched = [...byThread.keys()].filter((k) =>
    /CrRendererMain|DedicatedWorker/.test(names.get(k) ?? ''),
  );
  const all = watched.flatMap((k) => inSpan(byThread.get(k)!));
  console.log(`\nbusy stretches of the main thread and workers together (gaps over ${gap / 1000} ms):`);
  let cursor = from;
  for (const [start, end] of stretches(all, gap)) {
    if (start - cursor >= gap) console.log(`  GAP ${ms(start - cursor)} ms at +${ms(cursor - from)}`);
    const doing = watched
      .map((k) => [k, whatRan(events, k, start, end)] as const)
      .filter(([, w]) => w)
      .map(([k, w]) => `[${(names.get(k) ?? k).split(' / ')[1]}] ${w}`)
      .join(' | ');
    console.log(`  busy +${ms(start - from)} … +${ms(end - from)} (${ms(end - start)} ms): ${doing}`);
    cursor = end;
  }
}

await main();
