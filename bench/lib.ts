/**
 * Shared types of the benchmarks. A benchmark module (`bench/NAME.bench.ts`)
 * exports `name`, `description` and `run(ctx)`, which returns its figures.
 * Where a figure has a floor (the same work done the simplest way, measured in
 * the same run), `ratio` compares the two; `target` says what counts as good.
 */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** the floor measured in the same run, in the same unit */
  floor?: number;
  /** e.g. ">= 50000 records/s", "< 60 s", "<= 1.3x floor" */
  target?: string;
  ratio?: number;
  note?: string;
  /** whether the target is met, when the benchmark can tell */
  pass?: boolean;
}

export interface BenchContext {
  /** repository root */
  root: string;
  /** progress lines (stderr, so the table stays readable) */
  log(message: string): void;
}

export interface BenchModule {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<Figure[]>;
  /**
   * A benchmark run in parts (the scale benchmark): whether an entry of its own
   * from the previous results.json stays beside this run's (a part not run now).
   * Without it, a benchmark's new figures replace all of its old ones.
   */
  keepsEarlier?(entry: { bench: string; name?: unknown }): boolean;
}

export interface BenchResult {
  bench: string;
  figures: Figure[];
  error?: string;
  seconds: number;
}

/** Records per second of `records` done in `ms` milliseconds. */
export function perSecond(records: number, ms: number): number {
  return ms > 0 ? Math.round((records * 1000) / ms) : 0;
}

/** The median of some numbers (0 for none). */
export function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The p-th percentile (0..100) by nearest rank. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
