/**
 * Reading one paged list: waves of speculative requests (see plan.ts), pages
 * handed on in start-row order, items de-duplicated by primary key so a record
 * that shifts between pages is neither lost (pages overlap) nor doubled.
 * Stops at the first short page or 901, whether or not the last page carries a
 * `next` link. I/O is injected: `fetchPage` and `onPage`.
 */
import { ApiError } from '../api/errors.ts';
import { knownPages, nextWaveSize, pagingStep, waveStartrows, type PagingOptions } from './plan.ts';

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

/** Hands pages on in start-row order, de-duplicated; says when the list ended. */
function handOver<T>(startrow: number, o: PagingOptions, deps: PagerDeps<T>) {
  const step = pagingStep(o);
  const seen = new Set<string | number>();
  /** the list's rows when `page` ends it, else null */
  return async (page: FetchedPage<T>, pageStart: number): Promise<number | null> => {
    const items = page.items.filter((item) => {
      const key = deps.keyOf(item);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const done = endsList(page, o);
    // A full page of rows already seen: whatever answers ignores startrow (a proxy or cache serving
    // the same page). Not the Data API: the pass stops and prunes nothing, and this page is not handed on.
    // (A filtered page skipped whole lists its kept rows only, which may all sit where pages overlap: its body matched
    // the fingerprint of this very start row, which a page served for every start row would not.)
    if (!done && items.length === 0 && page.items.length > 0 && page.rows === undefined)
      throw samePageError(pageStart);
    await deps.onPage({
      startrow: pageStart,
      items,
      nextStartrow: pageStart + step,
      done,
      ...(page.hash !== undefined ? { hash: page.hash } : {}),
      ...(page.unchanged ? { unchanged: true } : {}),
      ...(page.listed ? { listed: page.listed } : {}),
    });
    return done ? pageStart - startrow + (page.empty ? 0 : rowsOf(page)) : null;
  };
}

const endsList = (page: FetchedPage<unknown>, o: PagingOptions): boolean =>
  page.empty || rowsOf(page) < o.limit;

/**
 * The pages a hint announces (plan.ts `knownPages`): up to `maxWave` of them in
 * flight, the next asked as soon as the oldest has come, so the engine's lanes
 * stay busy on a long list instead of waiting for a whole wave's slowest page.
 * Resolves with the list's rows when one of them ended it, else null.
 */
async function readKnownPages<T>(
  known: number,
  startrow: number,
  o: PagingOptions,
  deps: PagerDeps<T>,
  handOn: (page: FetchedPage<T>, start: number) => Promise<number | null>,
): Promise<number | null> {
  const step = pagingStep(o);
  const inFlight: { start: number; page: Promise<FetchedPage<T>> }[] = [];
  let asked = 0;
  const askMore = () => {
    for (; asked < known && inFlight.length < o.maxWave; asked++) {
      const start = startrow + asked * step;
      const page = deps.fetchPage(start);
      // a page asked ahead may fail while an earlier one is still being handed on
      page.catch(() => undefined);
      inFlight.push({ start, page });
    }
  };
  askMore();
  for (let oldest = inFlight.shift(); oldest; oldest = inFlight.shift()) {
    const page = await oldest.page;
    if (!endsList(page, o)) askMore();
    const rows = await handOn(page, oldest.start);
    if (rows !== null) return rows;
  }
  return null;
}

export async function readList<T>(
  startrow: number,
  hint: number | null,
  o: PagingOptions,
  deps: PagerDeps<T>,
): Promise<PagerResult> {
  const step = pagingStep(o);
  const handOn = handOver(startrow, o, deps);
  const known = knownPages(hint, o);
  const ended = await readKnownPages(known, startrow, o, deps, handOn);
  if (ended !== null) return { rows: ended };
  let pagesDone = known;

  const fetchWave = (from: number, done: number) => {
    const startrows = waveStartrows(from, nextWaveSize(done, hint, o), o);
    const pages = Promise.all(startrows.map((s) => deps.fetchPage(s)));
    // a wave fetched ahead may fail while the previous one is still being handed on
    pages.catch(() => undefined);
    return { startrows, pages };
  };

  // beyond what the hint announced: speculative waves (plan.ts)
  let wave = fetchWave(startrow + known * step, pagesDone);
  for (;;) {
    const pages = await wave.pages;
    const ends = pages.findIndex((p) => endsList(p, o));
    pagesDone += wave.startrows.length;
    const current = wave;
    // keep the next wave in flight while this one is handed on (overlaps fetching with writing)
    if (ends < 0) wave = fetchWave(current.startrows.at(-1)! + step, pagesDone);
    for (let i = 0; i < pages.length; i++) {
      const rows = await handOn(pages[i]!, current.startrows[i]!);
      if (rows !== null) return { rows };
    }
  }
}
