import { describe, expect, it, vi } from 'vitest';
import type { SyncPageEvent } from '../../shared/ipc.ts';
import type { UserRecord } from '../../shared/records.ts';
import { createPageQueue, GATHER_MS, groupComplete, takeGroup } from './page-queue.ts';
import { user } from '../testing/fixtures.ts';

function page(pageId: number, records: number, syncId = 'sync-1'): SyncPageEvent {
  const rows: UserRecord[] = Array.from({ length: records }, (_, i) => user(pageId * 10_000 + i));
  return {
    kind: 'records',
    syncId,
    pageId,
    taskId: 'users',
    collection: 'users',
    records: rows,
    checkpoint: { taskId: 'users', collection: 'users', nextStartrow: pageId * 100 + 1, done: false },
  };
}

/** a page whose fingerprint matched: its keys only, nothing to write */
function unchanged(pageId: number, syncId = 'sync-1'): SyncPageEvent {
  const { checkpoint } = page(pageId, 0, syncId);
  return {
    kind: 'unchanged',
    syncId,
    pageId,
    taskId: 'users',
    collection: 'users',
    records: [],
    checkpoint,
    unchangedKeys: [pageId],
    fingerprint: { startrow: pageId * 100, hash: null },
  };
}

describe('pages gathered into the groups that share a transaction', () => {
  it('takes an unchanged page alone: it costs no transaction', () => {
    const incoming = [unchanged(1), page(2, 3)];
    expect(takeGroup(incoming).map((p) => p.pageId)).toEqual([1]);
    expect(incoming.map((p) => p.pageId)).toEqual([2]);
  });

  it('takes the changed pages waiting in a row, with the unchanged ones between them', () => {
    const incoming = [page(1, 3), unchanged(2), page(3, 2)];
    expect(takeGroup(incoming).map((p) => p.pageId)).toEqual([1, 2, 3]);
    expect(incoming).toEqual([]);
  });

  it('never mixes two syncs in one group', () => {
    const incoming = [page(1, 3), page(2, 3, 'sync-2')];
    expect(takeGroup(incoming).map((p) => p.syncId)).toEqual(['sync-1']);
  });

  it('stops before the records would pass 5,000', () => {
    const incoming = [page(1, 3_000), page(2, 2_500)];
    expect(takeGroup(incoming).map((p) => p.pageId)).toEqual([1]);
  });

  it('calls a group of small pages incomplete (it waits for company), and a large or mixed one complete', () => {
    expect(groupComplete([page(1, 3)])).toBe(false);
    expect(groupComplete([page(1, 600)])).toBe(true);
    expect(groupComplete([page(1, 3), page(2, 3, 'sync-2')])).toBe(true);
    expect(groupComplete([unchanged(1)])).toBe(true);
    expect(groupComplete([])).toBe(true);
  });
});

describe('the page queue', () => {
  function setup() {
    let queue = Promise.resolve();
    const handled: number[][] = [];
    const acks = { flush: vi.fn(), pending: vi.fn(() => 0) };
    const pages = createPageQueue({
      enqueue: (work) => {
        queue = queue.then(work);
      },
      handle: async (group) => {
        handled.push(group.map((p) => p.pageId));
      },
      onError: vi.fn(),
      acks,
    });
    return { pages, handled, acks, idle: () => queue };
  }

  it('writes small pages that arrive within the moment in one group, and acknowledges once none wait', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { pages, handled, acks, idle } = setup();
      pages.receive(page(1, 2));
      pages.receive(page(2, 2));
      await vi.advanceTimersByTimeAsync(GATHER_MS);
      await idle();
      expect(handled).toEqual([[1, 2]]);
      expect(acks.flush).toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops waiting for company when the pass finishes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { pages, handled, idle } = setup();
      pages.receive(page(1, 2));
      await new Promise((resolve) => setImmediate(resolve)); // the write loop is waiting for company
      pages.noMore();
      await idle(); // no timer advanced: it did not wait out the moment
      expect(handled).toEqual([[1]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a group that fails past its own handling leaves the pages after it to be written', async () => {
    let queue = Promise.resolve();
    const handled: number[] = [];
    const onError = vi.fn();
    const pages = createPageQueue({
      enqueue: (work) => {
        queue = queue.then(work);
      },
      handle: async (group) => {
        if (group[0]!.pageId === 1) throw new Error('the cancel was refused');
        handled.push(...group.map((p) => p.pageId));
      },
      onError,
      acks: { flush: () => undefined, pending: () => 0 },
    });
    pages.receive(page(1, 600));
    pages.receive(page(2, 600, 'sync-2'));
    await queue;
    expect(onError).toHaveBeenCalledOnce();
    expect(handled).toEqual([2]);
  });
});
