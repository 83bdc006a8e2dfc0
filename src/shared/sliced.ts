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
  /** the clock is read before every this many items (default 8: reading it cost 5% of a plan's time when read for each) */
  checkEvery?: number;
}

const BUDGET_MS = 8;
const CHECK_EVERY = 8;
const clock = () => performance.now();

/** Runs `work(i)` for i from 0 to count - 1, in order, a slice at a time; false when stopped before the end. */
export async function forEachSliced(count: number, work: (i: number) => void, options: Slicing = {}): Promise<boolean> {
  const { budgetMs = BUDGET_MS, stopped, now = clock, yieldNow = yieldToEventLoop, checkEvery = CHECK_EVERY } = options;
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
export async function mapSliced<T, U>(items: readonly T[], map: (item: T, i: number) => U, options: Slicing = {}): Promise<U[] | null> {
  const out: U[] = [];
  const finished = await forEachSliced(items.length, (i) => out.push(map(items[i]!, i)), options);
  return finished ? out : null;
}
