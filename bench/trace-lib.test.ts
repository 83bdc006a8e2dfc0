import { describe, expect, it } from 'vitest';
import { mainThreadTasks, type TraceEvent } from './trace-lib.ts';

const thread = (pid: number, tid: number, name: string): TraceEvent => ({ name: 'thread_name', ph: 'M', pid, tid, args: { name } });
/** a task of `wallMs` wall time, `cpuMs` of which the thread ran */
const task = (pid: number, tid: number, wallMs: number, cpuMs: number): TraceEvent => ({ name: 'ThreadControllerImpl::RunTask', ph: 'X', pid, tid, dur: wallMs * 1000, tdur: cpuMs * 1000 });

describe("the page's main-thread tasks from Chromium's trace", () => {
  const events = [
    thread(1, 10, 'CrRendererMain'), // the page
    thread(2, 20, 'CrRendererMain'), // another renderer, nearly idle
    thread(1, 11, 'DedicatedWorker thread'), // the import's worker: its tasks are not the window's
    task(1, 10, 400, 30), // kept waiting for a core: long in wall time, short on the CPU
    task(1, 10, 70, 60),
    task(1, 10, 20, 20),
    task(2, 20, 5, 5),
    task(1, 11, 900, 900),
    { name: 'FunctionCall', ph: 'X', pid: 1, tid: 10, dur: 90_000, tdur: 90_000 }, // inside a task, not one
  ];

  it('reads the busiest renderer main thread: the longest task by CPU time, its wall time, and the tasks over 50 ms of CPU', () => {
    expect(mainThreadTasks(events)).toEqual({ tasks: 3, longestCpuMs: 60, longestCpuWallMs: 70, cpuOver50: 1 });
  });

  it('gives zeros for a trace without the page', () => {
    expect(mainThreadTasks([])).toEqual({ tasks: 0, longestCpuMs: 0, longestCpuWallMs: 0, cpuOver50: 0 });
  });
});
