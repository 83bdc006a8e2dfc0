import { describe, expect, it } from 'vitest';
import {
  describeTimeline,
  isSyncRequest,
  medianRound,
  requestTimeline,
  pageSizes,
  ratioFigure,
  replayAtConcurrency,
  rowsWrittenFrom,
  slowestParts,
} from './sync-lib.ts';

describe('which recorded requests were the sync', () => {
  it('counts paged list reads', () => {
    expect(
      isSyncRequest({
        method: 'GET',
        url: 'http://127.0.0.1:1/v1/sites/101/trainingassignments?startrow=996&limit=1000',
      }),
    ).toBe(true);
  });
  it('leaves out the connection and access probes', () => {
    expect(isSyncRequest({ method: 'GET', url: 'http://127.0.0.1:1/v1/sites?startrow=1&limit=1' })).toBe(
      false,
    );
    expect(isSyncRequest({ method: 'PUT', url: 'http://127.0.0.1:1/v1/users/7' })).toBe(false);
  });
});

describe('page sizes of the write floor', () => {
  it('cuts a collection into as many pages as the sync streamed, evenly', () => {
    expect(pageSizes(2500, 3)).toEqual([834, 833, 833]);
  });
  it('never makes a page larger than the API page', () => {
    expect(pageSizes(2500, 1)).toEqual([834, 833, 833]);
  });
  it('makes no page for an empty collection', () => {
    expect(pageSizes(0, 2)).toEqual([]);
  });
});

describe('replaying a request list', () => {
  it('keeps at most the given number in flight and sends every request once', async () => {
    let inFlight = 0;
    let most = 0;
    const sent: string[] = [];
    await replayAtConcurrency(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 3, async (url) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      sent.push(url);
      inFlight--;
    });
    expect(most).toBe(3);
    expect([...sent].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });
  it('reports the elapsed time of the whole list', async () => {
    const clock = [10, 35];
    expect(
      await replayAtConcurrency(
        ['a'],
        4,
        async () => undefined,
        () => clock.shift()!,
      ),
    ).toBe(25);
  });
});

describe('figures', () => {
  it('passes a time within the allowed multiple of its floor', () => {
    expect(ratioFigure('sync', 26_000, 20_000, 1.3)).toMatchObject({
      value: 26,
      floor: 20,
      ratio: 1.3,
      pass: true,
    });
  });
  it('fails a time beyond it', () => {
    expect(ratioFigure('sync', 30_000, 20_000, 1.3)).toMatchObject({ ratio: 1.5, pass: false });
  });
  it('reads the rows written from the sync status', () => {
    expect(rowsWrittenFrom('Sync completed. 1,234 records written.')).toBe(1234);
    expect(rowsWrittenFrom('Sync completed. 0 records written.')).toBe(0);
    expect(rowsWrittenFrom('Sync failed.')).toBeNull();
  });
  it('names the slowest collections first', () => {
    expect(
      slowestParts(
        { users: { ms: 1000, records: 5000 }, sites: { ms: 1, records: 2 }, courses: undefined },
        1,
      ),
    ).toBe('users 5,000/s (1 s)');
  });
});

describe('the median of rounds, each against its own floor', () => {
  it('takes the round whose ratio is in the middle, not the middle time, and lists every ratio in round order', () => {
    const rounds = [
      { name: 'a', ms: 6000, floorMs: 4000 }, // 1.5
      { name: 'b', ms: 5000, floorMs: 2500 }, // 2.0
      { name: 'c', ms: 5500, floorMs: 4000 }, // 1.375
    ];
    const { median, ratios } = medianRound(rounds);
    expect(median.name).toBe('a');
    expect(ratios).toBe('1.50x, 2.00x, 1.38x');
  });

  it('takes the lower middle round of an even count, and refuses no rounds at all', () => {
    expect(
      medianRound([
        { ms: 2, floorMs: 1 },
        { ms: 1, floorMs: 1 },
      ]).median.ms,
    ).toBe(1);
    expect(() => medianRound([])).toThrow(/no round/);
  });
});

describe("a sync's time around its requests", () => {
  const get = (at: number, answeredAt: number) => ({
    method: 'GET',
    url: 'http://127.0.0.1/x',
    at,
    answeredAt,
  });

  it('splits the time before the first request, the requests, and after the last answer', () => {
    const t = requestTimeline(100, 1000, [get(150, 400), get(160, 900)], 2);
    expect(t).toMatchObject({ beforeFirstMs: 50, spanMs: 750, afterLastMs: 100 });
  });

  it('counts the time a lane stood free: a child list waiting for its parent', () => {
    // two lanes: one request alone for 100 ms, then two at once for 100 ms, then one alone for 50 ms
    const t = requestTimeline(0, 300, [get(0, 200), get(100, 250)], 2);
    expect(t.underusedMs).toBe(150);
    expect(requestTimeline(0, 300, [get(0, 200), get(0, 200)], 2).underusedMs).toBe(0);
  });

  it('leaves out a request with no answer time, and says so in words', () => {
    const t = requestTimeline(0, 500, [get(10, 20), { method: 'GET', url: 'http://127.0.0.1/y', at: 5 }], 4);
    expect(t.beforeFirstMs).toBe(10);
    expect(describeTimeline(t)).toBe(
      "0.01 s to the first request, 0.01 s of requests (0.01 s of it with fewer in flight than the engine's lanes), 0.48 s after the last answer",
    );
  });
});
