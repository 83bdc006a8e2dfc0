/**
 * Work that changes what a sync would read (the sites kept on this laptop:
 * their records removed, then the new list saved in main) holds every sync
 * while it runs: a sync started in between would read the old list and bring a
 * removed site back. The Sync button says why it waits (`held`).
 */
import type { SyncStore } from './store.ts';

export const SAVING_KEPT_SITES = 'The sites kept on this laptop are being saved: sync once that is done.';

/** Runs `work` with syncs held (`reason` shown meanwhile); refused (null, nothing run) while a sync runs or another hold is on. */
export async function whileSyncHeld<T>(store: Pick<SyncStore, 'getState' | 'setState'>, reason: string, work: () => Promise<T>): Promise<{ value: T } | null> {
  const state = store.getState();
  if (state.running || state.held !== null) return null;
  store.setState({ held: reason });
  try {
    return { value: await work() };
  } finally {
    store.setState({ held: null });
  }
}
