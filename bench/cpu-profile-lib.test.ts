import { describe, expect, it } from 'vitest';
import { describeSelfTime, selfTimeByFunction, type CpuProfile } from './cpu-profile-lib.ts';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

describe("a CPU profile's self time by function", () => {
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)') },
      { id: 2, callFrame: frame('bulkDelete', 'http://127.0.0.1:5180/assets/index-abc.js?x=1', 41) },
      { id: 3, callFrame: frame('', 'app://fieldbook/remove-site.ts', 9) },
      { id: 4, callFrame: frame('(garbage collector)') },
      // the same function reached by another path: one line
      { id: 5, callFrame: frame('bulkDelete', 'http://127.0.0.1:5180/assets/index-abc.js?x=1', 41) },
    ],
    samples: [2, 2, 3, 4, 5, 1],
    timeDeltas: [1000, 2000, 500, 4000, 1500, 250],
  };

  it('adds up the time of each sample to the function it caught, most first, with the file and line', () => {
    const summary = selfTimeByFunction(profile, 3);
    expect(summary.totalMs).toBe(9);
    expect(summary.top).toEqual([
      ['bulkDelete index-abc.js:42', 5],
      ['(garbage collector)', 4],
      ['(anonymous) remove-site.ts:10', 1],
    ]);
    expect(describeSelfTime(summary)).toBe(
      '9 ms sampled; most self time: bulkDelete index-abc.js:42 5 ms, (garbage collector) 4 ms, (anonymous) remove-site.ts:10 1 ms',
    );
  });

  it('reads a profile with no samples as nothing spent', () => {
    expect(selfTimeByFunction({ nodes: [] })).toEqual({ totalMs: 0, top: [] });
  });
});
