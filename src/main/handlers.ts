/**
 * The handlers of src/shared/ipc.ts, on top of the services (profiles and the
 * keychain, the API client, the sync engine, the replay), with no knowledge of
 * the transport that carries them. Events go to the requesting renderer via
 * `ctx.emit`.
 */
import { randomUUID } from 'node:crypto';
import type { ConnectionStatus, HandlerContext, Handlers, ParsedArg, ProfileSummary } from '../shared/ipc.ts';
import { WrapperKey } from '../shared/api/wire.ts';
import { normalizeEmail, type EmailRecord } from '../shared/records.ts';
import { ApiClient } from './api/client.ts';
import { probeAccess, probeReachability } from './api/probe.ts';
import type { MainDeps } from './deps.ts';
import { toAppError } from './ipc/dispatch.ts';
import { FieldbookError } from './ipc/errors.ts';
import { executeReplay } from './replay/index.ts';
import { readCurrent } from './replay/current.ts';
import { accessFromReplay, accessFromSync } from './secrets/access.ts';
import { ProfileStore, type StoredProfile } from './secrets/profiles.ts';
import { scrubDeep } from './secrets/scrub.ts';
import { SyncEngine } from './sync/engine.ts';
import { isSafeExternalUrl } from './security/external-links.ts';

/** Probes answer quickly or count as offline. */
const PROBE_TIMEOUT_MS = 8_000;
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

