/**
 * The access concern: what the active token may do, learnt from a probe, a sync
 * or a replay (the pure rules are secrets/access.ts), stored with the profile
 * and announced with `profiles:changed` when it changes.
 */
import type { HandlerContext, TokenAccess } from '../../shared/ipc.ts';
import type { ApiClient } from '../api/client.ts';
import { probeAccess } from '../api/probe.ts';
import type { ProfileStore, StoredProfile } from '../secrets/profiles.ts';
import type { ProfilesService } from './profiles.ts';

export interface AccessService {
  /** Records what was learnt, when it differs from what the profile says. */
  learn(profile: StoredProfile, access: TokenAccess, ctx: HandlerContext): Promise<void>;
  /** While the level is unknown, asks the API with two harmless requests (api/probe.ts). */
  probe(profile: StoredProfile, client: ApiClient, ctx: HandlerContext): Promise<void>;
}

export function createAccessService(
  profiles: ProfileStore,
  session: Pick<ProfilesService, 'profilesChanged'>,
): AccessService {
  async function learn(profile: StoredProfile, access: TokenAccess, ctx: HandlerContext): Promise<void> {
    if (access === profile.access) return;
    await profiles.setAccess(profile.id, access);
    await session.profilesChanged(ctx);
  }
  return {
    learn,
    async probe(profile, client, ctx) {
      if (profile.access !== 'unknown') return;
      const access = await probeAccess(client);
      if (access !== 'unknown') await learn(profile, access, ctx);
    },
  };
}
