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

/** At most `max` pages handed to the renderer and not yet acknowledged. */
export class AckWindow {
  readonly #max: number;
  readonly #unacked = new Set<number>();
  readonly #queue = new WaitQueue();
  /** the most pages ever unacknowledged at once (tests check the bound) */
  peak = 0;

  constructor(max: number) {
    this.#max = max;
  }

  get unacked(): number {
    return this.#unacked.size;
  }

  get full(): boolean {
    return this.#unacked.size >= this.#max;
  }

  /** Waits for room, then counts `pageId` as sent. */
  async send(pageId: number, signal: AbortSignal): Promise<void> {
    await this.#queue.wait(
      () => this.#unacked.size < this.#max,
      signal,
      () => {
        this.#unacked.add(pageId);
        this.peak = Math.max(this.peak, this.#unacked.size);
      },
    );
  }

  /** The renderer committed `pageId`. Unknown ids are ignored. */
  ack(pageId: number): void {
    if (this.#unacked.delete(pageId)) this.#queue.wake();
  }
}
