/** Pure helpers of the queries benchmark (no I/O). */
import { median, percentile } from './lib.ts';

/** Samples split by run index modulo `n` (run i belongs to group i % n). */
export function groupsByRun(samples: readonly number[], n: number): number[][] {
  const groups = Array.from({ length: n }, () => [] as number[]);
  samples.forEach((sample, i) => groups[i % n]!.push(sample));
  return groups;
}

/**
 * "1 letter 12 ms, 2 letters 8 ms, 3 letters 5 ms": p95 of search runs by prefix length (run i types (i % 3) + 1
 * letters).
 */
export function p95ByPrefixLength(samples: readonly number[]): string {
  return groupsByRun(samples, 3)
    .map((group, i) => `${i + 1} letter${i ? 's' : ''} ${Math.round(percentile(group, 95) * 10) / 10} ms`)
    .join(', ');
}

/** The median of some runs, with the spread for the note. */
export function medianOf(values: readonly number[]): { median: number; note: string } {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: median(sorted),
    note: `median of ${sorted.length}: ${sorted.map((v) => Math.round(v)).join(', ')} ms`,
  };
}
