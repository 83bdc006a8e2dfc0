import { describe, expect, it } from 'vitest';
import { groupsByRun, medianOf, p95ByPrefixLength } from './queries-lib.ts';

describe('query timings by kind of run', () => {
  it('puts run i in group i mod n', () => {
    expect(groupsByRun([10, 20, 30, 40, 50], 3)).toEqual([[10, 40], [20, 50], [30]]);
  });
  it('tells the search p95 for each prefix length', () => {
    expect(p95ByPrefixLength([90, 20, 5, 100, 30, 6])).toBe(
      '1 letter 100 ms, 2 letters 30 ms, 3 letters 6 ms',
    );
  });
});

describe('repeated cold starts', () => {
  it('reports the median and every run', () => {
    expect(medianOf([1300, 900, 1000])).toEqual({ median: 1000, note: 'median of 3: 900, 1000, 1300 ms' });
  });
});
