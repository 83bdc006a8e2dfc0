/** UI state of the sync: what the progress bar, the cancel button and the error banner show. */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { AppError, SyncFinishedEvent, SyncProgress } from '../../shared/ipc.ts';
import { profileStore } from '../app/profile-stores.ts';

export interface SyncUiState {
  running: boolean;
  syncId: string | null;
  /** the pass continues an interrupted one (nothing will be removed at its end) */
  resumed: boolean;
  progress: SyncProgress | null;
  finished: SyncFinishedEvent | null;
  /** records written to the cache by this pass (unchanged records are not written) */
  rowsWritten: number;
  pagesWritten: number;
  /** time spent writing pages (ms): what the cache costs the sync, for benchmarks */
  writeMs: number;
  /** records removed because a complete pass no longer saw them */
  rowsRemoved: number;
  /** the sync could not start, or a page could not be stored */
  error: AppError | null;
  /**
   * why no sync may start now, in the user's words (the kept sites are being saved: sync/hold.ts); null: nothing holds
   * it
   */
  held: string | null;
  /** a sync was asked for while `held`: it starts when the hold ends (hold.ts, `untilNotHeld`), and the views say so */
  startsAfterHold: boolean;
}

const initialSyncUiState: SyncUiState = {
  running: false,
  syncId: null,
  resumed: false,
  progress: null,
  finished: null,
  rowsWritten: 0,
  pagesWritten: 0,
  writeMs: 0,
  rowsRemoved: 0,
  error: null,
  held: null,
  startsAfterHold: false,
};

export type SyncStore = ReturnType<typeof createSyncStore>;

export function createSyncStore() {
  return createStore<SyncUiState>()(() => ({ ...initialSyncUiState }));
}

/** The app's one sync store: the active profile's (put back as it was made at a profile switch). */
export const syncStore = profileStore(createSyncStore());

export function useSyncState<T>(select: (s: SyncUiState) => T): T {
  return useStore(syncStore, select);
}
