/**
 * Flow control for a sync: the lanes that bound requests in flight (on the
 * app's one semaphore), and the acknowledgement window that keeps main at most a few pages
 * ahead of the renderer's writes. Both wake their waiters in order and give up
 * when the sync's signal aborts.
 */
import { Semaphore, type Release } from '../../shared/semaphore.ts';
import { jsonBytes } from './split.ts';

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/**
 * Waiters in arrival order; each resolves when `ready()` holds (the window's room is weighed, not counted in
 * slots).
 */
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

  get waiting(): number {
    return this.#waiters.length;
  }

  wake(): void {
    while (this.#waiters.length > 0 && this.#waiters[0]!.ready()) this.#waiters.shift()!.resolve();
  }
}

/**
 * Inside `RequestLanes.run`: gives the lane up while `wait` is pending and takes
 * one back after it, ahead of those waiting for a first one (a request whose
 * answer came and now waits for something else lets another request go).
 */
export type LaneAside = (wait: Promise<unknown>) => Promise<void>;

/** The sync's requests in flight: at most `max`, on the one semaphore (shared/semaphore.ts). */
export class RequestLanes {
  readonly #lanes: Semaphore;

  constructor(max: number) {
    this.#lanes = new Semaphore(max);
  }

  get inUse(): number {
    return this.#lanes.inUse;
  }

  async run<T>(signal: AbortSignal, work: (aside: LaneAside) => Promise<T>): Promise<T> {
    let release: Release | null = await this.#lanes.acquire({ signal });
    const aside: LaneAside = async (wait) => {
      if (release === null) return void (await wait);
      release();
      release = null;
      try {
        await wait;
      } finally {
        // an abort while waiting for it throws here, with no lane held
        release = await this.#lanes.acquire({ signal, first: true });
      }
    };
    try {
      return await work(aside);
    } finally {
      release?.();
    }
  }
}

/**
 * A message's share of a full page (`fullPage` records, `maxBytes` bytes) in
 * the acknowledgement window: the larger of its records' and its bytes' share
 * (a few huge records weigh what they hold). Measured only below a full page.
 */
export function shareOfPage(records: unknown[], fullPage: number, maxBytes: number): number {
  if (records.length === 0) return 0;
  if (records.length >= fullPage) return 1;
  return Math.min(1, Math.max(records.length / fullPage, jsonBytes(records) / maxBytes));
}

/** Units of the window one small message takes (a full page of records takes KEYS_PER_PAGE of them). */
const KEYS_PER_PAGE = 16;

/**
 * At most `max` pages' worth handed to the renderer and not yet acknowledged.
 * A message weighs its share of a full page (see send), a sixteenth at least:
 * a message of keys only (a page the cache holds) or of a resync's few
 * changed records costs the renderer little memory and little writing, so
 * more of them may wait for their acknowledgement round trip, and the
 * renderer can write several of them in one transaction.
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

  /** No room for the next message (none at all, or a send waits for more than is left). */
  get full(): boolean {
    return this.#load >= this.#max || this.#queue.waiting > 0;
  }

  /**
   * Waits for room, then counts `pageId` as sent: a message worth `share` of a
   * full page of records (the larger of its records' and its bytes' share; 0
   * for keys only).
   */
  async send(pageId: number, signal: AbortSignal, share = 1): Promise<void> {
    const weight = Math.min(KEYS_PER_PAGE, Math.max(1, Math.ceil(share * KEYS_PER_PAGE)));
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
