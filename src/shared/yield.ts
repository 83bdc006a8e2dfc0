/**
 * Let the event loop run (input, paint, other tasks) between the slices of a long
 * piece of work. Chromium's `scheduler.yield()` resumes the work first in line;
 * `setTimeout(0)`, the fallback elsewhere (Node), is clamped to 4 ms once nested,
 * which cost half a second over the 120 slices of planning a 100,000-row import.
 */
interface YieldingScheduler {
  yield(): Promise<void>;
}

export function yieldToEventLoop(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Partial<YieldingScheduler> }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
