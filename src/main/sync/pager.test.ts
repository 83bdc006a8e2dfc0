import { describe, expect, it } from 'vitest';
import { readList, type FetchedPage, type PagerPage } from './pager.ts';
import type { PagingOptions } from './plan.ts';

const o: PagingOptions = { limit: 3, overlap: 0, maxWave: 4 };

interface Row {
  id: number;
}

/** A list the test can change between requests. */
function serve(rows: () => Row[], opts: { emptyAs901?: boolean } = {}) {
  const startrows: number[] = [];
  const fetchPage = async (startrow: number): Promise<FetchedPage<Row>> => {
    startrows.push(startrow);
    const items = rows().slice(startrow - 1, startrow - 1 + o.limit);
    return { items, empty: items.length === 0 && opts.emptyAs901 !== false };
  };
  return { fetchPage, startrows };
}

async function read(
  fetchPage: (s: number) => Promise<FetchedPage<Row>>,
  opts: PagingOptions = o,
  startrow = 1,
  hint: number | null = null,
) {
  const pages: PagerPage<Row>[] = [];
  const result = await readList<Row>(startrow, hint, opts, {
    fetchPage,
    keyOf: (r) => r.id,
    onPage: async (p) => void pages.push(p),
  });
  return { pages, result, ids: pages.flatMap((p) => p.items.map((r) => r.id)) };
}

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1 }));

