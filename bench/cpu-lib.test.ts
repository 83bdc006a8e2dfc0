import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cpuDelta, cpuMsPer, cpuSeconds, describeCpu } from './cpu-lib.ts';

const linux = process.platform === 'linux';

function burn(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) Math.sqrt(Math.random());
}

describe('the CPU meter of the benchmarks', () => {
  it.runIf(linux)('counts the CPU this process spends as main', () => {
    const before = cpuSeconds(undefined);
    burn(200);
    const spent = cpuMsPer(cpuDelta(before, cpuSeconds(undefined)), 1);
    expect(spent.main).toBeGreaterThanOrEqual(100);
  });

  it.runIf(linux)("counts the server's process as the server, apart from this one", async () => {
    const child = spawn(process.execPath, ['-e', 'const t = Date.now() + 300; while (Date.now() < t) Math.sqrt(Math.random()); setInterval(() => {}, 1000);'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(cpuSeconds(child.pid).server).toBeGreaterThanOrEqual(0.15);
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  });

  it('says per unit of work where the time went, leaving out roles that spent none', () => {
    expect(cpuMsPer(cpuDelta({ main: 1, server: 2 }, { main: 3, server: 2, renderer: 0.5 }), 1000)).toEqual({ main: 2, server: 0, renderer: 0.5 });
    expect(describeCpu({ main: 2, server: 0, renderer: 0.5 })).toBe('main 2, renderer 0.5');
  });
});
