/**
 * Long work on the window's thread cut into short tasks: items are worked
 * through until a slice has used its time budget, then the event loop runs
 * (input, paint, IndexedDB answers) before the next slice. A budget of time,
 * not a count of items, because items differ widely in cost (a row planned
 * against 20,000 cached people, a row mapped, an op built), and a slice of a
 * fixed count that fits on an idle laptop may not on a busy one. No task of the window
 * should pass 50 ms (what Chromium reports as a long task): the default budget
 * leaves room for a garbage collection and for the machine being busy.
 */
import { yieldToEventLoop } from './yield.ts';

export interface Slicing {
  /** milliseconds of work in one slice before the event loop runs (default 8) */
  budgetMs?: number;
  /** checked before the first item and at each yield: true stops the work */
  stopped?: () => boolean;
  /** the clock (tests give a count of the work done instead) */
  now?: () => number;
  /** lets the event loop run (tests count the calls) */
  yieldNow?: () => Promise<void>;
  /**
   * the clock is read before every this many items (default 8: reading it cost 5% of a plan's time when read for each)
   */
  checkEvery?: number;
}

const BUDGET_MS = 8;
const CHECK_EVERY = 8;
const clock = () => performance.now();

/** Runs `work(i)` for i from 0 to count - 1, in order, a slice at a time; false when stopped before the end. */
export async function forEachSliced(
  count: number,
  work: (i: number) => void,
  options: Slicing = {},
): Promise<boolean> {
  const {
    budgetMs = BUDGET_MS,
    stopped,
    now = clock,
    yieldNow = yieldToEventLoop,
    checkEvery = CHECK_EVERY,
  } = options;
  if (stopped?.()) return false;
  let sliceStart = now();
  for (let i = 0; i < count; i += 1) {
    if (i % checkEvery === 0 && now() - sliceStart >= budgetMs) {
      await yieldNow();
      if (stopped?.()) return false;
      sliceStart = now();
    }
    work(i);
  }
  return true;
}

/** `forEachSliced` over the items of a list, mapped into a new list; null when stopped before the end. */
export async function mapSliced<T, U>(
  items: readonly T[],
  map: (item: T, i: number) => U,
  options: Slicing = {},
): Promise<U[] | null> {
  const out: U[] = [];
  const finished = await forEachSliced(items.length, (i) => out.push(map(items[i]!, i)), options);
  return finished ? out : null;
}

/** Items sorted a run at a time before the merges: a run sorts in well under a slice's budget. */
const RUN = 1024;

/**
 * Each pair of runs merged into one (a lone last run as it is), the whole level in one sliced pass (ties: the first
 * run's first, so the sort stays stable); null when stopped. One pass, not one per pair: a level's merges are each
 * short, and each begun with a fresh budget ran one after the other in one task (a level of 50 merges of 100,000 ops:
 * 54 ms of the window in the import bench).
 */
async function mergeLevel<T>(
  runs: readonly T[][],
  compare: (x: T, y: T) => number,
  options: Slicing,
): Promise<T[][] | null> {
  const merged: T[][] = [];
  let [r, i, j] = [0, 0, 0];
  let out: T[] = [];
  const finished = await forEachSliced(
    runs.reduce((n, run) => n + run.length, 0),
    () => {
      const a = runs[r]!;
      const b = runs[r + 1] ?? [];
      out.push(j >= b.length || (i < a.length && compare(a[i]!, b[j]!) <= 0) ? a[i++]! : b[j++]!);
      if (i < a.length || j < b.length) return;
      merged.push(out);
      [out, r, i, j] = [[], r + 2, 0, 0];
    },
    options,
  );
  return finished ? merged : null;
}

/**
 * A stable sort of `items` into a new list, a slice at a time: runs sorted by
 * the engine, then merged pairwise. One `sort()` of 100,000 ops is a task of
 * tens of milliseconds on an idle laptop and several times that on a busy one.
 * (No maintained library sorts in slices; a merge sort is a few lines.) Null when stopped.
 */
export async function sortSliced<T>(
  items: readonly T[],
  compare: (a: T, b: T) => number,
  options: Slicing = {},
): Promise<T[] | null> {
  let runs: T[][] = [];
  const sorted = await forEachSliced(
    Math.ceil(items.length / RUN),
    (r) => {
      runs.push(items.slice(r * RUN, (r + 1) * RUN).sort(compare));
    },
    { ...options, checkEvery: 1 },
  );
  if (!sorted) return null;
  while (runs.length > 1) {
    // the event loop runs between levels too: each begins a fresh budget
    await (options.yieldNow ?? yieldToEventLoop)();
    if (options.stopped?.()) return null;
    const merged = await mergeLevel(runs, compare, options);
    if (!merged) return null;
    runs = merged;
  }
  return runs[0] ?? [];
}
