import { describe, expect, it } from 'vitest';
import { keptFromBefore, type ResultEntry } from './run.ts';
import type { BenchResult } from './lib.ts';

const ran = (bench: string): BenchResult => ({ bench, figures: [], seconds: 1 });

describe("results.json keeps other benchmarks' figures", () => {
  const old: ResultEntry[] = [
    { bench: 'sync', name: 'full sync' },
    { bench: 'scale', name: 'one site kept: first sync' },
    { bench: 'scale', name: 'all sites kept: full sync' },
  ];

  it('keeps every figure of a benchmark not run now', () => {
    expect(old.filter((e) => keptFromBefore(e, [ran('queries')], []))).toEqual(old);
  });

  it("replaces all of a benchmark's figures when it has no parts", () => {
    expect(
      old.filter((e) => keptFromBefore(e, [ran('sync')], [{ name: 'sync' }])).map((e) => e.name),
    ).toEqual(['one site kept: first sync', 'all sites kept: full sync']);
  });

  it('keeps the figures of the parts not run now, as the benchmark says', () => {
    const scale = {
      name: 'scale',
      keepsEarlier: (e: { bench: string; name?: unknown }) => String(e.name).startsWith('all sites kept:'),
    };
    expect(old.filter((e) => keptFromBefore(e, [ran('scale')], [scale])).map((e) => e.name)).toEqual([
      'full sync',
      'all sites kept: full sync',
    ]);
  });
});
