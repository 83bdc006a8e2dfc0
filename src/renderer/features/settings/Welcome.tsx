/** The first screen when there is no profile: try the demo, or connect to a site. */
import { useState } from 'react';
import { useSession } from '../../app/session.ts';
import { KeychainNotice, useStartDemo } from './ProfilesPanel.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import { DemoTour } from '../offline/DemoTour.tsx';

export function Welcome() {
  const keychain = useSession((s) => s.profiles?.keychain);
  const startDemo = useStartDemo();
  const [starting, setStarting] = useState(false);
  return (
    <section className="view welcome" aria-labelledby="welcome-heading">
      <h1 id="welcome-heading">Welcome to Fieldbook</h1>
      <p>
        Fieldbook keeps a copy of your training site’s people, credentials and training on this computer, so
        you can review them offline and queue changes.
      </p>
      <section className="panel" aria-labelledby="demo-heading">
        <h2 id="demo-heading">No account at hand?</h2>
        <p>
          The demo runs a sample site on this computer, with about 300 people. It needs no account and no
          keychain, and it can go offline and be changed behind your back.
        </p>
        <button
          type="button"
          disabled={starting}
          onClick={() => {
            setStarting(true);
            void startDemo().finally(() => setStarting(false));
          }}
        >
          {starting ? 'Starting the demo…' : 'Try the demo'}
        </button>
        <DemoTour />
      </section>
      <section className="panel" aria-labelledby="connect-heading">
        <h2 id="connect-heading">Connect to your site</h2>
        {keychain && !keychain.available ? <KeychainNotice message={keychain.message} /> : <ProfileForm />}
      </section>
    </section>
  );
}
