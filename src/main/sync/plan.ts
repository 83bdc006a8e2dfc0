/**
 * The sync plan's arithmetic: how a list is paged, and how many requests the
 * plan needs. Pure: no I/O.
 *
 * When a task's size is announced (a group's usercount, a credential's holders,
 * the previous sync's total), the pages that size needs are asked `maxWave` at
 * a time, the next as soon as the oldest has come (a sliding window: a long list
 * keeps the engine's lanes busy). Beyond them the list is read in waves of pages
 * requested together (speculative parallel paging: the API gives no total),
 * growing 1, 1, 2, 4 ... up to `maxWave`. The task stops at its first short page
 * (or 901): after the wave holding it, or, among the announced pages, with the
 * `maxWave - 1` asked after it. Consecutive pages overlap by `overlap` rows, so a record that moves
 * one place earlier between two requests (a deletion) is still seen; the
 * de-duplication by primary key drops the repeats.
 *
 * Because the waves are a function of the list's length and its hint alone,
 * the plan's request count is well defined: Σ over tasks of
 * `requestsForList(length, hint)`, known once every list that creates tasks has
 * been read. A sync of unchanging data makes exactly that many requests.
 */
import type { SyncTask } from './tasks.ts';
import { KIND_SPECS } from './tasks.ts';

export interface PagingOptions {
  /** rows per page (the API's maximum is 1000) */
  limit: number;
  /** rows repeated between consecutive pages */
  overlap: number;
  /** most pages of one list requested at once */
  maxWave: number;
}

export const DEFAULT_PAGING: PagingOptions = { limit: 1000, overlap: 5, maxWave: 4 };

export function pagingStep(o: PagingOptions): number {
  return Math.max(1, o.limit - Math.min(o.overlap, Math.floor(o.limit / 4)));
}

/** Pages needed to read `rows` rows, the last one short (or empty). */
export function pagesNeeded(rows: number, o: PagingOptions): number {
  if (rows < o.limit) return 1;
  return Math.floor((rows - o.limit) / pagingStep(o)) + 2;
}

/** The pages a task's announced size needs (0: no size announced): read through a sliding window, not in waves. */
export function knownPages(hint: number | null, o: PagingOptions): number {
  return hint === null ? 0 : pagesNeeded(hint, o);
}

/** How many pages the next wave asks for, after `pagesDone` pages of this run. */
export function nextWaveSize(pagesDone: number, hint: number | null, o: PagingOptions): number {
  const expected = hint === null ? 0 : pagesNeeded(hint, o);
  if (pagesDone < expected) return Math.min(o.maxWave, expected - pagesDone);
  return Math.min(o.maxWave, Math.max(1, pagesDone - expected));
}

/** The requests a list of `rows` rows (from the task's start row) costs, wave by wave. */
export function requestsForList(rows: number, hint: number | null, o: PagingOptions): number {
  const needed = pagesNeeded(rows, o);
  const known = knownPages(hint, o);
  // ended among the announced pages: the window had asked up to maxWave - 1 more (never past the announced ones)
  if (needed <= known) return Math.min(known, needed + o.maxWave - 1);
  let done = known;
  while (done < needed) done += nextWaveSize(done, hint, o);
  return done;
}

/** The start rows of the next wave, continuing from `nextStartrow`. */
export function waveStartrows(nextStartrow: number, size: number, o: PagingOptions): number[] {
  const step = pagingStep(o);
  return Array.from({ length: size }, (_, i) => nextStartrow + i * step);
}

/** A hint for a task resumed part-way: the rows still ahead of it. */
export function remainingHint(hint: number | null, startrow: number): number | null {
  return hint === null ? null : Math.max(0, hint - (startrow - 1));
}

/** Lists that create other tasks are read in full on every run, resumed or not: the plan needs all of their rows. */
export function expandsPlan(task: SyncTask): boolean {
  return KIND_SPECS[task.kind].children.length > 0;
}

export interface TaskOutcome {
  /** rows the list had from the start row, as read (null: the task did not finish) */
  rows: number | null;
  hint: number | null;
  /** requests actually made, used for tasks that did not finish */
  requests: number;
}

/** The plan's own request count: what the read lists cost by the paging rule. */
export function plannedRequests(outcomes: Iterable<TaskOutcome>, o: PagingOptions): number {
  let total = 0;
  for (const t of outcomes) total += t.rows === null ? t.requests : requestsForList(t.rows, t.hint, o);
  return total;
}
