/**
 * What the benchmark page (bench/browser) offers the bench driver as
 * `window.fieldbookBench`. Types only, so both sides (Node and the page) share it.
 */
import type { CollectionName } from '../src/shared/records.ts';

export const QUERY_NAMES = [
  'user search by name prefix',
  'user search by folded words in any order',
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

/** A user of the replay benchmark, as the server has it. */
export interface BenchUser {
  userid: number;
  siteid: number;
  username: string;
  status: string;
}

/** One status change: to `status`, made from `base` (what the server has). */
export interface BenchChange {
  userid: number;
  username: string;
  status: string;
  base: string;
}

export interface ReplayRound {
  /** from "the queue changed" to the engine idle and the cache refreshed */
  ms: number;
}

export interface ReplayTotals {
  byStatus: Record<string, number>;
  audited: number;
  /** ops found already in effect on the server (none expected without faults) */
  alreadyInEffect: number;
}

/** The cache a history simulation runs on. */
export interface HistoryCache {
  people: number;
  active: number;
  sites: number;
  credentialAssignments: number;
  training: number;
  /** the simulated change per day: new training, hires, leavers (on average) */
  perDay: { training: number; hires: number; leavers: number };
}

/** What one simulated day changed in the cache before its snapshot. */
export interface HistoryDayChanges {
  renewed: number;
  completed: number;
  assigned: number;
  hired: number;
  left: number;
  /** the requirement added that day, if any */
  requirement: string | null;
}

/** A phase of a snapshot: its milliseconds, and how many people (or rows) it went through when it says. */
export interface HistoryPhase {
  phase: string;
  ms: number;
  count?: number;
}

/** A task of the window over 50 ms: when it started (ms from what was timed) and how long it ran. */
export interface LongTask {
  at: number;
  ms: number;
}

export interface HistoryDay {
  /** milliseconds of the snapshot alone, from its start to its day committed */
  ms: number;
  /** milliseconds the sync's next writes waited on it: from its start to what it needs of the cache read */
  held: number;
  /** the window's long tasks (over 50 ms, Long Tasks API) from its start to its day committed */
  longTasks: LongTask[];
  /** null on the first day (the first sync: nothing changed before it) */
  changes: HistoryDayChanges | null;
  /** each phase of the snapshot, in order (the renderer's marks, history/phases.ts) */
  phases: HistoryPhase[];
}

/** Rows and their size as JSON text (UTF-8 bytes), by history table. */
export type HistorySize = Record<string, { rows: number; bytes: number }>;

export interface BenchPageApi {
  /**
   * main's profile of the bench's server (the harness's demo), made active and keeping these sites (null: every site);
   * its id
   */
  keepSites(siteids: number[] | null): Promise<string>;
  /** primary keys of every record of a collection in the app's cache */
  cacheKeys(collection: CollectionName): Promise<(string | number)[]>;
  /** record counts of the app's cache (the database of the active profile) */
  cacheCounts(): Promise<Partial<Record<CollectionName, number>>>;
  /**
   * primary keys of every `every`-th record of a collection, in key order, from the `offset`-th (the resync's changes)
   */
  sampleKeys(collection: CollectionName, every: number, offset: number): Promise<(string | number)[]>;
  /** the view queries over the full cache: `warmup` untimed runs, then `runs` timed runs each */
  queryLatency(runs: number, warmup: number): Promise<QueryTimings>;
  /** write floor, source side: records of the cache in primary-key order */
  readStretch(
    collection: CollectionName,
    afterKey: string | number | null,
    count: number,
  ): Promise<RecordStretch>;
  /**
   * write floor, target side: a fresh database of the app's schema (`app`) or of its tables with primary keys only
   * (`keys`)
   */
  floorOpen(schema: 'app' | 'keys'): Promise<void>;
  floorStage(json: string): number;
  /** writes the staged records in pages of these sizes, one transaction each; milliseconds of the writes */
  floorWrite(collection: CollectionName, pageSizes: number[]): Promise<number>;
  floorClose(): Promise<void>;
  /** replay: the app's outbox engine over this browser's IndexedDB, sending through main's handlers */
  replayOpen(users: BenchUser[]): Promise<void>;
  /** the same changes, one replay:execute call each from a plain loop (no queue); milliseconds */
  replayIpcFloor(changes: BenchChange[], concurrency: number): Promise<number>;
  /** `packed`: the changes queued as the import queues them, a hundred to a record (packs.ts) */
  replayRound(changes: BenchChange[], packed: boolean): Promise<ReplayRound>;
  /** the outcome rows of `count` done ops written again, in the engine's groups, with no network; milliseconds */
  replayWriteFloor(count: number): Promise<number>;
  replayEnqueueLatency(users: BenchUser[], runs: number): Promise<number[]>;
  replayTotals(): Promise<ReplayTotals>;
  replayClose(): Promise<void>;
  /** history: the cache to simulate on, its history emptied: the whole cache (null), or every n-th person copied */
  historyOpen(every: number | null): Promise<HistoryCache>;
  /** history: day `index` (`day`) of changes, then the snapshot of its sync (with a requirement added, when asked) */
  historyDay(index: number, day: string, requirement: boolean): Promise<HistoryDay>;
  historySize(): Promise<HistorySize>;
  historyClose(): Promise<void>;
}

export const BENCH_PAGE_GLOBAL = 'fieldbookBench';
