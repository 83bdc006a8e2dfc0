import { describe, expect, it } from 'vitest';
import { forEachSliced, mapSliced, sortSliced, type Slicing } from './sliced.ts';

/**
 * A clock that is a count of the work done (one unit per item, or what the item says it costs),
 * and a log of what happened in order: each item worked and each yield to the event loop.
 */
function workCounter(budgetMs: number, extra: Partial<Slicing> = {}) {
  let units = 0;
  const log: string[] = [];
  const options: Slicing = {
    budgetMs,
    checkEvery: 1,
    now: () => units,
    yieldNow: async () => {
      log.push('yield');
    },
    ...extra,
  };
  const work = (i: number, cost = 1) => {
    units += cost;
    log.push(String(i));
  };
  const slices = () =>
    log
      .join(' ')
      .split(' yield ')
      .map((s) => s.split(' ').map(Number));
  return { options, work, log, slices };
}

describe('forEachSliced: long work cut into short tasks', () => {
  it('works every item once, in order, and lets the event loop run each time a slice has used its budget', async () => {
    const c = workCounter(10);
    await expect(forEachSliced(35, (i) => c.work(i), c.options)).resolves.toBe(true);
    expect(c.log.filter((l) => l !== 'yield').map(Number)).toEqual(Array.from({ length: 35 }, (_, i) => i));
    // 35 units of work at 10 a slice: 4 slices, 3 yields between them, none of more than 10 items
    expect(c.log.filter((l) => l === 'yield')).toHaveLength(3);
    expect(c.slices().map((s) => s.length)).toEqual([10, 10, 10, 5]);
  });

  it('cuts by the work done, not by the number of items: costly items make short slices', async () => {
    const c = workCounter(10);
    const cost = (i: number) => (i < 4 ? 5 : 1); // the first four items cost five times the others
    await forEachSliced(12, (i) => c.work(i, cost(i)), c.options);
    expect(c.slices()).toEqual([
      [0, 1],
      [2, 3],
      [4, 5, 6, 7, 8, 9, 10, 11],
    ]);
  });

  it('reads the clock only every few items (by default every 8th), so a slice may run a few items past its budget', async () => {
    const c = workCounter(10, { checkEvery: undefined });
    await forEachSliced(40, (i) => c.work(i), c.options);
    expect(c.slices().map((s) => s.length)).toEqual([16, 16, 8]);
  });

  it('does not yield when the work fits in one slice', async () => {
    const c = workCounter(100);
    await forEachSliced(20, (i) => c.work(i), c.options);
    expect(c.log).not.toContain('yield');
  });

  it('stops at the next yield once stopped, and says it did not finish', async () => {
    let stop = false;
    const c = workCounter(10, { stopped: () => stop });
    const finished = forEachSliced(
      100,
      (i) => {
        c.work(i);
        if (i === 14) stop = true; // e.g. the user chose another column while the second slice ran
      },
      c.options,
    );
    await expect(finished).resolves.toBe(false);
    // the slice under way finishes (items are never half done); nothing after it runs
    expect(c.log.filter((l) => l !== 'yield').map(Number)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('does nothing when stopped before it starts', async () => {
    const c = workCounter(10, { stopped: () => true });
    await expect(forEachSliced(5, (i) => c.work(i), c.options)).resolves.toBe(false);
    expect(c.log).toEqual([]);
  });

  it('runs on the real clock and event loop by default', async () => {
    let done = 0;
    await expect(forEachSliced(1000, () => (done += 1))).resolves.toBe(true);
    expect(done).toBe(1000);
  });
});

describe('mapSliced', () => {
  it('maps every item in order, slice by slice', async () => {
    const c = workCounter(3);
    const out = await mapSliced(
      ['a', 'b', 'c', 'd', 'e'],
      (s, i) => {
        c.work(i);
        return s.toUpperCase();
      },
      c.options,
    );
    expect(out).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(c.log.filter((l) => l === 'yield')).toHaveLength(1);
  });

  it('gives null when stopped before the end (never a partial list)', async () => {
    let stop = false;
    const c = workCounter(2, { stopped: () => stop });
    const out = await mapSliced(
      [1, 2, 3, 4, 5],
      (n, i) => {
        c.work(i);
        stop = true;
        return n;
      },
      c.options,
    );
    expect(out).toBeNull();
  });
});

describe('sortSliced: a long sort cut into short tasks', () => {
  const bySeq = (a: { seq: number }, b: { seq: number }) => a.seq - b.seq;
  const shuffled = (n: number) => Array.from({ length: n }, (_, i) => ({ seq: (i * 7919) % n, id: i }));

  it('sorts as sort() does, stable: equal items keep their order', async () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({ seq: (i * 31) % 97, id: i }));
    expect(await sortSliced(items, bySeq)).toEqual([...items].sort(bySeq));
  });

  it('leaves the list it sorts as it was', async () => {
    const items = shuffled(3000);
    const copy = [...items];
    await sortSliced(items, bySeq);
    expect(items).toEqual(copy);
  });

  it('lets the event loop run while it sorts a long list', async () => {
    let yields = 0;
    const sorted = await sortSliced(shuffled(10_000), bySeq, {
      budgetMs: 0,
      yieldNow: async () => void yields++,
    });
    expect(sorted?.map((o) => o.seq)).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
    expect(yields).toBeGreaterThan(100);
  });

  it('stops when asked, and says so', async () => {
    let calls = 0;
    expect(
      await sortSliced(shuffled(10_000), bySeq, {
        budgetMs: 0,
        yieldNow: async () => undefined,
        stopped: () => ++calls > 3,
      }),
    ).toBeNull();
  });

  it('never works past its budget between two yields, however many short merges a level holds', async () => {
    // the clock counts comparisons: sorting a run of 1,024 is some 10,000 of them, the budget a little more
    let compared = 0;
    const counted = (a: { seq: number }, b: { seq: number }) => (compared++, bySeq(a, b));
    const atYields: number[] = [];
    const run = 1024;
    const sorted = await sortSliced(shuffled(16 * run), counted, {
      budgetMs: 12_000,
      now: () => compared,
      yieldNow: async () => void atYields.push(compared),
    });
    expect(sorted?.map((o) => o.seq)).toEqual(Array.from({ length: 16 * run }, (_, i) => i));
    const marks = [0, ...atYields, compared];
    const longest = Math.max(...marks.slice(1).map((at, i) => at - marks[i]!));
    // the budget, plus the item that crossed it: a run's sort (the costliest item, some 10,000 comparisons)
    expect(longest).toBeLessThanOrEqual(12_000 + 11_000);
  });

  it('sorts an empty list and a list of one', async () => {
    expect(await sortSliced([], bySeq)).toEqual([]);
    expect(await sortSliced([{ seq: 1 }], bySeq)).toEqual([{ seq: 1 }]);
  });
});