export function createHandlers(deps: MainDeps): Handlers & { dispose(): Promise<void> } {
  const profiles = new ProfileStore(deps.settingsDir, deps.keychain);
  const now = deps.now ?? (() => new Date());
  let demo: Promise<{ baseUrl: string; token: string }> | null = null;
  let sync: RunningSync | null = null;
  let connection: ConnectionStatus | null = null;

  function startDemo() {
    demo ??= deps.demo.start().catch((err: unknown) => {
      demo = null;
      console.error('[fieldbook] the demo server did not start:', err instanceof Error ? err.message : String(err));
      throw new FieldbookError('internal', 'The demo could not be started. Try again; if it keeps failing, restart Fieldbook.');
    });
    return demo;
  }

  async function activeProfile(): Promise<StoredProfile> {
    const profile = await profiles.active();
    if (!profile) throw new FieldbookError('no-profile');
    // the demo server runs in this process: after a restart, start it again on first use
    if (profile.isDemo && (await profiles.token(profile.id)) === null) {
      const started = await startDemo();
      return profiles.saveDemo(started.baseUrl, started.token);
    }
    return profile;
  }

  async function clientFor(profile: StoredProfile, timeoutMs?: number): Promise<ApiClient> {
    const token = await profiles.token(profile.id);
    if (token === null) throw new FieldbookError('token-missing', 'This profile has no token yet. Edit the profile and enter its API token.');
    return new ApiClient({ baseUrl: profile.baseUrl, token, fetch: deps.fetch, ...deps.api, ...(timeoutMs ? { timeoutMs, maxRetries: 0 } : {}) });
  }

  async function activeClient(): Promise<{ profile: StoredProfile; client: ApiClient }> {
    const profile = await activeProfile();
    return { profile, client: await clientFor(profile) };
  }

  function setConnection(ctx: HandlerContext, reported: ConnectionStatus): ConnectionStatus {
    const status = scrubDeep(reported);
    const changed =
      !connection ||
      connection.online !== status.online ||
      connection.profileId !== status.profileId ||
      connection.error?.code !== status.error?.code;
    connection = status;
    if (changed) ctx.emit('connection:changed', status);
    return status;
  }

  async function profilesChanged(ctx: HandlerContext): Promise<void> {
    ctx.emit('profiles:changed', await profiles.state());
  }

  async function stopSync(): Promise<void> {
    const running = sync;
    if (!running) return;
    running.engine.cancel();
    await running.done;
  }

  async function summaryOf(profile: StoredProfile): Promise<ProfileSummary> {
    await profiles.token(profile.id).catch(() => null);
    return profiles.summary((await profiles.get(profile.id)) ?? profile);
  }

  async function probe(ctx: HandlerContext): Promise<ConnectionStatus> {
    const checkedAt = now().toISOString();
    let profile: StoredProfile;
    let client: ApiClient;
    try {
      profile = await activeProfile();
      client = await clientFor(profile, PROBE_TIMEOUT_MS);
    } catch (err) {
      const error = toAppError(err);
      return setConnection(ctx, { online: false, checkedAt, profileId: (await profiles.activeId()) ?? null, error });
    }
    const reach = await probeReachability(client);
    const status: ConnectionStatus = { online: reach.online, checkedAt, profileId: profile.id };
    if (reach.error) status.error = reach.error;
    if (reach.online && !reach.error && profile.access === 'unknown') {
      const access = await probeAccess(client);
      if (access !== 'unknown') {
        await profiles.setAccess(profile.id, access);
        await profilesChanged(ctx);
      }
    }
    return setConnection(ctx, status);
  }

  async function startSync(arg: ParsedArg<'sync:start'>, ctx: HandlerContext) {
    // a sync nobody acknowledges any more (its window was reloaded) gives way to the new one
    if (sync?.engine.stalled(deps.sync?.stalledAfterMs ?? STALLED_SYNC_MS)) await stopSync();
    if (sync) throw new FieldbookError('busy', 'A sync is already running.');
    const { profile, client } = await activeClient();
    const engine = new SyncEngine({
      syncId: randomUUID(),
      client,
      emit: scrubbedEmit(ctx),
      concurrency: arg.concurrency,
      checkpoints: arg.checkpoints,
      previousTotals: arg.previousTotals,
      paging: deps.sync?.limit ? { limit: deps.sync.limit } : undefined,
      maxUnacked: deps.sync?.maxUnacked,
    });
    const running: RunningSync = { engine, profileId: profile.id, done: Promise.resolve() };
    // start after this answer has left, so the renderer knows the syncId before the first event
    running.done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => engine.run())
      .then(async (finished) => {
        const error = finished.error;
        if (error && (error.code === 'network' || error.code === 'timeout')) {
          setConnection(ctx, { online: false, checkedAt: now().toISOString(), profileId: profile.id, error });
        } else if (error && (error.code === 'token-rejected' || error.code === 'token-missing')) {
          setConnection(ctx, { online: true, checkedAt: now().toISOString(), profileId: profile.id, error });
        }
        const lists = engine.taskRuns().map((r) => ({ collection: r.task.collection, state: r.state, errorCode: r.error?.code }));
        const access = accessFromSync(profile.access, lists);
        if (access !== profile.access) {
          await profiles.setAccess(profile.id, access);
          await profilesChanged(ctx);
        }
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

  async function userDetail(arg: ParsedArg<'users:detail'>) {
    const { client } = await activeClient();
    const emails: EmailRecord[] = [];
    const limit = 1000;
    for (let startrow = 1; ; startrow += limit) {
      const page = await client.getPage(`/users/${arg.userid}/emails`, WrapperKey.emails, 'email', { startrow, limit });
      emails.push(...page.items.map((e) => normalizeEmail(e, arg.userid)));
      if (page.empty || page.items.length < limit) break;
    }
    return { userid: arg.userid, emails, fetchedAt: now().toISOString() };
  }

  return {
    'profiles:list': () => profiles.state(),

    'profiles:save': async (arg, ctx) => {
      const saved = await profiles.save(arg);
      await profilesChanged(ctx);
      return summaryOf(saved);
    },

    'profiles:delete': async (arg, ctx) => {
      if (sync?.profileId === arg.id) await stopSync();
      await profiles.delete(arg.id);
      const state = await profiles.state();
      ctx.emit('profiles:changed', state);
      return state;
    },

    'profiles:activate': async (arg, ctx) => {
      // a sync of another site must not keep writing into the cache
      if (sync && sync.profileId !== arg.id) await stopSync();
      const profile = await profiles.activate(arg.id);
      connection = null;
      await profilesChanged(ctx);
      return summaryOf(profile);
    },

    'demo:start': async (_arg, ctx) => {
      const started = await startDemo();
      const active = await profiles.active();
      if (sync && active && !active.isDemo) await stopSync();
      const profile = await profiles.saveDemo(started.baseUrl, started.token);
      await profilesChanged(ctx);
      return summaryOf(profile);
    },

    'connection:probe': (_arg, ctx) => probe(ctx),

    'sync:start': (arg, ctx) => startSync(arg, ctx),

    'sync:cancel': async (arg) => {
      if (sync?.engine.syncId === arg.syncId) sync.engine.cancel();
      return null;
    },

    'sync:ack': async (arg) => {
      if (sync?.engine.syncId === arg.syncId) sync.engine.ack(arg.pageId);
      return null;
    },

    'users:detail': (arg) => userDetail(arg),

    'replay:execute': async (arg, ctx) => {
      const { profile, client } = await activeClient();
      // the outcome may quote the server (developermessage): scrubbed like any error
      const outcome = scrubDeep(await executeReplay(client, arg));
      const access = accessFromReplay(profile.access, outcome);
      if (access !== profile.access) {
        await profiles.setAccess(profile.id, access);
        await profilesChanged(ctx);
      }
      if (outcome.status === 'paused' && (outcome.error.code === 'token-rejected' || outcome.error.code === 'token-missing')) {
        setConnection(ctx, { online: true, checkedAt: now().toISOString(), profileId: profile.id, error: outcome.error });
      }
      return outcome;
    },

    'replay:read': async (arg) => readCurrent((await activeClient()).client, arg.op),

    'report:savePdf': async (arg) => {
      if (!deps.savePdf) throw new FieldbookError('rejected', 'Saving a PDF needs the desktop app. Here, use the print command of the browser.');
      return deps.savePdf(arg);
    },

    'app:openExternal': async (arg) => {
      if (!deps.openExternal || !isSafeExternalUrl(arg.url)) return { opened: false };
      await deps.openExternal(arg.url);
      return { opened: true };
    },

    async dispose() {
      await stopSync();
    },
  };
}
