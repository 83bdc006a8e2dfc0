/**
 * One profile's session: born when the profile becomes the active one, disposed
 * when another does (or the profile is deleted). It owns the profile's cache
 * database and sync controller, and at its end puts every store of the profile's
 * view state back as it was made (profile-stores.ts), so nothing chosen in one
 * profile is seen in the next. The view tree is keyed by its profile id (App.tsx):
 * what a view keeps in its own state ends with the profile too.
 */
import type { FieldbookApi } from '../../shared/ipc.ts';
import { dbNameForProfile, openFieldbookDb, type FieldbookDb } from '../db/index.ts';
import { createSyncController, type SyncController } from '../sync/controller.ts';
import { syncStore } from '../sync/store.ts';
import { resetProfileStores } from './profile-stores.ts';

export interface ProfileSession {
  readonly profileId: string;
  readonly db: FieldbookDb;
  readonly sync: SyncController;
  /** Stops the sync, closes the cache once the pages already received are written, and forgets the view state. */
  dispose(): void;
}

/** Opens a profile's session; a database this build cannot open (a newer build's) is told to `onOpenError`. */
export function openProfileSession(
  api: FieldbookApi,
  profileId: string,
  onOpenError: (message: string) => void,
): ProfileSession {
  const db = openFieldbookDb(dbNameForProfile(profileId));
  db.open().catch((e: unknown) => onOpenError(e instanceof Error ? e.message : String(e)));
  const sync = createSyncController(api, db, syncStore);
  let disposed = false;
  return {
    profileId,
    db,
    sync,
    dispose() {
      if (disposed) return;
      disposed = true;
      sync.dispose();
      void sync.idle().finally(() => db.close());
      resetProfileStores();
    },
  };
}
