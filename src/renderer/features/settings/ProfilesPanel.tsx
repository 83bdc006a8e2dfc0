/** The list of profiles: switch, edit, delete, add. */
import { useState } from 'react';
import Dexie from 'dexie';
import type { ProfileSummary } from '../../../shared/ipc.ts';
import { dbNameForProfile, openFieldbookDb } from '../../db/index.ts';
import { forgetFirstScreen } from '../../db/first-screen-kept.ts';
import { applyProfiles, request, retryKeychain, sessionStore, useSession } from '../../app/session.ts';
import { ProfileForm } from './ProfileForm.tsx';
import { navigate } from '../../app/router.ts';
import { accessLimitation } from './labels.ts';
import { countUnsent } from '../../../shared/replay-queue/packs.ts';

/** Outbox operations of a profile that have no final outcome yet (those must not be thrown away). */
async function unsentOperations(profileId: string): Promise<number> {
  const name = dbNameForProfile(profileId);
  if (!(await Dexie.exists(name))) return 0;
  const db = openFieldbookDb(name);
  try {
    return await countUnsent(db);
  } finally {
    db.close();
  }
}

function ProfileItem({ profile, active }: { profile: ProfileSummary; active: boolean }) {
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete'>('view');
  const [blocked, setBlocked] = useState<string | null>(null);
  const api = useSession((s) => s.api);
  const limitation = accessLimitation(profile.access);

  async function askDelete() {
    const unsent = await unsentOperations(profile.id);
    const changesHave = unsent === 1 ? 'change has' : 'changes have';
    if (unsent > 0)
      setBlocked(
        `${unsent} queued ${changesHave} not been sent yet: send or discard them before deleting this profile.`,
      );
    else setMode('confirm-delete');
  }

  async function remove() {
    if (!api) return;
    const state = await request(() => api['profiles:delete']({ id: profile.id }));
    if (!state) return;
    forgetFirstScreen(dbNameForProfile(profile.id));
    await Dexie.delete(dbNameForProfile(profile.id));
  }

  return (
    <li className={`profile${active ? ' active' : ''}`}>
      <div className="profile-head">
        <strong>{profile.name}</strong> {active && <span className="badge">Active</span>}{' '}
        {profile.isDemo && <span className="badge">Demo</span>}
        <div className="muted">
          {profile.baseUrl} · token {profile.hasToken ? (profile.tokenHint ?? 'stored') : 'missing'}
        </div>
        {limitation && <p className="notice">{limitation}</p>}
      </div>
      {mode === 'edit' ? (
        <ProfileForm profile={profile} onDone={() => setMode('view')} />
      ) : mode === 'confirm-delete' ? (
        <div className="actions" role="group" aria-label={`Confirm deleting ${profile.name}`}>
          <span>Delete “{profile.name}”, its token and its cached data from this computer?</span>
          <button type="button" className="danger" onClick={() => void remove()}>
            Delete profile
          </button>
          <button type="button" onClick={() => setMode('view')}>
            Keep profile
          </button>
        </div>
      ) : (
        <div className="actions">
          {!active && api && (
            <button
              type="button"
              onClick={() => void request(() => api['profiles:activate']({ id: profile.id }))}
            >
              Switch to {profile.name}
            </button>
          )}
          <button type="button" onClick={() => setMode('edit')}>
            Edit {profile.name}
          </button>
          <button type="button" onClick={() => void askDelete()}>
            Delete {profile.name}
          </button>
        </div>
      )}
      {blocked && (
        <p role="alert" className="error">
          {blocked}
        </p>
      )}
    </li>
  );
}

export function ProfilesPanel() {
  const profiles = useSession((s) => s.profiles);
  const [adding, setAdding] = useState(false);
  if (!profiles) return <p role="status">Loading profiles…</p>;
  return (
    <section className="panel" aria-labelledby="profiles-heading">
      <h2 id="profiles-heading">Profiles</h2>
      {!profiles.keychain.available && <KeychainNotice message={profiles.keychain.message} />}
      <ul className="profiles">
        {profiles.profiles.map((p) => (
          <ProfileItem key={p.id} profile={p} active={p.id === profiles.activeId} />
        ))}
      </ul>
      {adding ? (
        <ProfileForm onDone={() => setAdding(false)} />
      ) : (
        <button type="button" onClick={() => setAdding(true)} disabled={!profiles.keychain.available}>
          New profile…
        </button>
      )}
    </section>
  );
}

export function KeychainNotice({ message }: { message?: string | undefined }) {
  const [trying, setTrying] = useState(false);
  return (
    // a notice, not an error: nothing failed, and the demo needs no keychain
    <div className="notice" role="status">
      <strong>The system keychain is not available.</strong>{' '}
      {message ??
        'Fieldbook keeps API tokens only in the system keychain and never stores them anywhere else.'}{' '}
      Profiles with a token can be added once the keychain answers. The demo works without it.{' '}
      <button
        type="button"
        disabled={trying}
        onClick={() => {
          setTrying(true);
          void retryKeychain().finally(() => setTrying(false));
        }}
      >
        {trying ? 'Asking the keychain…' : 'Try again'}
      </button>
    </div>
  );
}

export function useStartDemo(): () => Promise<void> {
  return async () => {
    const api = sessionStore.getState().api;
    if (!api) return;
    const profile = await request(() => api['demo:start']());
    if (!profile) return;
    await request(() => api['profiles:activate']({ id: profile.id }));
    const profiles = await request(() => api['profiles:list']());
    if (profiles) applyProfiles(profiles);
    // the first hour: the picture first (what needs attention), then the lists behind its numbers
    navigate('dashboard');
    // the demo is for looking around: fill the cache straight away
    await sessionStore.getState().sync?.start();
  };
}
