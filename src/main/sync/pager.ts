/**
 * Reading one paged list: waves of speculative requests (see plan.ts), pages
 * handed on in start-row order, items de-duplicated by primary key so a record
 * that shifts between pages is neither lost (pages overlap) nor doubled.
 * Stops at the first short page or 901, whether or not the last page carries a
 * `next` link. I/O is injected: `fetchPage` and `onPage`.
 */
import { ApiError } from '../api/errors.ts';
import { nextWaveSize, pagingStep, waveStartrows, type PagingOptions } from './plan.ts';

export interface FetchedPage<T> {
  items: T[];
  empty: boolean;
  /** the response body's hash, when the client made one */
  hash?: string;
  /** the page is one the cache holds: its items are key fields only */
  unchanged?: boolean;
  /** every item of the page as received, keyed and hashed (what its fingerprint will list) */
  listed?: ListedItems;
  /** how many rows the page held, when `items` are fewer (a filtered page skipped whole: compare.ts) */
  rows?: number;
}

/** A page's items in the body's order: their keys and ITEM_HASH_CHARS characters of hash each. */
export interface ListedItems {
  keys: (string | number)[];
  hashes: string;
}

export interface PagerPage<T> {
  startrow: number;
  /** items not seen on an earlier page of this run */
  items: T[];
  /** where the list resumes after this page */
  nextStartrow: number;
  /** the list ended with this page */
  done: boolean;
  /** the response body's hash, when the client made one */
  hash?: string;
  /** the page is one the cache holds: its items are key fields only */
  unchanged?: boolean;
  /** every item of the page as received, before de-duplication */
  listed?: ListedItems;
}

export interface PagerDeps<T> {
  fetchPage(startrow: number): Promise<FetchedPage<T>>;
  keyOf(item: T): string | number;
  /** called once per page, in start-row order, and awaited (backpressure) */
  onPage(page: PagerPage<T>): Promise<void>;
}

export interface PagerResult {
  /** rows the list had from the start row */
  rows: number | null;
}

function samePageError(startrow: number): ApiError {
  return new ApiError(
    {
      code: 'not-the-api',
      message: `The same page came back for different start rows (again at row ${startrow}): something between Fieldbook and the API ignores paging (a proxy?). The sync stopped and nothing was removed from the cache.`,
    },
    { retryable: false },
  );
}

/** The rows a page held on the server. */
function rowsOf(page: FetchedPage<unknown>): number {
  return page.rows ?? page.items.length;
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
    const ends = pages.findIndex((p) => p.empty || rowsOf(p) < o.limit);
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
      // A full page of rows already seen: whatever answers ignores startrow (a proxy or cache serving
      // the same page). Not the Data API: the pass stops and prunes nothing, and this page is not handed on.
      // (A filtered page skipped whole lists its kept rows only, which may all sit where pages overlap: its body matched
      // the fingerprint of this very start row, which a page served for every start row would not.)
      if (!done && items.length === 0 && page.items.length > 0 && page.rows === undefined) throw samePageError(pageStart);
      await deps.onPage({ startrow: pageStart, items, nextStartrow: pageStart + step, done, ...(page.hash !== undefined ? { hash: page.hash } : {}), ...(page.unchanged ? { unchanged: true } : {}), ...(page.listed ? { listed: page.listed } : {}) });
      if (done) return { rows: pageStart - startrow + (page.empty ? 0 : rowsOf(page)) };
    }
  }
}
