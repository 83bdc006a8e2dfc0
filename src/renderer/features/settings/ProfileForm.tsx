/** Add or edit a profile: name, base URL and token (the token goes straight to main's keychain). */
import { useState, type FormEvent } from 'react';
import type { ProfileSummary } from '../../../shared/ipc.ts';
import { sameTokenOrigin } from '../../../shared/token-origin.ts';
import { applyProfiles, request, sessionStore } from '../../app/session.ts';
import { navigate } from '../../app/router.ts';

interface ProfileFields {
  name: string;
  baseUrl: string;
  token: string;
}

/**
 * Saves the profile; a new profile becomes the active one (that is why it was added), and its first sync
 * starts at once, its progress in view. Whether it was saved.
 */
async function saveProfile(profile: ProfileSummary | undefined, fields: ProfileFields): Promise<boolean> {
  const api = sessionStore.getState().api;
  if (!api) return false;
  const { name, baseUrl, token } = fields;
  const saved = await request(() =>
    api['profiles:save']({
      id: profile?.id,
      name: name.trim(),
      baseUrl: baseUrl.trim(),
      token: token || undefined,
    }),
  );
  if (saved && profile === undefined) {
    await request(() => api['profiles:activate']({ id: saved.id }));
    const profiles = await request(() => api['profiles:list']());
    if (profiles) applyProfiles(profiles);
    navigate('settings');
    // a token that sees many people: the Sites panel asks which sites to keep before anything is synced
    // (when the question cannot be asked, the sync starts and says what is wrong in its own words)
    const sites = await api['profiles:sites']({ id: saved.id });
    if (!(sites.ok && sites.value.manyRecords)) void sessionStore.getState().sync?.start();
  }
  return saved !== null;
}

export function ProfileForm({ profile, onDone }: { profile?: ProfileSummary; onDone?: () => void }) {
  const [name, setName] = useState(profile?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(profile?.baseUrl ?? '');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const editing = profile !== undefined;
  // the stored token stays with its origin: a new scheme, host or port needs the token again (main drops the old one)
  const moved = editing && baseUrl.trim() !== '' && !sameTokenOrigin(profile.baseUrl, baseUrl);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!sessionStore.getState().api) return;
    setBusy(true);
    const saved = await saveProfile(profile, { name, baseUrl, token });
    setBusy(false);
    setToken('');
    if (saved) onDone?.();
  }

  return (
    <form
      className="profile-form"
      onSubmit={(e) => void submit(e)}
      aria-label={editing ? `Edit profile ${profile.name}` : 'Add a profile'}
    >
      <label>
        Profile name
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
      </label>
      <label>
        Base URL
        <input
          type="url"
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
          required
          placeholder="https://example.com/api/v1"
        />
      </label>
      <TokenField profile={profile} moved={moved} token={token} onToken={setToken} />
      <div className="actions">
        <button type="submit" disabled={busy}>
          {editing ? 'Save profile' : 'Add profile'}
        </button>
        {onDone && editing && (
          <button type="button" onClick={onDone}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function TokenField({
  profile,
  moved,
  token,
  onToken,
}: {
  profile: ProfileSummary | undefined;
  moved: boolean;
  token: string;
  onToken: (token: string) => void;
}) {
  const editing = profile !== undefined;
  const keep = `Leave empty to keep ${profile?.tokenHint ?? 'the stored token'}`;
  return (
    <label>
      API token
      <input
        type="password"
        value={token}
        onChange={(e) => onToken(e.target.value)}
        required={!editing || moved}
        autoComplete="off"
        placeholder={moved ? 'A new address needs its token' : editing ? keep : ''}
      />
      {moved && profile && (
        <span className="muted">
          The stored token belongs to {new URL(profile.baseUrl).host} and is not sent to another address:
          enter the token for this one.
        </span>
      )}
    </label>
  );
}
