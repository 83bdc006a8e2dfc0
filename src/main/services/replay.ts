/**
 * The replay concern: queued operations sent for the active profile
 * (replay/index.ts one by one, replay/batch.ts many at once), each outcome
 * scrubbed, and what it says about the token's access and the connection
 * reported. The records a batch reads through list routes (replay/list-reads.ts)
 * are kept for the active profile only, and every write through here tells them.
 */
import type {
  HandlerContext,
  ParsedArg,
  ReplayBatchOutcome,
  ReplayBatchResult,
  ReplayOutcome,
  ReplayRequest,
  TokenAccess,
} from '../../shared/ipc.ts';
import { defaultMessage } from '../api/errors.ts';
import { executeReplay } from '../replay/index.ts';
import { executeBatch, NETWORK_SLOTS } from '../replay/batch.ts';
import { Semaphore } from '../../shared/semaphore.ts';
import { ListReads, type RecordSource } from '../replay/list-reads.ts';
import { accessFromReplay } from '../secrets/access.ts';
import type { StoredProfile } from '../secrets/profiles.ts';
import { scrubDeep } from '../secrets/scrub.ts';
import type { AccessService } from './access.ts';
import type { ConnectionService } from './connection.ts';
import type { ProfilesService } from './profiles.ts';

export interface ReplayService {
  execute(arg: ReplayRequest, ctx: HandlerContext): Promise<ReplayOutcome>;
  executeBatch(arg: ParsedArg<'replay:executeBatch'>, ctx: HandlerContext): Promise<ReplayBatchResult>;
}

/** The copies told of a write, but never used: `replay:execute` reads each record on its own, as before batches. */
function writesOnly(reads: ListReads): RecordSource {
  return { take: () => null, writing: (op) => reads.writing(op) };
}

/** Outcomes per `replay:outcomes` event at most (each a kilobyte or two). */
const OUTCOMES_PER_EVENT = 64;
/**
 * How long the first outcome of an event waits for company: a message per outcome costs both sides more than the wait.
 */
const OUTCOMES_WINDOW_MS = 4;

/**
 * What an op sent while working offline gets: held, not failed. Paused keeps
 * its attempts and what it knew, and the outbox waits until the profile changes
 * (turning "Work offline" off is such a change).
 */
const HELD: ReplayOutcome = {
  status: 'paused',
  error: { code: 'working-offline', message: defaultMessage('working-offline') },
};

/**
 * A batch of a profile that is no longer the active one: nothing is sent, the ops wait (as when held) with what
 * they knew, and go when their own profile is opened again.
 */
const NOT_ACTIVE: ReplayOutcome = {
  status: 'paused',
  error: {
    code: 'cancelled',
    message: 'Another profile became active before this change was sent: it waits for its own profile.',
  },
};

/** The outcomes of a batch main does not send (its profile is not the active one, or works offline), or null. */
function notSent(arg: ParsedArg<'replay:executeBatch'>, active: StoredProfile): ReplayBatchResult | null {
  // sent by the outbox of a profile that is no longer the active one (the renderer has not heard of the switch yet)
  const outcome = active.id !== arg.profileId ? NOT_ACTIVE : active.workOffline ? HELD : null;
  return outcome && { batchId: arg.batchId, outcomes: arg.requests.map((r) => ({ opId: r.opId, outcome })) };
}

export interface ReplayServiceOptions {
  now: () => Date;
}

export function createReplayService(
  session: ProfilesService,
  access: AccessService,
  connection: ConnectionService,
  opts: ReplayServiceOptions,
): ReplayService {
  const slots = new Semaphore(NETWORK_SLOTS);
  let reads: { owner: string; reads: ListReads } | null = null;
  const readsFor = (profile: StoredProfile): ListReads => {
    const owner = `${profile.id} ${profile.baseUrl}`;
    if (reads?.owner !== owner)
      reads = { owner, reads: new ListReads({ inSlot: (run) => slots.run(run, { first: true }) }) };
    return reads.reads;
  };

  /** Scrubs an outcome and learns from it; returns the access now known. */
  const settle = async (
    profile: StoredProfile,
    known: TokenAccess,
    raw: ReplayOutcome,
    ctx: HandlerContext,
  ): Promise<{ outcome: ReplayOutcome; access: TokenAccess }> => {
    // the outcome may quote the server (developermessage): scrubbed like any error
    const outcome = scrubDeep(raw);
    const learnt = accessFromReplay(known, outcome);
    await access.learn({ ...profile, access: known }, learnt, ctx);
    if (
      outcome.status === 'paused' &&
      (outcome.error.code === 'token-rejected' || outcome.error.code === 'token-missing')
    ) {
      connection.report(ctx, {
        online: true,
        checkedAt: opts.now().toISOString(),
        profileId: profile.id,
        error: outcome.error,
      });
    }
    return { outcome, access: learnt };
  };

  return {
    async execute(arg, ctx) {
      if ((await session.activeProfile()).workOffline) return HELD;
      const { profile, client } = await session.activeClient();
      // one op reads its record on its own (no list copy); its write still tells the batches' copies
      const outcome = await executeReplay(client, arg, undefined, writesOnly(readsFor(profile)));
      return (await settle(profile, profile.access, outcome, ctx)).outcome;
    },

    async executeBatch(arg, ctx) {
      const unsent = notSent(arg, await session.activeProfile());
      if (unsent) return unsent;
      const { profile, client } = await session.activeClient();
      let known = profile.access;
      let waiting: ReplayBatchOutcome[] = [];
      let scheduled = false;
      const flush = () => {
        scheduled = false;
        if (waiting.length > 0)
          ctx.emit('replay:outcomes', { batchId: arg.batchId, outcomes: waiting.splice(0) });
      };
      await executeBatch(client, arg.requests, {
        reads: readsFor(profile),
        slots,
        onOutcome: async (opId, raw) => {
          const settled = await settle(profile, known, raw, ctx);
          known = settled.access;
          waiting.push({ opId, outcome: settled.outcome });
          // outcomes that complete within a few milliseconds travel together (the engine commits them in groups anyway)
          if (waiting.length >= OUTCOMES_PER_EVENT) flush();
          else if (!scheduled) {
            scheduled = true;
            setTimeout(flush, OUTCOMES_WINDOW_MS);
          }
        },
      });
      // the last ones come with the answer (events sent before it arrive before it, on the same channel)
      const rest = waiting;
      waiting = [];
      return { batchId: arg.batchId, outcomes: rest };
    },
  };
}
