/**
 * The handlers of src/shared/ipc.ts, with no knowledge of the transport that
 * carries them: one place that composes the services (src/main/services/, one
 * concern each: demo, profiles, access, connection, sync, replay, users) and
 * maps every channel of the contract to one of them. Events go to the
 * requesting renderer via `ctx.emit`.
 */
import type { Handlers } from '../shared/ipc.ts';
import type { MainDeps } from './deps.ts';
import { ProfileStore } from './secrets/profiles.ts';
import { createAccessService } from './services/access.ts';
import { createConnectionService } from './services/connection.ts';
import { createDemoService } from './services/demo.ts';
import { createKeptSitesService } from './services/kept-sites.ts';
import { createProfilesService } from './services/profiles.ts';
import { createReplayService } from './services/replay.ts';
import { createSyncService } from './services/sync.ts';
import { createUsersService } from './services/users.ts';
import { createIdentitiesService } from './services/identities.ts';
import { IdentitySecrets } from './secrets/identity-key.ts';
import { readCurrent } from './replay/current.ts';
import { savePdfOrRefuse } from './report/pdf.ts';
import { FieldbookError } from './ipc/errors.ts';

interface ProfileSettingDeps {
  profiles: ProfileStore;
  sync: ReturnType<typeof createSyncService>;
  connection: ReturnType<typeof createConnectionService>;
  demo: ReturnType<typeof createDemoService>;
  keptSites: ReturnType<typeof createKeptSitesService>;
  session: ReturnType<typeof createProfilesService>;
}

/**
 * What a profile keeps and whether it works offline, and the demo's other admin: each stops or re-probes what it
 * changes.
 */
function profileSettingHandlers({
  profiles,
  sync,
  connection,
  demo,
  keptSites,
  session,
}: ProfileSettingDeps): Pick<
  Handlers,
  'profiles:setKeptSites' | 'profiles:setWorkOffline' | 'demo:serverChange'
> {
  const { profilesChanged, summaryOf } = session;
  return {
    'profiles:setKeptSites': async (arg, ctx) => {
      // a running sync reads the sites it started with: stop it, the next one reads the new ones
      if (sync.runningFor() === arg.id) await sync.stop();
      const summary = await keptSites.setKept(arg);
      await profilesChanged(ctx);
      return summary;
    },

    'profiles:setWorkOffline': async (arg, ctx) => {
      const profile = await profiles.setWorkOffline(arg.id, arg.offline);
      // on: a sync of this profile stops fetching at once; off: the probe finds the site and the outbox sends what
      // waited
      if (arg.offline && sync.runningFor() === arg.id) await sync.stop();
      await profilesChanged(ctx);
      if ((await profiles.activeId()) === arg.id) await connection.probe(ctx);
      return summaryOf(profile);
    },

    'demo:serverChange': async (arg) => {
      const active = await profiles.active();
      if (!active?.isDemo)
        throw new FieldbookError(
          'invalid-argument',
          'Changes as another admin can be made on the demo site only.',
        );
      return demo.change(arg);
    },
  };
}

export function createHandlers(deps: MainDeps): Handlers & { dispose(): Promise<void> } {
  const profiles = new ProfileStore(deps.settingsDir, deps.keychain);
  const now = deps.now ?? (() => new Date());
  const demo = createDemoService(deps.demo);
  const session = createProfilesService(profiles, demo, deps);
  const access = createAccessService(profiles, session);
  const connection = createConnectionService(profiles, session, access, now);
  const identities = createIdentitiesService(deps.settingsDir, profiles, new IdentitySecrets(deps.keychain));
  const sync = createSyncService({ session, access, connection, identities, tuning: deps.sync, now });
  const replay = createReplayService(session, access, connection, { now });
  const users = createUsersService(session, now);
  const keptSites = createKeptSitesService(profiles, session, deps.manyPeopleAbove);
  const { profilesChanged, summaryOf } = session;

  return {
    'profiles:list': () => profiles.state(),

    'profiles:save': async (arg, ctx) => {
      const saved = await profiles.save(arg);
      await profilesChanged(ctx);
      return summaryOf(saved);
    },

    'profiles:delete': async (arg, ctx) => {
      if (sync.runningFor() === arg.id) await sync.stop();
      await profiles.delete(arg.id);
      await identities.forget(arg.id);
      const state = await profiles.state();
      ctx.emit('profiles:changed', state);
      return state;
    },

    'profiles:activate': async (arg, ctx) => {
      // a sync of another site must not keep writing into the cache
      if (sync.runningFor() !== null && sync.runningFor() !== arg.id) await sync.stop();
      const profile = await profiles.activate(arg.id);
      connection.forget();
      await profilesChanged(ctx);
      return summaryOf(profile);
    },

    'profiles:sites': (arg) => keptSites.sites(arg),

    'demo:start': async (_arg, ctx) => {
      const started = await demo.start();
      const active = await profiles.active();
      if (sync.runningFor() !== null && active && !active.isDemo) await sync.stop();
      const profile = await profiles.saveDemo(started.baseUrl, started.token);
      await profilesChanged(ctx);
      return summaryOf(profile);
    },

    ...profileSettingHandlers({ profiles, sync, connection, demo, keptSites, session }),

    'connection:probe': (_arg, ctx) => connection.probe(ctx),

    'sync:start': (arg, ctx) => sync.start(arg, ctx),

    'sync:fingerprints': async (arg) => {
      sync.fingerprints(arg.syncId, arg.fingerprints, arg.total);
      return null;
    },

    'sync:cancel': async (arg) => {
      sync.cancel(arg.syncId);
      return null;
    },

    'sync:ack': async (arg) => {
      for (const pageId of arg.pageIds) sync.ack(arg.syncId, pageId);
      return null;
    },

    'users:detail': (arg) => users.userDetail(arg),

    'replay:execute': (arg, ctx) => replay.execute(arg, ctx),

    'replay:executeBatch': (arg, ctx) => replay.executeBatch(arg, ctx),

    'replay:read': async (arg) => readCurrent((await session.activeClient()).client, arg.op),

    'report:savePdf': (arg) => savePdfOrRefuse(deps.savePdf, arg),

    'identities:check': (arg) => identities.check(arg),

    async dispose() {
      await sync.stop();
    },
  };
}
