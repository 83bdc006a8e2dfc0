import { describe, expect, it } from 'vitest';
import { FaultInjector, parseFaultSpec } from './faults.ts';

describe('fault settings', () => {
  it('reads the command-line form', () => {
    expect(parseFaultSpec('latency=20,error=0.1,drop=0.05,lost=0.05,inflight=4,retryafter=1')).toEqual({
      latencyMs: 20,
      errorRate: 0.1,
      dropRate: 0.05,
      lostResponseRate: 0.05,
      maxInFlightPerToken: 4,
      retryAfterSeconds: 1,
    });
  });

  it('refuses unknown settings, negative numbers and rates above 1', () => {
    expect(() => parseFaultSpec('speed=3')).toThrow(/speed/);
    expect(() => parseFaultSpec('latency=-1')).toThrow();
    expect(() => parseFaultSpec('error=2')).toThrow(/between 0 and 1/);
  });
});

describe('the fault injector', () => {
  it('does nothing by default', () => {
    const f = new FaultInjector();
    for (let i = 0; i < 100; i++) {
      expect(f.before()).toBeNull();
      expect(f.loseAnswer()).toBe(false);
      expect(f.enter('t')).toBe(true);
    }
  });

  it('limits requests in flight per token, and frees a place when one ends', () => {
    const f = new FaultInjector({ maxInFlightPerToken: 2 });
    expect([f.enter('a'), f.enter('a'), f.enter('a'), f.enter('b')]).toEqual([true, true, false, true]);
    f.leave('a');
    expect(f.enter('a')).toBe(true);
  });

  it('injects about the share of errors asked for, the same way for the same seed', () => {
    const run = (): (string | number | null)[] => {
      const f = new FaultInjector({ errorRate: 0.2, seed: 42 });
      return Array.from({ length: 1000 }, () => f.before());
    };
    const first = run();
    expect(run()).toEqual(first);
    const errors = first.filter((x) => x === 500 || x === 503).length;
    expect(errors).toBeGreaterThan(150);
    expect(errors).toBeLessThan(250);
    expect(first).toContain(500);
    expect(first).toContain(503);
  });
});
