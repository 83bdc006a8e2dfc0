/**
 * The session: main's API, the profiles, the active profile's session (its
 * databases, sync controller and outbox: profile-session.ts), and the connection
 * state, which it tells the profile's outbox. Switching profile disposes one
 * profile session and opens the other.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type {
  AppError,
  ConnectionStatus,
  FieldbookApi,
  ProfileSummary,
  ProfilesState,
} from '../../shared/ipc.ts';
import type { FieldbookDb } from '../db/index.ts';
import { onDatabaseNotice } from '../db/lifecycle.ts';
import type { SyncController } from '../sync/controller.ts';
import { openProfileSession, type ProfileSession } from './profile-session.ts';
import { startConnectionMonitor, type ConnectionMonitor } from './connection.ts';

export interface SessionState {
  api: FieldbookApi | null;
  /** null until the first answer */
  profiles: ProfilesState | null;
  activeProfile: ProfileSummary | null;
  /** the active profile's session: null before a profile exists */
  profileSession: ProfileSession | null;
  /** the profile session's cache database */
  db: FieldbookDb | null;
  /** the profile session's sync controller */
  sync: SyncController | null;
  connection: ConnectionStatus | null;
  error: AppError | null;
}

export const sessionStore = createStore<SessionState>()(() => ({
  api: null,
  profiles: null,
  activeProfile: null,
  profileSession: null,
  db: null,
  sync: null,
  connection: null,
  error: null,
}));

export function useSession<T>(select: (s: SessionState) => T): T {
  return useStore(sessionStore, select);
}

/** The active profile's database (null before a profile exists). */
export function useActiveDb(): FieldbookDb | null {
  return useSession((s) => s.db);
}

export function isOnline(s: SessionState): boolean {
  return s.connection?.online === true;
}

/** Opens the session of the newly active profile (its old one is disposed), or keeps the current one. */
export function applyProfiles(profiles: ProfilesState): void {
  const state = sessionStore.getState();
  const active = profiles.profiles.find((p) => p.id === profiles.activeId) ?? null;
  const changed = (active?.id ?? null) !== (state.activeProfile?.id ?? null);
  if (!changed) {
    sessionStore.setState({ profiles, activeProfile: active });
    // a token re-entered: the outbox tries again
    state.profileSession?.outbox.resume();
    return;
  }
  const previous = state.profileSession;
  previous?.dispose();
  const profileSession =
    active && state.api
      ? openProfileSession(state.api, active, {
          // a database this build cannot open (written by a newer build) says so in the banner
          onOpenError: (message) => sessionStore.setState({ error: { code: 'internal', message } }),
          previous,
        })
      : null;
  sessionStore.setState({
    profiles,
    activeProfile: active,
    profileSession,
    db: profileSession?.db ?? null,
    sync: profileSession?.sync ?? null,
    connection: null,
  });
  void monitor?.probe();
}

/** The connection as the monitor found it, told to the active profile's outbox. */
function connectionChanged(connection: ConnectionStatus): void {
  sessionStore.setState({ connection });
  sessionStore.getState().profileSession?.outbox.setOnline(connection.online);
}

let monitor: ConnectionMonitor | null = null;

/** Starts the session on main's API: profiles, their changes, and the connection monitor. */
export async function startSession(api: FieldbookApi): Promise<void> {
  sessionStore.setState({ api });
  onDatabaseNotice((message) => sessionStore.setState({ error: { code: 'internal', message } }));
  api.on['profiles:changed'](applyProfiles);
  const result = await api['profiles:list']();
  if (result.ok) applyProfiles(result.value);
  else
    sessionStore.setState({
      error: result.error,
      profiles: { profiles: [], activeId: null, keychain: { available: true } },
    });
  monitor = startConnectionMonitor(api, connectionChanged, {
    held: () => sessionStore.getState().activeProfile?.workOffline === true,
  });
}

/**
 * "Try again" on a keychain message: ask main for the profiles again (it probes the keychain anew) and the connection.
 */
export async function retryKeychain(): Promise<void> {
  const api = sessionStore.getState().api;
  if (!api) return;
  const profiles = await request(() => api['profiles:list']());
  if (profiles) applyProfiles(profiles);
  await monitor?.probe();
}

/** Runs a request and puts its error, if any, where the views show it. */
export async function request<T>(
  call: () => Promise<{ ok: true; value: T } | { ok: false; error: AppError }>,
): Promise<T | null> {
  const result = await call();
  if (result.ok) {
    sessionStore.setState({ error: null });
    return result.value;
  }
  sessionStore.setState({ error: result.error });
  return null;
}
