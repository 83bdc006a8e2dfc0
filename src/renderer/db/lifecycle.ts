/**
 * What the database's life outside this window means for the user:
 * - another window (or a newer build) upgrades or deletes the database: this
 *   window closes its connection so the other can proceed, and says so;
 * - this window's upgrade waits for another window still holding the old
 *   version open ("blocked"): it says which window to close;
 * - the database was written by a newer build than this one: opening refuses,
 *   with a sentence, instead of reading (and later writing) rows whose derived
 *   fields this build does not know.
 */
import type Dexie from 'dexie';

export class NewerDatabaseError extends Error {
  override readonly name = 'NewerDatabaseError';
  readonly installedVersion: number;
  readonly knownVersion: number;
  constructor(installedVersion: number, knownVersion: number) {
    super(
      `This profile's offline copy was written by a newer version of Fieldbook (database version ${installedVersion}; this build knows up to ${knownVersion}). ` +
        'Update Fieldbook to open it. Nothing was changed.',
    );
    this.installedVersion = installedVersion;
    this.knownVersion = knownVersion;
  }
}

export const CLOSED_FOR_UPGRADE =
  'A newer version of Fieldbook opened this profile in another window, so this window closed its offline copy. Close this window and carry on in the newer one.';
export const CLOSED_FOR_DELETE =
  "This profile's offline copy was deleted in another window. Choose another profile or sync again.";
export const UPGRADE_BLOCKED =
  "Fieldbook is updating this profile's offline copy and is waiting for another Fieldbook window that still has it open. Close the other window to continue.";

/** The schema version a native IndexedDB version stands for (Dexie stores version × 10; a schema patch adds 1). */
export function schemaVersionOf(nativeVersion: number): number {
  return Math.floor(nativeVersion / 10);
}

/**
 * Installs the handlers on a database before it is opened. `notify` receives
 * the sentences above; the database is left closed where it must be (Dexie's own
 * default handler, which only logs, is replaced).
 */
export function watchDatabaseLifecycle(
  db: Dexie,
  notify: (message: string) => void = notifyDatabaseListeners,
): void {
  const knownVersion = db.verno;
  // sticky: checked on every (re)open, not only the first
  db.on(
    'ready',
    (vip: Dexie) => {
      const installed = schemaVersionOf(vip.backendDB().version);
      if (installed > knownVersion) {
        vip.close();
        throw new NewerDatabaseError(installed, knownVersion);
      }
    },
    true,
  );
  db.on('versionchange', (event: IDBVersionChangeEvent) => {
    db.close({ disableAutoOpen: event.newVersion === null });
    notify(event.newVersion === null ? CLOSED_FOR_DELETE : CLOSED_FOR_UPGRADE);
    // handled: stops Dexie's default handler from running as well
    return false;
  });
  db.on('blocked', (event: IDBVersionChangeEvent) => {
    if (event.newVersion !== null && event.newVersion > event.oldVersion) notify(UPGRADE_BLOCKED);
  });
}

type Listener = (message: string) => void;
const listeners = new Set<Listener>();

/** Where the app shows the sentences above (the session puts them in the error banner); returns the unsubscribe. */
export function onDatabaseNotice(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notifyDatabaseListeners(message: string): void {
  for (const listener of listeners) listener(message);
}
