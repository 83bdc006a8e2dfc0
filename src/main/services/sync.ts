/**
 * The sync concern: one sync at a time, run by the sync engine (sync/engine.ts)
 * for the active profile; what it learns about the connection and the token's
 * access is reported when it ends.
 */
import { randomUUID } from 'node:crypto';
import type {
  HandlerContext,
  PageFingerprintText,
  ParsedArg,
  RequestResults,
  SyncFinishedEvent,
} from '../../shared/ipc.ts';
import type { MainDeps } from '../deps.ts';
import { FieldbookError, toAppError } from '../ipc/errors.ts';
import { accessFromSync } from '../secrets/access.ts';
import { scrubDeep } from '../secrets/scrub.ts';
import { SyncEngine } from '../sync/engine.ts';
import type { AccessService } from './access.ts';
import type { ConnectionService } from './connection.ts';
import type { ProfilesService } from './profiles.ts';
import type { IdentitiesService } from './identities.ts';
import type { StoredProfile } from '../secrets/profiles.ts';

/** A sync whose pages have all waited this long for the renderer is abandoned. */
const STALLED_SYNC_MS = 15_000;

interface RunningSync {
  engine: SyncEngine;
  profileId: string;
  done: Promise<void>;
}

/**
 * Events carry errors built from API answers: scrub them like dispatch scrubs
 * results. Pages are records, not messages, and pass as they are.
 */
function scrubbedEmit(ctx: HandlerContext): HandlerContext['emit'] {
  return (event, payload) => ctx.emit(event, event === 'sync:page' ? payload : scrubDeep(payload));
}

export interface SyncService {
  start(arg: ParsedArg<'sync:start'>, ctx: HandlerContext): Promise<RequestResults['sync:start']>;
  /**
   * Page fingerprints for the running sync (sync:start said they follow); `total` on the last message: how many all the
   * messages held.
   */
  fingerprints(syncId: string, list: PageFingerprintText[], total?: number): void;
  cancel(syncId: string): void;
  ack(syncId: string, pageId: number): void;
  /** The profile the running sync writes for (null: none runs). */
  runningFor(): string | null;
  /** Cancels the running sync, if any, and waits for it to end. */
  stop(): Promise<void>;
}

export interface SyncServiceDeps {
  session: ProfilesService;
  access: AccessService;
  connection: ConnectionService;
  identities: IdentitiesService;
  tuning: MainDeps['sync'];
  now: () => Date;
}

/**
 * Per profile: the rows of each list its passes read whole (main's memory
 * only; after a restart the lists no parent announces go in waves once).
 * They size the next pass's paging, never what it reads.
 */
class ListSizes {
  readonly #byProfile = new Map<string, Map<string, number>>();

  get(profileId: string): ReadonlyMap<string, number> | undefined {
    return this.#byProfile.get(profileId);
  }

  keep(profileId: string, sizes: ReadonlyMap<string, number>): void {
    const known = this.#byProfile.get(profileId) ?? new Map<string, number>();
    for (const [taskId, rows] of sizes) known.set(taskId, rows);
    this.#byProfile.set(profileId, known);
  }
}

type Collector = Awaited<ReturnType<IdentitiesService['collector']>>;

/** A network failure says the site is not reachable; a refused token says it is, and the token is the problem. */
function reportConnection(
  deps: SyncServiceDeps,
  ctx: HandlerContext,
  profile: StoredProfile,
  error: SyncFinishedEvent['error'],
): void {
  if (!error) return;
  const checkedAt = deps.now().toISOString();
  if (error.code === 'network' || error.code === 'timeout' || error.code === 'not-the-api')
    deps.connection.report(ctx, { online: false, checkedAt, profileId: profile.id, error });
  else if (error.code === 'token-rejected' || error.code === 'token-missing')
    deps.connection.report(ctx, { online: true, checkedAt, profileId: profile.id, error });
}

