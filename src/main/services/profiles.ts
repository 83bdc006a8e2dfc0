/**
 * The profiles concern: the active profile (restarting the demo server behind a
 * demo profile after a restart), an API client for it, its summary for the
 * renderer, and the `profiles:changed` event.
 */
import type { HandlerContext, ProfileSummary } from '../../shared/ipc.ts';
import { ApiClient } from '../api/client.ts';
import type { MainDeps } from '../deps.ts';
import { FieldbookError } from '../ipc/errors.ts';
import { cleartextRefusal } from '../secrets/base-url.ts';
import type { ProfileStore, StoredProfile } from '../secrets/profiles.ts';
import type { DemoService } from './demo.ts';

export interface ProfilesService {
  activeProfile(): Promise<StoredProfile>;
  /**
   * A client for the profile; refused ('working-offline') while it works offline.
   * timeoutMs: a probe's client, one attempt that answers quickly or counts as offline.
   */
  clientFor(profile: StoredProfile, timeoutMs?: number): Promise<ApiClient>;
  /** The active profile and a client for it (refused as `clientFor` refuses). */
  activeClient(): Promise<{ profile: StoredProfile; client: ApiClient }>;
  summaryOf(profile: StoredProfile): Promise<ProfileSummary>;
  profilesChanged(ctx: HandlerContext): Promise<void>;
}

export function createProfilesService(
  profiles: ProfileStore,
  demo: DemoService,
  deps: Pick<MainDeps, 'fetch' | 'api'>,
): ProfilesService {
  async function activeProfile(): Promise<StoredProfile> {
    const profile = await profiles.active();
    if (!profile) throw new FieldbookError('no-profile');
    // the demo server runs in this process: after a restart, start it again on first use
    if (profile.isDemo && (await profiles.token(profile.id)) === null) {
      const started = await demo.start();
      return profiles.saveDemo(started.baseUrl, started.token);
    }
    return profile;
  }

  async function clientFor(profile: StoredProfile, timeoutMs?: number): Promise<ApiClient> {
    // "Work offline": nothing is fetched or sent for this profile, whoever asks (every request is made by a client made
    // here)
    if (profile.workOffline) throw new FieldbookError('working-offline');
    // checked again here, not only on save: profiles.json may hold an http:// address to another host (an older build,
    // a hand edit).
    // 'token-missing': the fix is the same as for a missing token (edit the profile, enter the token), and the outbox
    // pauses rather than failing its operations
    const refusal = cleartextRefusal(profile.baseUrl);
    if (refusal !== null) throw new FieldbookError('token-missing', refusal);
    const token = await profiles.token(profile.id);
    if (token === null)
      throw new FieldbookError(
        'token-missing',
        'This profile has no token yet. Edit the profile and enter its API token.',
      );
    return new ApiClient({
      baseUrl: profile.baseUrl,
      token,
      fetch: deps.fetch,
      ...deps.api,
      ...(timeoutMs ? { timeoutMs, maxRetries: 0 } : {}),
    });
  }

  return {
    activeProfile,
    clientFor,
    async activeClient() {
      const profile = await activeProfile();
      return { profile, client: await clientFor(profile) };
    },
    async summaryOf(profile) {
      await profiles.token(profile.id).catch(() => null);
      return profiles.summary((await profiles.get(profile.id)) ?? profile);
    },
    async profilesChanged(ctx) {
      ctx.emit('profiles:changed', await profiles.state());
    },
  };
}
