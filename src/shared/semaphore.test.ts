import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

/** A promise and the function that settles it, for work that ends when the test says. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('the semaphore', () => {
  it('lets at most its size hold a slot at once', async () => {
    const slots = new Semaphore(3);
    let running = 0;
    let most = 0;
    const work = async () => {
      most = Math.max(most, ++running);
      await tick();
      running -= 1;
    };
    await Promise.all(Array.from({ length: 10 }, () => slots.run(work)));
    expect(most).toBe(3);
    expect(slots.inUse).toBe(0);
  });

  it('serves waiters in the order they asked, and one asking first ahead of them', async () => {
    const slots = new Semaphore(1);
    const blocker = gate();
    const order: string[] = [];
    const held = slots.run(() => blocker.promise);
    const waiting = ['a', 'b'].map((name) => slots.run(async () => void order.push(name)));
    const urgent = slots.run(async () => void order.push('first'), { first: true });
    expect(slots.waiting).toBe(3);
    blocker.open();
    await Promise.all([held, ...waiting, urgent]);
    expect(order).toEqual(['first', 'a', 'b']);
  });

  it('takes a waiter whose signal aborts out of the line, with the reason, and lets the next one go', async () => {
    const slots = new Semaphore(1);
    const blocker = gate();
    const stop = new AbortController();
    const held = slots.run(() => blocker.promise);
    const stopped = slots.acquire({ signal: stop.signal });
    const next = slots.run(async () => 'next ran');
    stop.abort(new Error('sync cancelled'));
    await expect(stopped).rejects.toThrow('sync cancelled');
    expect(slots.waiting).toBe(1);
    blocker.open();
    await held;
    expect(await next).toBe('next ran');
    expect(slots.inUse).toBe(0);
  });

  it('refuses at once a request whose signal has already aborted', async () => {
    const slots = new Semaphore(1);
    const stop = new AbortController();
    stop.abort(new Error('stopped'));
    await expect(slots.acquire({ signal: stop.signal })).rejects.toThrow('stopped');
    expect(slots.inUse).toBe(0);
  });

  it('keeps a slot held when its signal aborts: only its release frees it', async () => {
    const slots = new Semaphore(1);
    const stop = new AbortController();
    const release = await slots.acquire({ signal: stop.signal });
    stop.abort();
    let otherRan = false;
    const other = slots.run(async () => void (otherRan = true));
    await tick();
    expect(otherRan).toBe(false);
    release();
    await other;
    expect(otherRan).toBe(true);
  });

  it('counts a slot given back twice once', async () => {
    const slots = new Semaphore(2);
    const release = await slots.acquire();
    const other = await slots.acquire();
    release();
    release();
    expect(slots.inUse).toBe(1);
    other();
    expect(slots.inUse).toBe(0);
  });

  it('gives the slot back when the work throws', async () => {
    const slots = new Semaphore(1);
    await expect(slots.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await slots.run(async () => 'still free')).toBe('still free');
  });
});
