import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  chromiumThreadSeconds,
  cpuDelta,
  cpuMsPer,
  cpuSeconds,
  describeCpu,
  describeThreadDelta,
  roundCpu,
  waitUntilQuiet,
} from './cpu-lib.ts';

const linux = process.platform === 'linux';

/** Spends `ms` of this process's CPU time (not wall time: a busy machine only makes it take longer). */
function burnCpu(ms: number): void {
  const start = process.cpuUsage();
  const spent = () => {
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
  while (spent() < ms) Math.sqrt(Math.random());
}

/** A child that spends `ms` of CPU, says "burnt", then idles until killed. */
const CHILD = (ms: number) =>
  `const s = process.cpuUsage();
   const spent = () => { const u = process.cpuUsage(s); return (u.user + u.system) / 1000; };
   while (spent() < ${ms}) Math.sqrt(Math.random()); process.stdout.write('burnt'); setInterval(() => {}, 1000);`;

describe('the CPU meter of the benchmarks', () => {
  it.runIf(linux)('counts the CPU this process spends as main', () => {
    const before = cpuSeconds(undefined);
    burnCpu(200);
    const spent = cpuMsPer(cpuDelta(before, cpuSeconds(undefined)), 1);
    expect(spent.main).toBeGreaterThanOrEqual(100);
  });

  it.runIf(linux)("counts the server's process as the server, apart from this one", async () => {
    const child = spawn(process.execPath, ['-e', CHILD(300)], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      // wait for the child to have spent its CPU, however long a busy machine makes that take
      await once(child.stdout!, 'data');
      expect(cpuSeconds(child.pid).server).toBeGreaterThanOrEqual(0.25);
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  });

  it('rounds seconds for printing, to a tenth unless asked for more', () => {
    expect(roundCpu({ main: 1.26, browser: 0.04 })).toEqual({ main: 1.3, browser: 0 });
    expect(describeCpu(roundCpu({ main: 1.256, renderer: 0.004 }, 2))).toBe('main 1.26');
  });

  it('says per unit of work where the time went, leaving out roles that spent none', () => {
    expect(cpuMsPer(cpuDelta({ main: 1, server: 2 }, { main: 3, server: 2, renderer: 0.5 }), 1000)).toEqual({
      main: 2,
      server: 0,
      renderer: 0.5,
    });
    expect(describeCpu({ main: 2, server: 0, renderer: 0.5 })).toBe('main 2, renderer 0.5');
  });
});

describe('waiting for Chromium to go quiet', () => {
  const noSleep = async () => {};
  it('returns after the first whole window in which less than a tenth of a core was used', async () => {
    const readings = [0, 0.9, 1.8, 1.85, 1.86];
    let i = 0;
    expect(await waitUntilQuiet(() => readings[i++]!, { sleep: noSleep })).toEqual({
      waitedMs: 3000,
      settled: true,
    });
  });

  it('gives up after maxMs of a busy process, saying so', async () => {
    let seconds = 0;
    expect(await waitUntilQuiet(() => (seconds += 0.5), { sleep: noSleep, maxMs: 5000 })).toEqual({
      waitedMs: 5000,
      settled: false,
    });
  });

  it('says which Chromium threads spent the most between two readings, leaving out the idle ones', () => {
    const before = new Map([
      ['browser/ThreadPoolForeg', 1],
      ['renderer/chromium', 2],
    ]);
    const after = new Map([
      ['browser/ThreadPoolForeg', 4.5],
      ['renderer/chromium', 2.05],
      ['gpu-process/VizCompositorTh', 0.3],
    ]);
    expect(describeThreadDelta(before, after)).toBe(
      'browser/ThreadPoolForeg 3.50, gpu-process/VizCompositorTh 0.30',
    );
  });

  it.runIf(linux)("counts no thread of a Node child (the reference server) as Chromium's", async () => {
    const child = spawn(process.execPath, ['-e', CHILD(100)], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await once(child.stdout, 'data');
      expect([...chromiumThreadSeconds().keys()]).toEqual([]);
    } finally {
      child.kill();
    }
  });
});
