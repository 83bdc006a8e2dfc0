import { describe, expect, it } from 'vitest';
import { AckWindow, RequestLanes, shareOfPage } from './flow.ts';

/** Sends until one send has to wait; returns how many went through. */
async function fill(window: AckWindow, share: number, from = 0): Promise<number> {
  const signal = new AbortController().signal;
  let sent = 0;
  for (let id = from; ; id++) {
    const waiting = window.send(id, signal, share).then(() => true);
    const went = await Promise.race([waiting, new Promise<boolean>((r) => setTimeout(() => r(false), 5))]);
    if (!went) return sent;
    sent++;
  }
}

/** A promise and its resolve. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('the lanes of requests in flight', () => {
  it('let at most their number run at once', async () => {
    const lanes = new RequestLanes(2);
    const signal = new AbortController().signal;
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        lanes.run(signal, async () => {
          most = Math.max(most, ++running);
          await tick();
          running--;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(lanes.inUse).toBe(0);
  });

  it('are given up by an answer waiting for something else, for the next request, and taken back ahead of requests still waiting', async () => {
    const lanes = new RequestLanes(1);
    const signal = new AbortController().signal;
    const fingerprints = gate();
    const order: string[] = [];
    const answered = lanes.run(signal, async (aside) => {
      order.push('first request');
      await aside(fingerprints.promise);
      order.push('first answer looked at');
    });
    const second = lanes.run(signal, async () => {
      order.push('second request');
      await tick();
      order.push('second request done');
    });
    const third = lanes.run(signal, async () => {
      order.push('third request');
    });
    await tick();
    expect(order).toEqual(['first request', 'second request']);
    fingerprints.open();
    await Promise.all([answered, second, third]);
    // the second went while the first waited; the first came back before the third, never two at once
    expect(order).toEqual([
      'first request',
      'second request',
      'second request done',
      'first answer looked at',
      'third request',
    ]);
    expect(lanes.inUse).toBe(0);
  });

  it('leave none taken when the sync stops while an answer waits to take its lane back', async () => {
    const lanes = new RequestLanes(1);
    const stop = new AbortController();
    const fingerprints = gate();
    const blocker = gate();
    const waiting = lanes.run(stop.signal, async (aside) => aside(fingerprints.promise));
    await tick();
    const other = lanes.run(stop.signal, () => blocker.promise);
    await tick();
    fingerprints.open();
    await tick();
    stop.abort();
    await expect(waiting).rejects.toThrow();
    blocker.open();
    await other;
    expect(lanes.inUse).toBe(0);
  });
});

describe('the acknowledgement window', () => {
  it('holds at most its size in pages of records', async () => {
    const window = new AckWindow(4);
    expect(await fill(window, 1)).toBe(4);
    expect(window.full).toBe(true);
  });

  it('lets sixteen messages of keys only wait in the room of one page of records', async () => {
    const window = new AckWindow(4);
    expect(await fill(window, 0)).toBe(64);
    expect(window.unacked).toBe(4);
    expect(window.peak).toBe(4);
  });

  it("weighs a message of a resync's few changed records like keys only, and a half page as half a page", async () => {
    expect(await fill(new AckWindow(4), 7 / 1000)).toBe(64);
    expect(await fill(new AckWindow(4), 0.5)).toBe(8);
    expect(await fill(new AckWindow(4), 0.3)).toBe(12); // five sixteenths each: 64 units hold twelve
  });

  it('is full when the next message does not fit, though some room is left', async () => {
    const window = new AckWindow(1);
    const signal = new AbortController().signal;
    await window.send(0, signal, 0.5);
    expect(window.full).toBe(false);
    const waiting = window.send(1, signal, 0.75);
    await new Promise((r) => setTimeout(r, 5));
    expect(window.unacked).toBe(0.5);
    expect(window.full).toBe(true);
    window.ack(0);
    await waiting;
    expect(window.unacked).toBe(0.75);
  });

  it('makes room again as messages are acknowledged, whatever their weight', async () => {
    const window = new AckWindow(1);
    expect(await fill(window, 0)).toBe(16);
    // the seventeenth, which waited, goes as soon as one is acknowledged
    for (let id = 0; id < 16; id++) window.ack(id);
    await new Promise((r) => setTimeout(r, 0));
    expect(window.unacked).toBe(1 / 16);
    window.ack(16);
    expect(window.unacked).toBe(0);
    expect(await fill(window, 1, 100)).toBe(1);
  });
});

describe("a message's share of a page", () => {
  const small = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, name: `person ${i}` }));
  it('is its records over a full page for small records, and 1 for a full page', () => {
    expect(shareOfPage(small(7), 1000, 1_000_000)).toBe(0.007);
    expect(shareOfPage(small(1000), 1000, 1_000_000)).toBe(1);
    expect(shareOfPage([], 1000, 1_000_000)).toBe(0);
  });

  it('is its bytes over a message for a few huge records', () => {
    const huge = [
      { id: 1, notes: 'x'.repeat(600_000) },
      { id: 2, notes: 'y'.repeat(300_000) },
    ];
    expect(shareOfPage(huge, 1000, 1_000_000)).toBeCloseTo(0.9, 2);
  });
});