describe('reading one paged list', () => {
  it('stops at the first short page', async () => {
    const { ids, pages, result } = await read(serve(() => rows(7)).fetchPage);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pages.at(-1)!.done).toBe(true);
    expect(result.rows).toBe(7);
  });

  it('stops at 901 after an exactly full last page', async () => {
    const { ids, pages } = await read(serve(() => rows(6)).fetchPage);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pages.at(-1)).toMatchObject({ items: [], done: true });
  });

  it('ends an empty list (901 on the first page) with one empty, finished page', async () => {
    const { pages } = await read(serve(() => []).fetchPage);
    expect(pages).toEqual([{ startrow: 1, items: [], nextStartrow: 4, done: true }]);
  });

  it('hands pages on in start-row order even when later pages answer first', async () => {
    const data = rows(11);
    const fetchPage = (startrow: number) =>
      new Promise<FetchedPage<Row>>((resolve) => {
        const items = data.slice(startrow - 1, startrow + 2);
        setTimeout(() => resolve({ items, empty: items.length === 0 }), 20 - startrow);
      });
    const { pages } = await read(fetchPage, o, 1, 11);
    expect(pages.map((p) => p.startrow)).toEqual([1, 4, 7, 10]);
  });

  it('keeps several start rows in flight for a long list', async () => {
    let inFlight = 0;
    let peak = 0;
    const data = rows(30);
    const fetchPage = async (startrow: number) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      const items = data.slice(startrow - 1, startrow + 2);
      return { items, empty: items.length === 0 };
    };
    await read(fetchPage);
    expect(peak).toBeGreaterThan(1);
  });

  it('does not double a record pushed onto the next page by an insertion', async () => {
    let data = rows(6);
    const server = serve(() => data);
    const fetchPage = async (startrow: number) => {
      const page = await server.fetchPage(startrow);
      if (startrow === 1) data = [{ id: 0 }, ...data]; // a new record sorts first: 3 moves to page 2
      return page;
    };
    const { ids } = await read(fetchPage, { ...o, maxWave: 1 });
    expect(ids.filter((id) => id === 3)).toHaveLength(1);
  });

  it('does not lose a record pulled onto the previous page by a deletion, thanks to the overlap', async () => {
    let data = rows(9);
    const overlapping: PagingOptions = { limit: 4, overlap: 1, maxWave: 1 };
    const fetchPage = async (startrow: number) => {
      const items = data.slice(startrow - 1, startrow + 3);
      if (startrow === 1) data = data.filter((r) => r.id !== 2); // 5 moves back onto page 1's rows
      return { items, empty: items.length === 0 };
    };
    const { ids } = await read(fetchPage, overlapping);
    expect(ids).toContain(5);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('resumes at a checkpoint’s start row', async () => {
    const server = serve(() => rows(7));
    const { ids } = await read(server.fetchPage, o, 4);
    expect(server.startrows[0]).toBe(4);
    expect(ids).toEqual([4, 5, 6, 7]);
  });

  it('fails as not the API, instead of looping or reporting a complete list, when the server ignores startrow', async () => {
    const handed: number[] = [];
    const fetchPage = async () => ({ items: rows(3), empty: false });
    const reading = readList<Row>(1, null, o, {
      fetchPage,
      keyOf: (r) => r.id,
      onPage: async (p) => void handed.push(...p.items.map((r) => r.id)),
    });
    await expect(reading).rejects.toMatchObject({
      appError: { code: 'not-the-api', message: expect.stringMatching(/same page/) },
    });
    expect(handed).toEqual([1, 2, 3]); // the first page is real data; nothing marks the list done
  });

  it('reads on past a filtered page known by its kept rows only: it counts the rows the page held, even when its kept rows were all seen on the page before', async () => {
    // pages of 4 rows overlapping by one (start rows 1, 4, 7, 10); the second page keeps only the row where it overlaps
    // the first
    const overlapping: PagingOptions = { limit: 4, overlap: 1, maxWave: 4 };
    const kept = new Map<number, Row[]>([
      [1, [{ id: 4 }]],
      [4, [{ id: 4 }]],
      [7, [{ id: 8 }]],
      [10, []],
    ]);
    const fetchPage = async (startrow: number): Promise<FetchedPage<Row>> => ({
      items: kept.get(startrow) ?? [],
      empty: false,
      rows: startrow < 10 ? 4 : 1,
    });
    const { ids, result, pages } = await read(fetchPage, overlapping);
    expect(ids).toEqual([4, 8]);
    expect(pages.map((p) => p.startrow)).toEqual([1, 4, 7, 10]);
    expect(result.rows).toBe(10);
  });

  it('makes exactly the requests the plan counts for its length', async () => {
    const { requestsForList } = await import('./plan.ts');
    for (const n of [0, 2, 3, 9, 10, 25]) {
      const server = serve(() => rows(n));
      await read(server.fetchPage);
      expect(server.startrows.length).toBe(requestsForList(n, null, o));
    }
  });

  it('makes exactly the requests the plan counts when a size was announced: the same, longer or shorter than the list', async () => {
    const { requestsForList } = await import('./plan.ts');
    for (const n of [0, 2, 3, 9, 10, 25, 40]) {
      for (const hint of [0, 3, 9, 10, 25, 40]) {
        const server = serve(() => rows(n));
        const { ids } = await read(server.fetchPage, o, 1, hint);
        expect(ids, `${n} rows, ${hint} announced`).toEqual(rows(n).map((r) => r.id));
        expect(server.startrows.length, `${n} rows, ${hint} announced`).toBe(requestsForList(n, hint, o));
      }
    }
  });

  it('asks the next announced page as soon as the oldest has come, not once the slowest of a wave has', async () => {
    const data = rows(30);
    const asked: number[] = [];
    const answers = new Map<number, () => void>();
    const fetchPage = (startrow: number) => {
      asked.push(startrow);
      return new Promise<FetchedPage<Row>>((resolve) => {
        const items = data.slice(startrow - 1, startrow - 1 + o.limit);
        answers.set(startrow, () => resolve({ items, empty: items.length === 0 }));
      });
    };
    const reading = read(fetchPage, o, 1, 30);
    const settle = () => new Promise((r) => setTimeout(r, 0));
    await settle();
    // four pages at once, as before
    expect(asked).toEqual([1, 4, 7, 10]);
    // the first comes, the other three are slow: the fifth is asked now
    answers.get(1)!();
    await settle();
    expect(asked).toEqual([1, 4, 7, 10, 13]);
    for (let start = 4; start <= 31; start += 3) {
      answers.get(start)?.();
      await settle();
    }
    const { ids } = await reading;
    expect(ids).toEqual(data.map((r) => r.id));
  });
});

describe('the default paging', () => {
  it('is pinned: 1000 rows a page, 5 rows of overlap, 4 pages at once', async () => {
    const { DEFAULT_PAGING } = await import('./plan.ts');
    expect(DEFAULT_PAGING).toEqual({ limit: 1000, overlap: 5, maxWave: 4 });
  });

  it('still reads a record that moved one place earlier between two requests (a deletion)', async () => {
    const { DEFAULT_PAGING } = await import('./plan.ts');
    let list = rows(2500);
    let requests = 0;
    const fetchPage = async (startrow: number): Promise<FetchedPage<Row>> => {
      const items = list.slice(startrow - 1, startrow - 1 + DEFAULT_PAGING.limit);
      // someone deletes record 10 once the first page has been answered: every later record moves up one row
      if (++requests === 1) list = list.filter((r) => r.id !== 10);
      return { items, empty: items.length === 0 };
    };
    const { ids } = await read(fetchPage, DEFAULT_PAGING);
    expect(ids).toContain(1001);
    expect(new Set(ids).size).toBe(2500);
  });
});
