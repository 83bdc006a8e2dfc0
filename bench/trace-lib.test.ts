import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CDPSession } from '@playwright/test';
import { describeSpan, mainThreadTasks, readTraceEvents, TRACE_MARK, type TraceEvent } from './trace-lib.ts';

const thread = (pid: number, tid: number, name: string): TraceEvent => ({
  name: 'thread_name',
  ph: 'M',
  pid,
  tid,
  args: { name },
});
/** a task of `wallMs` wall time, `cpuMs` of which the thread ran */
const task = (pid: number, tid: number, wallMs: number, cpuMs: number, ts = 0): TraceEvent => ({
  name: 'ThreadControllerImpl::RunTask',
  ph: 'X',
  pid,
  tid,
  ts,
  dur: wallMs * 1000,
  tdur: cpuMs * 1000,
});
/** an event inside a task: script, layout, a garbage collection */
const inside = (name: string, tid: number, ts: number, wallMs: number, cpuMs: number): TraceEvent => ({
  name,
  ph: 'X',
  pid: 1,
  tid,
  ts,
  dur: wallMs * 1000,
  tdur: cpuMs * 1000,
});

describe("the page's main-thread tasks from Chromium's trace", () => {
  const events = [
    thread(1, 10, 'CrRendererMain'), // the page
    thread(2, 20, 'CrRendererMain'), // another renderer, nearly idle
    thread(1, 11, 'DedicatedWorker thread'), // the import's worker: its tasks are not the window's
    task(1, 10, 400, 30, 1_000_000), // kept waiting for a core: long in wall time, short on the CPU
    inside('MajorGC', 10, 1_010_000, 300, 18), // what it did: a garbage collection, then script
    inside('FunctionCall', 10, 1_320_000, 60, 12),
    inside('Layout', 10, 2_000_000, 5, 5), // after it: not inside
    task(1, 10, 70, 60, 3_000_000),
    task(1, 10, 20, 20, 4_000_000),
    task(2, 20, 5, 5),
    task(1, 11, 900, 900),
    inside('FunctionCall', 11, 1_010_000, 300, 300), // the worker's, in the same time: not the window's
  ];

  it('reads the busiest renderer main thread: the longest task by CPU time, its wall time, and the tasks over 50 ms of CPU', () => {
    expect(mainThreadTasks(events)).toMatchObject({
      tasks: 3,
      longestCpuMs: 60,
      longestCpuWallMs: 70,
      longestCpuSpanUs: [3_000_000, 3_070_000],
      cpuOver50: 1,
    });
  });

  it("sums the CPU time of the main thread's tasks (what a phase cost it on a busy machine too)", () => {
    expect(mainThreadTasks(events).totalCpuMs).toBe(30 + 60 + 20);
  });

  it("sums the CPU time of the page's workers apart", () => {
    expect(mainThreadTasks(events).workerCpuMs).toBe(900);
  });

  it('names what ran inside the task longest in wall time, by CPU time', () => {
    expect(mainThreadTasks(events).longestWall).toEqual({
      wallMs: 400,
      cpuMs: 30,
      inside: 'MajorGC 18 ms CPU of 300 ms wall, FunctionCall 12 ms CPU of 60 ms wall',
    });
  });

  it('gives zeros for a trace without the page', () => {
    expect(mainThreadTasks([])).toEqual({
      tasks: 0,
      longestCpuMs: 0,
      longestCpuWallMs: 0,
      longestCpuSpanUs: [0, 0],
      cpuOver50: 0,
      totalCpuMs: 0,
      workerCpuMs: 0,
      longestWall: { wallMs: 0, cpuMs: 0, inside: '' },
    });
  });
});

describe("what the trace shows over a span of page time (the Long Tasks API's longest task)", () => {
  // the mark was set at page time 500 ms, trace time 10 s
  const mark: TraceEvent = { name: TRACE_MARK, ph: 'R', pid: 1, tid: 10, ts: 10_000_000 };
  const events = [
    thread(1, 10, 'CrRendererMain'),
    mark,
    task(1, 10, 20, 20, 10_100_000), // page time 600–620 ms
    inside('Layout', 10, 10_100_000, 11, 11),
    task(1, 10, 10, 4, 10_650_000), // page time 1,150–1,160 ms: outside the span
  ];

  it("maps page time to the trace by the mark, and says how much of the span the trace's tasks cover and what ran", () => {
    expect(describeSpan(events, 500, 590, 690)).toBe(
      '1 trace tasks in those 100 ms (20 ms of it, 20 ms CPU): Layout 11 ms',
    );
  });

  it('says so when the trace has no mark', () => {
    expect(
      describeSpan(
        events.filter((e) => e !== mark),
        500,
        590,
        690,
      ),
    ).toMatch(/^not in the trace/);
  });
});

describe('the microtasks Blink runs after a task', () => {
  const checkpoint = (tid: number, ts: number, wallMs: number, cpuMs: number): TraceEvent => ({
    ...inside('BlinkScheduler_PerformMicrotaskCheckpoint', tid, ts, wallMs, cpuMs),
  });
  const events = [
    thread(1, 10, 'CrRendererMain'),
    // a scheduler.yield() continuation: the task itself is empty, the work resumed runs in its microtasks
    task(1, 10, 0.1, 0.1, 1_000_000),
    checkpoint(10, 1_000_100, 40, 35),
    // a task whose own checkpoint runs inside it: counted once
    task(1, 10, 20, 18, 2_000_000),
    checkpoint(10, 2_010_000, 5, 5),
  ];

  it("count in the CPU time and length of the task they follow (the window's thread was computing)", () => {
    const times = mainThreadTasks(events);
    expect(times.totalCpuMs).toBeCloseTo(0.1 + 35 + 18);
    expect(times.longestCpuMs).toBeCloseTo(35.1);
    expect(times.longestCpuWallMs).toBeCloseTo(40.1);
  });
});

describe('a trace read a line at a time', () => {
  /** Chromium's stream as DevTools hands it over: `chunks` read after read, the last one marked as the end. */
  const streamOf = (chunks: string[]) => {
    let at = 0;
    return {
      send: (method: string) =>
        Promise.resolve(
          method === 'IO.read'
            ? { data: chunks[at++] ?? '', base64Encoded: false, eof: at >= chunks.length }
            : {},
        ),
    } as unknown as CDPSession;
  };
  const text = [
    '{"traceEvents":[',
    '{"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"CrRendererMain"}},',
    '{"name":"ThreadControllerImpl::RunTask","ph":"X","pid":1,"tid":1,"ts":5,"dur":7000,"tdur":3000}],"metadata":',
    '{"trace-capture-datetime":"2026-11-29","ph":"not an event"}}',
  ].join('\n');

  it('keeps every event, though a read ends in the middle of one, and not the metadata', async () => {
    const cut = text.indexOf('RunTask');
    const events = await readTraceEvents(streamOf([text.slice(0, cut), text.slice(cut)]), 'h');
    expect(events.map((e) => e.name)).toEqual(['thread_name', 'ThreadControllerImpl::RunTask']);
  });

  it('writes the trace whole to the file asked for', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'trace-')), 'trace.json');
    await readTraceEvents(streamOf([text.slice(0, 40), text.slice(40)]), 'h', file);
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});
