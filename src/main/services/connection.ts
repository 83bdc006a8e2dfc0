/**
 * The connection concern: is the active profile's API reachable, and does it
 * take the token. Reported with `connection:changed` when that changes; sync and
 * replay report what they learn on the way through `report`.
 */
import type { ConnectionStatus, HandlerContext } from '../../shared/ipc.ts';
import type { ApiClient } from '../api/client.ts';
import { probeReachability } from '../api/probe.ts';
import { toAppError } from '../ipc/errors.ts';
import type { ProfileStore, StoredProfile } from '../secrets/profiles.ts';
import { scrubDeep } from '../secrets/scrub.ts';
import type { AccessService } from './access.ts';
import type { ProfilesService } from './profiles.ts';

/** Probes answer quickly or count as offline. */
const PROBE_TIMEOUT_MS = 8_000;

export interface ConnectionService {
  /** Records the status and emits it when it changed (online, profile or error code). */
  report(ctx: HandlerContext, reported: ConnectionStatus): ConnectionStatus;
  /** Probes the active profile's API (and, while unknown, the token's access). */
  probe(ctx: HandlerContext): Promise<ConnectionStatus>;
  /** Another profile is active: the next status is news whatever it says. */
  forget(): void;
}

export function createConnectionService(
  profiles: ProfileStore,
  session: ProfilesService,
  access: AccessService,
  now: () => Date,
): ConnectionService {
  let connection: ConnectionStatus | null = null;

  function report(ctx: HandlerContext, reported: ConnectionStatus): ConnectionStatus {
    const status = scrubDeep(reported);
    const changed =
      !connection ||
      connection.online !== status.online ||
      connection.profileId !== status.profileId ||
      connection.error?.code !== status.error?.code ||
      connection.workingOffline !== status.workingOffline;
    connection = status;
    if (changed) ctx.emit('connection:changed', status);
    return status;
  }

  async function probe(ctx: HandlerContext): Promise<ConnectionStatus> {
    const checkedAt = now().toISOString();
    let profile: StoredProfile;
    let client: ApiClient;
    try {
      profile = await session.activeProfile();
      // "Work offline": no probe leaves either
      if (profile.workOffline)
        return report(ctx, { online: false, checkedAt, profileId: profile.id, workingOffline: true });
      client = await session.clientFor(profile, PROBE_TIMEOUT_MS);
    } catch (err) {
      const error = toAppError(err);
      return report(ctx, { online: false, checkedAt, profileId: (await profiles.activeId()) ?? null, error });
    }
    const reach = await probeReachability(client);
    const status: ConnectionStatus = { online: reach.online, checkedAt, profileId: profile.id };
    if (reach.error) status.error = reach.error;
    if (reach.online && !reach.error) await access.probe(profile, client, ctx);
    return report(ctx, status);
  }

  return {
    report,
    probe,
    forget() {
      connection = null;
    },
  };
}
