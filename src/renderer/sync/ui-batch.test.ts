import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SyncProgress } from '../../shared/ipc.ts';
import { createSyncStore } from './store.ts';
import { createUiBatch } from './ui-batch.ts';

const progress = (phase: SyncProgress['phase'], pages: number): SyncProgress => ({
  syncId: 's',
  phase,
  collection: null,
  records: 0,
  pages,
  requests: 0,
  plannedRequests: null,
  rate: 0,
  total: null,
  collections: {},
});

afterEach(() => vi.useRealTimers());

describe('the sync panel while pages stream in', () => {
  it('shows a burst of stored pages as one update, with every page counted', () => {
    vi.useFakeTimers();
    const store = createSyncStore();
    const renders = vi.fn();
    store.subscribe(renders);
    const ui = createUiBatch(store, 100);
    for (let i = 0; i < 200; i++) ui.page(i === 7 ? 3 : 0, 1);
    expect(renders).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(renders).toHaveBeenCalledTimes(1);
    expect(store.getState()).toMatchObject({ pagesWritten: 200, rowsWritten: 3 });
  });

  it('shows a change of phase at once and later progress of the same phase in a while', () => {
    vi.useFakeTimers();
    const store = createSyncStore();
    const ui = createUiBatch(store, 100);
    ui.progress(progress('fetching', 1));
    expect(store.getState()).toMatchObject({ running: true, progress: { pages: 1 } });
    ui.progress(progress('fetching', 2));
    expect(store.getState().progress?.pages).toBe(1);
    ui.progress(progress('completed', 3));
    // shown at once; the pass itself ends when its last pages are written (the controller's finishPass)
    expect(store.getState()).toMatchObject({ running: true, progress: { pages: 3, phase: 'completed' } });
  });
});
