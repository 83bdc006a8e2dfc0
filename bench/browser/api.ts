/**
 * What the benchmark page (bench/browser) offers the bench driver as
 * `window.fieldbookBench`. Types only, so both sides (Node and the page) share it.
 */
import type { CollectionName } from '../../src/shared/records.ts';

export const QUERY_NAMES = [
  'user search by name prefix',
  'user detail with all assignments',
  'credentials expiring in 30 days',
  'overdue training for a course',
] as const;
export type QueryName = (typeof QUERY_NAMES)[number];

/** Milliseconds of each timed run, per query. */
export type QueryTimings = Record<QueryName, number[]>;

export interface CollectionPages {
  collection: CollectionName;
  /** records per page, in order, as the sync delivered them */
  pageSizes: number[];
}

export interface WriteFloorResult {
  /** time spent in the page-sized write transactions only (reads of the source are not counted) */
  ms: number;
  records: number;
  pages: number;
  /** the same, per collection (what limits the floor) */
  byCollection: Partial<Record<CollectionName, { ms: number; records: number; pages: number }>>;
}

export interface BenchPageApi {
  /** record counts of the app's cache (the database of the active profile) */
  cacheCounts(): Promise<Partial<Record<CollectionName, number>>>;
  /** the four view queries over the full cache: `warmup` untimed runs, then `runs` timed runs each */
  queryLatency(runs: number, warmup: number): Promise<QueryTimings>;
  /** the cache's records written again into a fresh database of the same schema, page by page, no network */
  writeFloor(plan: CollectionPages[]): Promise<WriteFloorResult>;
}

export const BENCH_PAGE_GLOBAL = 'fieldbookBench';
