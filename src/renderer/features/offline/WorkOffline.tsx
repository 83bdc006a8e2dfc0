/**
 * "Work offline": the header's switch, the connection state it replaces, and
 * the sentence the header and the Outbox share ("Working offline — 3 changes
 * waiting"). Main holds the setting and enforces it (nothing is fetched or
 * sent); the renderer only asks and shows. Turning it off lets the outbox send
 * what waited, then brings the cache up to date with one sync.
 */
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { request, sessionStore, useActiveDb, useSession } from '../../app/session.ts';
import { plural } from '../../app/words.ts';
import { outboxStore } from '../../outbox/runtime.ts';
import { countPacked } from '../../../shared/replay-queue/packs.ts';
import type { FieldbookDb } from '../../db/index.ts';

/** Queued changes waiting or on their way, packed or not (every packed change is waiting). */
export async function countWaiting(db: FieldbookDb): Promise<number> {
  return db.transaction('r', db.outbox, db.outboxPacks, async () => {
    const stored = await db.outbox.where('status').anyOf('pending', 'sending').count();
    return stored + (await countPacked(db));
  });
}

/** Queued changes not sent yet (waiting or on their way). */
export function useWaitingChanges(): number {
  const db = useActiveDb();
  return useLiveQuery(async () => (db ? countWaiting(db) : 0), [db]) ?? 0;
}

/** "Working offline — 3 changes waiting" (or "— nothing waiting"). */
export function workingOfflineText(waiting: number): string {
  return `Working offline — ${waiting === 0 ? 'nothing waiting to be sent' : `${plural(waiting, 'change')} waiting`}`;
}

/** Back online: the outbox sends what waited, then one sync brings in what changed on the server meanwhile. */
async function catchUp(): Promise<void> {
  await outboxStore.getState().engine?.whenIdle();
  const { sync, activeProfile } = sessionStore.getState();
  if (sync && activeProfile && !activeProfile.workOffline) await sync.start();
}

export function WorkOfflineSwitch() {
  const active = useSession((s) => s.activeProfile);
  const api = useSession((s) => s.api);
  /** the state asked for, shown at once while main records it */
  const [asked, setAsked] = useState<boolean | null>(null);
  if (!active || !api) return null;
  const on = active.workOffline;
  const toggle = async () => {
    setAsked(!on);
    const saved = await request(() => api['profiles:setWorkOffline']({ id: active.id, offline: !on }));
    setAsked(null);
    if (saved && !saved.workOffline) await catchUp();
  };
  return (
    <label className="work-offline">
      <input
        type="checkbox"
        role="switch"
        checked={asked ?? on}
        disabled={asked !== null}
        onChange={() => void toggle()}
        aria-describedby="work-offline-hint"
      />
      Work offline
      <span id="work-offline-hint" className="visually-hidden">
        Nothing is fetched or sent while this is on; changes wait in the Outbox.
      </span>
    </label>
  );
}

/** The header's connection state: none before a site exists, "Working offline — …" when on purpose. */
export function ConnectionIndicator() {
  const active = useSession((s) => s.activeProfile);
  const connection = useSession((s) => s.connection);
  const waiting = useWaitingChanges();
  if (!active) return null;
  if (active.workOffline) {
    return (
      <span
        role="status"
        aria-label={`Connection: ${workingOfflineText(waiting)}`}
        className="connection working-offline"
      >
        <span aria-hidden="true">◐</span> {workingOfflineText(waiting)}
      </span>
    );
  }
  const text = connection === null ? 'Checking…' : connection.online ? 'Online' : 'Offline';
  return (
    <span
      role="status"
      aria-label={`Connection: ${text}`}
      className={`connection ${connection?.online ? 'online' : 'offline'}`}
    >
      <span aria-hidden="true">●</span> {text}
    </span>
  );
}

/** The Outbox's line while working offline: what waits, and how to send it. */
export function OfflineOutboxNotice() {
  const active = useSession((s) => s.activeProfile);
  const waiting = useWaitingChanges();
  if (!active?.workOffline) return null;
  return (
    <p className="notice working-offline-notice" role="note">
      <strong>{workingOfflineText(waiting)}.</strong> Nothing is sent until you turn “Work offline” off in the
      header; then the changes go, in the order they were made.
    </p>
  );
}
