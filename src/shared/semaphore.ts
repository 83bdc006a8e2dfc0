/**
 * The one semaphore of the sync's requests, the replay's network slots and the
 * outbox's hand-off: at most `size` holders at once, waiters served in the
 * order they asked unless one asks to go `first` (ahead of everyone waiting),
 * and a waiter whose signal aborts leaves the line with the signal's reason.
 * The line itself is p-queue's (priority and abort, pure JS, no eval or
 * workers: fine under the app's CSP); a slot here is held from `acquire` until
 * its `release`, which may come later than the function that took it, as
 * when a sync request gives its lane up while its answer waits (sync/flow.ts).
 */
import PQueue from 'p-queue';

/** Gives the slot back; a second call does nothing. */
export type Release = () => void;

export interface SlotRequest {
  /** while waiting only: an abort takes the request out of the line (a slot held is kept until released) */
  signal?: AbortSignal;
  /** ahead of the requests already waiting */
  first?: boolean;
}

const FIRST = 1;
const IN_TURN = 0;

export class Semaphore {
  readonly #line: PQueue;
  /** counted here, at once: p-queue counts a released slot free a few microtasks later */
  #held = 0;

  constructor(size: number) {
    this.#line = new PQueue({ concurrency: size });
  }

  /** slots held now */
  get inUse(): number {
    return this.#held;
  }

  /** requests waiting for a slot */
  get waiting(): number {
    return this.#line.size;
  }

  /** A slot, once one is free; rejects with the signal's reason if it aborts before. */
  acquire({ signal, first = false }: SlotRequest = {}): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // the line sees an abort only while the request waits: once it holds a slot, only its release frees it
    const whileWaiting = new AbortController();
    const leaveLine = () => whileWaiting.abort(signal?.reason);
    signal?.addEventListener('abort', leaveLine, { once: true });
    return new Promise<Release>((granted, refused) => {
      const hold = () =>
        new Promise<void>((free) => {
          signal?.removeEventListener('abort', leaveLine);
          this.#held += 1;
          granted(this.#releaseOnce(free));
        });
      this.#line.add(hold, { priority: first ? FIRST : IN_TURN, signal: whileWaiting.signal }).catch(refused);
    });
  }

  /** `work` in a slot, given back however it ends. */
  async run<T>(work: () => Promise<T>, request: SlotRequest = {}): Promise<T> {
    const release = await this.acquire(request);
    try {
      return await work();
    } finally {
      release();
    }
  }

  #releaseOnce(free: () => void): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held -= 1;
      free();
    };
  }
}
