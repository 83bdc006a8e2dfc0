/**
 * The renderer's main-thread tasks from Chromium's own trace (`toplevel`): their
 * wall time and the CPU time the thread actually ran for each. On a shared
 * machine the Long Tasks API's wall time includes time the renderer was waiting
 * for a core; the CPU time tells a task that is long from one that was only
 * kept waiting.
 */
import type { BrowserContext, CDPSession, Page } from '@playwright/test';

export interface TaskTimes {
  tasks: number;
  /** the task that ran longest on the CPU: its CPU and wall times */
  longestCpuMs: number;
  longestCpuWallMs: number;
  /** tasks that ran over 50 ms of CPU */
  cpuOver50: number;
}

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

async function readStream(cdp: CDPSession, handle: string): Promise<string> {
  const parts: string[] = [];
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle, size: 1 << 20 });
    parts.push(chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data);
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle });
  return parts.join('');
}

/** The tasks of the busiest renderer main thread in the trace (the page's). */
export function mainThreadTasks(events: readonly TraceEvent[]): TaskTimes {
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || e.name !== 'ThreadControllerImpl::RunTask' || !mains.has(key)) continue;
    const list = byThread.get(key);
    if (list) list.push(e);
    else byThread.set(key, [e]);
  }
  const cpu = (e: TraceEvent) => (e.tdur ?? 0) / 1000;
  const total = (list: TraceEvent[]) => list.reduce((sum, e) => sum + cpu(e), 0);
  const tasks = [...byThread.values()].sort((a, b) => total(b) - total(a))[0] ?? [];
  const longest = tasks.reduce<TraceEvent | null>((best, e) => (!best || cpu(e) > cpu(best) ? e : best), null);
  return { tasks: tasks.length, longestCpuMs: longest ? cpu(longest) : 0, longestCpuWallMs: longest ? (longest.dur ?? 0) / 1000 : 0, cpuOver50: tasks.filter((e) => cpu(e) > 50).length };
}

/** Starts tracing the page's process; `stop` ends it and gives its main thread's tasks meanwhile. */
export async function traceMainThread(context: BrowserContext, page: Page): Promise<{ stop(): Promise<TaskTimes> }> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['toplevel', '__metadata'], recordMode: 'recordAsMuchAsPossible' }, transferMode: 'ReturnAsStream' });
  return {
    async stop() {
      const complete = new Promise<string | undefined>((resolve) => cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream)));
      await cdp.send('Tracing.end');
      const stream = await complete;
      const text = stream ? await readStream(cdp, stream) : '{"traceEvents":[]}';
      await cdp.detach();
      const parsed = JSON.parse(text) as { traceEvents: TraceEvent[] } | TraceEvent[];
      return mainThreadTasks(Array.isArray(parsed) ? parsed : parsed.traceEvents);
    },
  };
}
