/**
 * One profile's session: born when the profile becomes the active one, disposed
 * when another does (or the profile is deleted). It owns the profile's two
 * instances of its database (the views' and the outbox's strict one) and what they
 * keep in memory (db/memory.ts), the sync controller and the outbox engine; at its
 * end it puts every store of the profile's view state back as it was made
 * (profile-stores.ts), so nothing chosen in one profile is seen in the next. The
 * view tree is keyed by its profile id (App.tsx): what a view keeps in its own
 * state ends with the profile too.
 */
import type { FieldbookApi, ProfileSummary } from '../../shared/ipc.ts';
import { dbNameForProfile, openFieldbookDb, type FieldbookDb } from '../db/index.ts';
import { DatabaseMemory } from '../db/memory.ts';
import { createSyncController, type SyncController } from '../sync/controller.ts';
import { syncStore } from '../sync/store.ts';
import { openProfileOutbox, type ProfileOutbox } from '../outbox/runtime.ts';
import { resetProfileStores } from './profile-stores.ts';

export interface ProfileSession {
  readonly profileId: string;
  /** the views' instance of the profile's database */
  readonly db: FieldbookDb;
  /** the strict-durability instance the outbox writes through (nothing queued is ever lost) */
  readonly outboxDb: FieldbookDb;
  readonly sync: SyncController;
  readonly outbox: ProfileOutbox;
  /** Stops the outbox and the sync, closes the database once what was received is written, forgets the view state. */
  dispose(): void;
  /** resolves once the outbox has stopped (the next session's outbox opens after it) */
  readonly outboxStopped: Promise<void>;
  /** resolves once everything is closed and forgotten, after `dispose` */
  readonly ended: Promise<void>;
}

export interface ProfileSessionOptions {
  /** a database this build cannot open (a newer build's) is told here */
  onOpenError: (message: string) => void;
  /** the session this one follows: its outbox opens once that one's has stopped */
  previous?: ProfileSession | null;
}

/** Opens a profile's session. */
export function openProfileSession(
  api: FieldbookApi,
  profile: Pick<ProfileSummary, 'id' | 'name'>,
  options: ProfileSessionOptions,
): ProfileSession {
  // only what is needed is kept: a closure holding `options` would hold the previous session, and it the one before
  const { onOpenError } = options;
  const after = options.previous?.outboxStopped;
  const name = dbNameForProfile(profile.id);
  const memory = new DatabaseMemory(name);
  const db = openFieldbookDb(name, { memory });
  db.open().catch((e: unknown) => onOpenError(e instanceof Error ? e.message : String(e)));
  const outboxDb = openFieldbookDb(name, { durability: 'strict', memory });
  const sync = createSyncController(api, db, syncStore);
  const outbox = openProfileOutbox({
    api,
    cacheDb: db,
    outboxDb,
    profileId: profile.id,
    actor: profile.name,
    ...(after ? { after } : {}),
  });
  let stopOutbox: (stopped: Promise<void>) => void = () => undefined;
  const outboxStopped = new Promise<void>((resolve) => (stopOutbox = resolve));
  const ended = outboxStopped.then(async () => {
    outboxDb.close();
    // the pages already received are written first (a failed write is the sync's to report)
    await sync.idle().catch(() => undefined);
    db.close();
    memory.dispose();
  });
  let disposed = false;
  return {
    profileId: profile.id,
    db,
    outboxDb,
    sync,
    outbox,
    outboxStopped,
    ended,
    dispose() {
      if (disposed) return;
      disposed = true;
      // at once: nothing more is handed to main for this profile
      stopOutbox(outbox.stop().catch(() => undefined));
      sync.dispose();
      resetProfileStores();
    },
  };
}
