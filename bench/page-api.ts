/**
 * What the benchmark page (bench/browser) offers the bench driver as
 * `window.fieldbookBench`. Types only, so both sides (Node and the page) share it.
 */
import type { CollectionName } from '../src/shared/records.ts';

export const QUERY_NAMES = [
  'user search by name prefix',
  'user detail with all assignments',
  'credentials expiring in 30 days',
  'overdue training for a course',
] as const;
export type QueryName = (typeof QUERY_NAMES)[number];

/** Milliseconds per query: each timed run, and the very first (untimed warm-up) run, which pays for cold caches. */
export interface QueryTimings {
  runs: Record<QueryName, number[]>;
  first: Record<QueryName, number>;
}

/** Records of one collection read from the cache, as JSON (carried to the floor's profile by the driver). */
export interface RecordStretch {
  json: string;
  records: number;
  /** primary key of the last record, to read on from */
  lastKey: string | number | null;
}

export interface BenchPageApi {
  /** record counts of the app's cache (the database of the active profile) */
  cacheCounts(): Promise<Partial<Record<CollectionName, number>>>;
  /** the four view queries over the full cache: `warmup` untimed runs, then `runs` timed runs each */
  queryLatency(runs: number, warmup: number): Promise<QueryTimings>;
  /** write floor, source side: records of the cache in primary-key order */
  readStretch(collection: CollectionName, afterKey: string | number | null, count: number): Promise<RecordStretch>;
  /** write floor, target side: a fresh database of the app's schema */
  floorOpen(): Promise<void>;
  floorStage(json: string): number;
  /** writes the staged records in pages of these sizes, one transaction each; milliseconds of the writes */
  floorWrite(collection: CollectionName, pageSizes: number[]): Promise<number>;
  floorClose(): Promise<void>;
}

export const BENCH_PAGE_GLOBAL = 'fieldbookBench';
