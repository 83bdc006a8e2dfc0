/**
 * Reading one paged list: waves of speculative requests (see plan.ts), pages
 * handed on in start-row order, items de-duplicated by primary key so a record
 * that shifts between pages is neither lost (pages overlap) nor doubled.
 * Stops at the first short page or 901, whether or not the last page carries a
 * `next` link. I/O is injected: `fetchPage` and `onPage`.
 */
import { nextWaveSize, pagingStep, waveStartrows, type PagingOptions } from './plan.ts';

export interface FetchedPage<T> {
  items: T[];
  empty: boolean;
}

export interface PagerPage<T> {
  startrow: number;
  /** items not seen on an earlier page of this run */
  items: T[];
  /** where the list resumes after this page */
  nextStartrow: number;
  /** the list ended with this page */
  done: boolean;
}

export interface PagerDeps<T> {
  fetchPage(startrow: number): Promise<FetchedPage<T>>;
  keyOf(item: T): string | number;
  /** called once per page, in start-row order, and awaited (backpressure) */
  onPage(page: PagerPage<T>): Promise<void>;
}

export interface PagerResult {
  /** rows the list had from the start row; null when the server ignored paging (a full page of nothing new) */
  rows: number | null;
}

export async function readList<T>(startrow: number, hint: number | null, o: PagingOptions, deps: PagerDeps<T>): Promise<PagerResult> {
  const step = pagingStep(o);
  const seen = new Set<string | number>();
  let pagesDone = 0;

  const fetchWave = (from: number, done: number) => {
    const startrows = waveStartrows(from, nextWaveSize(done, hint, o), o);
    const pages = Promise.all(startrows.map((s) => deps.fetchPage(s)));
    // a wave fetched ahead may fail while the previous one is still being handed on
    pages.catch(() => undefined);
    return { startrows, pages };
  };

  let wave = fetchWave(startrow, pagesDone);
  for (;;) {
    const pages = await wave.pages;
    const ends = pages.findIndex((p) => p.empty || p.items.length < o.limit);
    pagesDone += wave.startrows.length;
    const current = wave;
    // keep the next wave in flight while this one is handed on (overlaps fetching with writing)
    if (ends < 0) wave = fetchWave(current.startrows.at(-1)! + step, pagesDone);

    for (let i = 0; i < pages.length; i++) {
      const page = pages[i]!;
      const pageStart = current.startrows[i]!;
      const items = page.items.filter((item) => {
        const key = deps.keyOf(item);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      const done = i === ends;
      // a full page with nothing new: the server ignores startrow; stop rather than loop forever
      const stuck = !done && items.length === 0 && page.items.length > 0;
      await deps.onPage({ startrow: pageStart, items, nextStartrow: pageStart + step, done: done || stuck });
      if (stuck) return { rows: null };
      if (done) return { rows: pageStart - startrow + (page.empty ? 0 : page.items.length) };
    }
  }
}