/** What a finished sync leaves behind: the connection's state, the identity index, what the token may write. */
async function afterSync(
  deps: SyncServiceDeps,
  ctx: HandlerContext,
  profile: StoredProfile,
  engine: SyncEngine,
  finished: SyncFinishedEvent,
  collector: Collector | null,
): Promise<void> {
  reportConnection(deps, ctx, profile, finished.error);
  // the index not written (a full disk) keeps the previous one; the sync's outcome stands
  if (collector) {
    const written = { baseUrl: profile.baseUrl, syncedAt: deps.now().toISOString() };
    await deps.identities
      .store(profile.id, collector, engine.taskRuns(), written)
      .catch((err: unknown) =>
        console.error('[fieldbook] identity index not written', toAppError(err).message),
      );
  }
  const lists = engine
    .taskRuns()
    .map((r) => ({ collection: r.task.collection, state: r.state, errorCode: r.error?.code }));
  await deps.access.learn(profile, accessFromSync(profile.access, lists), ctx);
}

export function createSyncService(deps: SyncServiceDeps): SyncService {
  const { session, identities, tuning, now } = deps;
  let sync: RunningSync | null = null;
  let starting = false;
  const listSizes = new ListSizes();

  async function stop(): Promise<void> {
    const running = sync;
    if (!running) return;
    running.engine.cancel();
    await running.done;
  }

  async function start(arg: ParsedArg<'sync:start'>, ctx: HandlerContext) {
    // a sync nobody acknowledges any more (its window was reloaded) gives way to the new one
    if (sync?.engine.stalled(tuning?.stalledAfterMs ?? STALLED_SYNC_MS)) await stop();
    // one at a time, counting one that is still being set up (it awaits the profile and the identity index)
    if (sync || starting) throw new FieldbookError('busy', 'A sync is already running.');
    starting = true;
    try {
      return await begin(arg, ctx);
    } finally {
      starting = false;
    }
  }

  async function begin(arg: ParsedArg<'sync:start'>, ctx: HandlerContext) {
    const { profile, client } = await session.activeClient();
    // a profile keeping some sites: the usernames and e-mails of every site, for the import's uniqueness checks
    const collector = profile.keptSites ? await identities.collector(profile) : null;
    // those of the sites not kept are read again once they are some hours old (identities.ts, IDENTITIES_FRESH_MS)
    const identitiesFresh =
      collector && !arg.refreshIdentities ? await identities.freshSites(profile, now()) : [];
    const engine = new SyncEngine({
      syncId: randomUUID(),
      client,
      emit: scrubbedEmit(ctx),
      concurrency: arg.concurrency,
      checkpoints: arg.checkpoints,
      fingerprintsFollow: arg.fingerprintsFollow === true,
      previousTotals: arg.previousTotals,
      listSizes: listSizes.get(profile.id),
      ...(profile.keptSites ? { keptSites: profile.keptSites } : {}),
      ...(collector ? { identities: collector, identitiesFresh } : {}),
      paging: tuning?.limit ? { limit: tuning.limit } : undefined,
      maxUnacked: tuning?.maxUnacked,
    });
    const running: RunningSync = { engine, profileId: profile.id, done: Promise.resolve() };
    // start after this answer has left, so the renderer knows the syncId before the first event
    running.done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => engine.run())
      .then(async (finished) => {
        listSizes.keep(profile.id, engine.listSizes());
        await afterSync(deps, ctx, profile, engine, finished, collector);
      })
      .catch((err: unknown) => {
        console.error('[fieldbook] sync failed', toAppError(err).message);
      })
      .finally(() => {
        if (sync === running) sync = null;
      });
    sync = running;
    return { syncId: engine.syncId, tasks: engine.initialTasks() };
  }

  return {
    start,
    stop,
    fingerprints(syncId, list, total) {
      if (sync?.engine.syncId === syncId) sync.engine.addFingerprints(list, total);
    },
    cancel(syncId) {
      if (sync?.engine.syncId === syncId) sync.engine.cancel();
    },
    ack(syncId, pageId) {
      if (sync?.engine.syncId === syncId) sync.engine.ack(pageId);
    },
    runningFor: () => sync?.profileId ?? null,
  };
}
