/**
 * Flow control for a sync: a counting semaphore that bounds requests in
 * flight, and the acknowledgement window that keeps main at most a few pages
 * ahead of the renderer's writes. Both wake their waiters in order and give up
 * when the sync's signal aborts.
 */

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/** Waiters in arrival order; each resolves when `ready()` holds. */
class WaitQueue {
  readonly #waiters: { ready: () => boolean; resolve: () => void }[] = [];

  wait(ready: () => boolean, signal: AbortSignal, onGranted: () => void): Promise<void> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    if (this.#waiters.length === 0 && ready()) {
      onGranted();
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        ready,
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          onGranted();
          resolve();
        },
      };
      const onAbort = () => {
        const i = this.#waiters.indexOf(waiter);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(abortReason(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  wake(): void {
    while (this.#waiters.length > 0 && this.#waiters[0]!.ready()) this.#waiters.shift()!.resolve();
  }
}

export class Semaphore {
  readonly #max: number;
  #used = 0;
  readonly #queue = new WaitQueue();

  constructor(max: number) {
    this.#max = max;
  }

  get inUse(): number {
    return this.#used;
  }

  async run<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    await this.#queue.wait(() => this.#used < this.#max, signal, () => this.#used++);
    try {
      return await work();
    } finally {
      this.#used--;
      this.#queue.wake();
    }
  }
}

/** Units of the window one message of keys only takes (a page of records takes KEYS_PER_PAGE of them). */
const KEYS_PER_PAGE = 8;

/**
 * At most `max` pages handed to the renderer and not yet acknowledged. A
 * message of keys only (a page the cache holds) weighs an eighth of a page:
 * it costs the renderer no write, so more of them may wait for their
 * acknowledgement round trip without holding back memory or writes.
 */
export class AckWindow {
  readonly #max: number;
  /** unacknowledged messages and their weight in units */
  readonly #unacked = new Map<number, number>();
  #load = 0;
  readonly #queue = new WaitQueue();
  /** the most pages' worth ever unacknowledged at once (tests check the bound) */
  peak = 0;

  constructor(max: number) {
    this.#max = max * KEYS_PER_PAGE;
  }

  /** pages' worth unacknowledged */
  get unacked(): number {
    return this.#load / KEYS_PER_PAGE;
  }

  get full(): boolean {
    return this.#load >= this.#max;
  }

  /** Waits for room, then counts `pageId` as sent (`keysOnly`: a message without records). */
  async send(pageId: number, signal: AbortSignal, keysOnly = false): Promise<void> {
    const weight = keysOnly ? 1 : KEYS_PER_PAGE;
    await this.#queue.wait(
      () => this.#load + weight <= this.#max,
      signal,
      () => {
        this.#unacked.set(pageId, weight);
        this.#load += weight;
        this.peak = Math.max(this.peak, this.#load / KEYS_PER_PAGE);
      },
    );
  }

  /** The renderer committed `pageId`. Unknown ids are ignored. */
  ack(pageId: number): void {
    const weight = this.#unacked.get(pageId);
    if (weight === undefined) return;
    this.#unacked.delete(pageId);
    this.#load -= weight;
    this.#queue.wake();
  }
}
