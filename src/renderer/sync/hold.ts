/**
 * Work that changes what a sync would read (the sites kept on this laptop:
 * their records removed, then the new list saved in main) holds every sync
 * while it runs: a sync started in between would read the old list and bring a
 * removed site back. The Sync button says why it waits (`held`). A sync the
 * app starts by itself meanwhile (back from "Work offline", a site added)
 * waits for the hold to end, then runs: it is never refused silently.
 */
import type { SyncStore } from './store.ts';

export const SAVING_KEPT_SITES = 'The sites kept on this laptop are being saved: sync once that is done.';

/** What the views say while a sync waits for a hold to end. */
export const SYNC_AFTER_HOLD =
  'The sites kept on this laptop are being saved: the sync starts when that is done.';

type WatchedStore = Pick<SyncStore, 'getState' | 'setState' | 'subscribe'>;

/**
 * Resolves when nothing holds syncs (at once when nothing does). One sync
 * waits, however often one is asked for meanwhile: false for the others
 * (the one waiting will run). Never awaited inside a hold's own work.
 */
export async function untilNotHeld(store: WatchedStore): Promise<boolean> {
  if (store.getState().held === null) return true;
  if (store.getState().startsAfterHold) return false;
  store.setState({ startsAfterHold: true });
  await new Promise<void>((resolve) => {
    const off = store.subscribe((s) => {
      if (s.held !== null) return;
      off();
      resolve();
    });
  });
  store.setState({ startsAfterHold: false });
  return true;
}

/**
 * Runs `work` with syncs held (`reason` shown meanwhile); refused (null, nothing run) while a sync runs or another hold
 * is on.
 */
export async function whileSyncHeld<T>(
  store: Pick<SyncStore, 'getState' | 'setState'>,
  reason: string,
  work: () => Promise<T>,
): Promise<{ value: T } | null> {
  const state = store.getState();
  if (state.running || state.held !== null) return null;
  store.setState({ held: reason });
  try {
    return { value: await work() };
  } finally {
    store.setState({ held: null });
  }
}
