/** Connection & sync: profiles, the active profile's sync, and the connection state. */
import { useActiveDb, useSession } from '../../app/session.ts';
import { formatDateTime } from '../../app/format.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { ProfilesPanel } from './ProfilesPanel.tsx';
import { SyncPanel } from './SyncPanel.tsx';
import { SoonWindowPanel } from './SoonWindowPanel.tsx';
import { DemoServerPanel } from '../offline/DemoServerPanel.tsx';
import { KeptSitesPanel } from './KeptSitesPanel.tsx';

export default function SettingsView() {
  const db = useActiveDb();
  const connection = useSession((s) => s.connection);
  const profile = useSession((s) => s.activeProfile);
  const isDemo = profile?.isDemo === true;
  return (
    <section className="view" aria-labelledby="settings-heading">
      <h1 id="settings-heading">Connection &amp; sync</h1>
      <section className="panel" aria-labelledby="connection-heading">
        <h2 id="connection-heading">Connection</h2>
        <p>
          {connection === null
            ? 'Checking the connection…'
            : connection.workingOffline
              ? 'Working offline, as you asked: nothing is fetched or sent.'
              : connection.online
                ? 'The site is reachable.'
                : 'The site is not reachable: working from the cache.'}{' '}
          {connection && <span className="muted">Checked {formatDateTime(connection.checkedAt)}.</span>}
        </p>
        {connection && !connection.online && <ErrorMessage error={connection.error} />}
      </section>
      {db && profile && (
        <section className="panel" aria-labelledby="kept-sites-heading">
          <h2 id="kept-sites-heading">Sites kept on this laptop</h2>
          <KeptSitesPanel db={db} profile={profile} />
        </section>
      )}
      {db && <SyncPanel db={db} />}
      {isDemo && <DemoServerPanel />}
      <ProfilesPanel />
      <SoonWindowPanel />
    </section>
  );
}
