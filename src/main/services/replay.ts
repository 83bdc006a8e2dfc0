/**
 * The replay concern: one queued operation sent for the active profile
 * (replay/index.ts), its outcome scrubbed, and what it says about the token's
 * access and the connection reported.
 */
import type { HandlerContext, ReplayOutcome, ReplayRequest } from '../../shared/ipc.ts';
import { executeReplay } from '../replay/index.ts';
import { accessFromReplay } from '../secrets/access.ts';
import { scrubDeep } from '../secrets/scrub.ts';
import type { AccessService } from './access.ts';
import type { ConnectionService } from './connection.ts';
import type { ProfilesService } from './profiles.ts';

export interface ReplayService {
  execute(arg: ReplayRequest, ctx: HandlerContext): Promise<ReplayOutcome>;
}

export function createReplayService(session: ProfilesService, access: AccessService, connection: ConnectionService, now: () => Date): ReplayService {
  return {
    async execute(arg, ctx) {
      const { profile, client } = await session.activeClient();
      // the outcome may quote the server (developermessage): scrubbed like any error
      const outcome = scrubDeep(await executeReplay(client, arg));
      await access.learn(profile, accessFromReplay(profile.access, outcome), ctx);
      if (outcome.status === 'paused' && (outcome.error.code === 'token-rejected' || outcome.error.code === 'token-missing')) {
        connection.report(ctx, { online: true, checkedAt: now().toISOString(), profileId: profile.id, error: outcome.error });
      }
      return outcome;
    },
  };
}
