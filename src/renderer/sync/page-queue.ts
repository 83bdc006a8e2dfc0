/**
 * The pages main streams, waiting to be written: taken in groups that share one
 * transaction (an unchanged page alone; pages with records that wait in a row, of one
 * sync, within GROUP_PAGES and GROUP_RECORDS). Small pages wait a little for company
 * (GATHER_MS); large ones only while the previous ones are being written. Pure
 * grouping here: the writing and acknowledging are the controller's (handle, acks).
 */
import type { SyncPageEvent } from '../../shared/ipc.ts';
import { PassFingerprints } from './fingerprints.ts';

/**
 * Pages with records written in one transaction at most, and records in all
 * (main sends up to 64 small pages ahead: flow.ts). Every transaction that
 * writes costs Chromium a clean-up task after its commit (its undo log is
 * deleted), which takes tens of milliseconds on a large cache: a resync's
 * hundreds of small changed pages are written in as few transactions as
 * they allow.
 */
const GROUP_PAGES = 48;
/**
 * Messages in one group at most, unchanged pages among them included (they are not written: only their checkpoints).
 */
const GROUP_MESSAGES = 64;
const GROUP_RECORDS = 5_000;
/**
 * Pages that hold fewer records than this together wait up to GATHER_MS for
 * others to share their transaction (a resync's changed pages carry a few
 * records each, and every transaction costs Chromium about as much as a few
 * records). Larger pages are written at once: they fill a transaction alone.
 */
const GATHER_RECORDS = 500;
export const GATHER_MS = 150;

/**
 * The next pages to handle, taken off `incoming`: an unchanged page alone, or the
 * pages with records that wait in a row (of one sync, within GROUP_PAGES and
 * GROUP_RECORDS), with the unchanged pages between them.
 */
export function takeGroup(incoming: SyncPageEvent[]): SyncPageEvent[] {
  const first = incoming.shift()!;
  const group = [first];
  if (PassFingerprints.isUnchanged(first)) return group;
  let records = first.records.length;
  let written = 1;
  for (
    let next = incoming[0];
    next && written < GROUP_PAGES && group.length < GROUP_MESSAGES;
    next = incoming[0]
  ) {
    if (next.syncId !== first.syncId || records + next.records.length > GROUP_RECORDS) break;
    group.push(incoming.shift()!);
    records += next.records.length;
    if (!PassFingerprints.isUnchanged(next)) written++;
  }
  return group;
}

/**
 * Whether the next group is as large as it will get: an unchanged page first
 * (handled alone, at once), enough pages or records, or a page of another
 * sync behind it. Otherwise it waits for more to arrive. Unchanged pages
 * behind the first join the group: a resync's changed pages come between
 * unchanged ones, and each group that writes costs a transaction.
 */
export function groupComplete(incoming: readonly SyncPageEvent[]): boolean {
  const first = incoming[0];
  if (!first || PassFingerprints.isUnchanged(first)) return true;
  let records = 0;
  let written = 0;
  for (const [i, page] of incoming.entries()) {
    if (page.syncId !== first.syncId) return true;
    records += page.records.length;
    if (!PassFingerprints.isUnchanged(page)) written++;
    if (written >= GROUP_PAGES || i + 1 >= GROUP_MESSAGES || records >= GATHER_RECORDS) return true;
  }
  return false;
}

export interface PageQueueDeps {
  /** runs work after everything queued before it (the controller's one queue) */
  enqueue(work: () => Promise<void>): void;
  /** writes one group (one transaction, or one unchanged page); its own failures are its to report */
  handle(pages: readonly SyncPageEvent[]): Promise<void>;
  /** a failure past `handle`'s own handling */
  onError(e: unknown): void;
  /** acknowledges what was written: `pending` says how many pages wait for it */
  acks: { flush(): void; pending(): number };
}

export interface PageQueue {
  /** A page arrived: written in turn, with those waiting beside it. */
  receive(page: SyncPageEvent): void;
  /** No page comes after the ones received (the pass finished): stop waiting for company. */
  noMore(): void;
}

/** Unchanged pages acknowledged together at most this many at a time (main sends up to 64 of them ahead: flow.ts). */
const ACK_EVERY = 16;

export function createPageQueue(deps: PageQueueDeps): PageQueue {
  const incoming: SyncPageEvent[] = [];
  /** a queued task is writing `incoming` (more pages join it as they arrive) */
  let draining = false;
  let wake: (() => void) | null = null;

  /** Resolves when the next group is complete, the pass ends, or GATHER_MS have passed. */
  const gathered = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, GATHER_MS);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  async function drain(): Promise<void> {
    try {
      while (incoming.length > 0) {
        if (!groupComplete(incoming)) {
          // main waits for these before sending more of its window
          deps.acks.flush();
          await gathered();
        }
        // one group failing past its own handling (the cancel itself refused) leaves the pages after it to be written
        await deps.handle(takeGroup(incoming)).catch(deps.onError);
        if (incoming.length === 0 || deps.acks.pending() >= ACK_EVERY) deps.acks.flush();
      }
    } finally {
      draining = false;
    }
  }

  return {
    receive(page) {
      incoming.push(page);
      if (wake && groupComplete(incoming)) wake();
      if (draining) return;
      draining = true;
      deps.enqueue(drain);
    },
    noMore() {
      wake?.();
    },
  };
}
