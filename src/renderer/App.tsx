/** The shell: header (profile, connection, sync state), navigation, and the current view. */
import { Suspense, useEffect, useState } from 'react';
import { DEFAULT_ROUTE, findRoute, navRoutes } from './app/routes.tsx';
import './app/feature-routes.ts';
import { hrefFor, useLocation } from './app/router.ts';
import { request, retryKeychain, useSession } from './app/session.ts';
import { useSyncState } from './sync/store.ts';
import { progressText } from './sync/status-text.ts';
import { DataAsOf } from './components/DataAsOf.tsx';
import { ErrorMessage } from './components/ErrorMessage.tsx';
import { ErrorBoundary } from './components/ErrorBoundary.tsx';
import { Welcome } from './features/settings/Welcome.tsx';
import { accessLimitation } from './features/settings/labels.ts';
import { sessionStore } from './app/session.ts';
import { ConnectionIndicator, WorkOfflineSwitch } from './features/offline/WorkOffline.tsx';
import { SendingPausedNotice } from './features/outbox/SendingPaused.tsx';

function SyncIndicator() {
  const running = useSyncState((s) => s.running);
  const progress = useSyncState((s) => s.progress);
  const sync = useSession((s) => s.sync);
  const waits = useSyncState((s) => s.startsAfterHold);
  // a sync the app started while the kept sites are saved: it runs once they are (sync/hold.ts)
  if (!running && waits)
    return (
      <span className="sync-indicator" role="status">
        <a href={hrefFor('settings')}>Sync starts when the kept sites are saved</a>
      </span>
    );
  if (!running) return null;
  return (
    <span className="sync-indicator" role="group" aria-label="Sync">
      <a href={hrefFor('settings')}>{progressText(progress)}</a>
      <button type="button" onClick={() => void sync?.cancel()}>
        Cancel<span className="visually-hidden"> the sync in progress</span>
      </button>
    </span>
  );
}

function ProfileSwitcher() {
  const profiles = useSession((s) => s.profiles);
  const api = useSession((s) => s.api);
  if (!profiles || profiles.profiles.length < 2 || !api) return null;
  return (
    <label className="profile-switcher">
      Profile
      <select
        value={profiles.activeId ?? ''}
        onChange={(e) => void request(() => api['profiles:activate']({ id: e.target.value }))}
      >
        {profiles.profiles.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Before main's first answer: main asks the system keychain first, which may be waiting for the user to unlock it. */
function Starting() {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), 3_000);
    return () => clearTimeout(timer);
  }, []);
  return (
    <p role="status" className="loading">
      Starting Fieldbook…
      {slow && ' Waiting for the system keychain: if it asks you to unlock it, do so, and Fieldbook goes on.'}
    </p>
  );
}

export function App() {
  const location = useLocation();
  const profiles = useSession((s) => s.profiles);
  const active = useSession((s) => s.activeProfile);
  const error = useSession((s) => s.error);
  if (!profiles) return <Starting />;
  const route = findRoute(location.route) ?? findRoute(DEFAULT_ROUTE)!;
  const current = findRoute(location.route) ? location.route : DEFAULT_ROUTE;
  const View = route.component;
  const limitation = active ? accessLimitation(active.access) : null;
  return (
    <div className="app">
      <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <header className="app-header">
        <span className="brand">Fieldbook</span>
        {/* the name once: in the switcher when there are several profiles, as text otherwise */}
        {active && profiles.profiles.length < 2 && <span className="site-name">{active.name}</span>}
        <ProfileSwitcher />
        <SyncIndicator />
        <ConnectionIndicator />
        <WorkOfflineSwitch />
      </header>
      {active && (
        <nav aria-label="Main" className="app-nav">
          <ul>
            {navRoutes().map((r) => (
              <li key={r.id}>
                <a href={hrefFor(r.id)} aria-current={r.id === current ? 'page' : undefined}>
                  {r.label}
                  {r.Badge ? <r.Badge /> : null}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <main className="app-main" id="main" tabIndex={-1}>
        <ErrorMessage
          error={error}
          onDismiss={() => sessionStore.setState({ error: null })}
          onRetry={error?.code === 'keychain-unavailable' ? () => void retryKeychain() : undefined}
        />
        {limitation && (
          <p className="notice" role="note">
            {limitation}
          </p>
        )}
        {active && <SendingPausedNotice route={current} />}
        {active && <DataAsOf />}
        {active ? (
          // keyed by the profile: what a view holds in its own state (a dropped file, a draft) ends with it
          <ErrorBoundary key={active.id} resetKey={`${current}/${location.params.join('/')}`}>
            <Suspense fallback={<p role="status">Loading…</p>}>
              <View params={location.params} />
            </Suspense>
          </ErrorBoundary>
        ) : (
          <Welcome />
        )}
      </main>
    </div>
  );
}
