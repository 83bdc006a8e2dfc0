import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff.ts';

describe('backoff', () => {
  const policy = { baseMs: 1000, maxMs: 60_000 };

  it('grows exponentially with equal jitter: between half and all of the step', () => {
    expect(backoffMs(1, 0, policy)).toBe(500);
    expect(backoffMs(1, 1, policy)).toBe(1000);
    expect(backoffMs(3, 0, policy)).toBe(2000);
    expect(backoffMs(3, 1, policy)).toBe(4000);
  });

  it('spreads retries out: different random draws give different waits', () => {
    expect(backoffMs(2, 0.25, policy)).toBe(1250);
    expect(backoffMs(2, 0.75, policy)).toBe(1750);
  });

  it('never exceeds the cap', () => {
    expect(backoffMs(30, 1, policy)).toBe(60_000);
  });

  it("never retries sooner than the server's Retry-After", () => {
    expect(backoffMs(1, 0, policy, 7000)).toBe(7000);
  });

  it('keeps its own wait when the Retry-After is shorter', () => {
    expect(backoffMs(3, 1, policy, 10)).toBe(4000);
  });
});
