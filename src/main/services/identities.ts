/**
 * The identity index of each profile keeping some sites (sync/identities.ts):
 * merged after each pass and written to main's settings folder (one file per
 * profile, atomically), and asked by the import (`identities:check`), offline
 * too: the answer comes from the file, not the network.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IdentitiesCheck, ParsedArg } from '../../shared/ipc.ts';
import type { IdentitySecrets } from '../secrets/identity-key.ts';
import type { ProfileStore, StoredProfile } from '../secrets/profiles.ts';
import { FieldbookError } from '../ipc/errors.ts';
import {
  checkIdentities,
  freshSites,
  identityHasher,
  IdentityCollector,
  loadIndex,
  parseIndex,
  type IdentityHasher,
  type IdentityIndex,
  type LoadedIndex,
} from '../sync/identities.ts';

export interface IdentitiesService {
  /** What a pass of this profile reads into its index, keyed with the profile's secret. */
  collector(profile: StoredProfile): Promise<IdentityCollector>;
  /** After a pass of a profile keeping some sites: its index merged with what the pass read, and written. */
  store(
    profileId: string,
    collector: IdentityCollector,
    runs: Parameters<IdentityCollector['merge']>[0],
    at: Parameters<IdentityCollector['merge']>[2],
  ): Promise<void>;
  check(arg: ParsedArg<'identities:check'>): Promise<IdentitiesCheck>;
  /**
   * The sites whose usernames and e-mails the index read recently (`IDENTITIES_FRESH_MS`): a sync does not read them
   * again.
   */
  freshSites(profile: StoredProfile, now: Date): Promise<number[]>;
  /** A deleted profile's index goes with it. */
  forget(profileId: string): Promise<void>;
}

export function createIdentitiesService(
  settingsDir: string,
  profiles: ProfileStore,
  secrets: IdentitySecrets,
): IdentitiesService {
  const dir = join(settingsDir, 'identities');
  // the profile id is ours, but a file name is made of a digest of it, never of the text itself
  const fileOf = (profileId: string) =>
    join(dir, `${createHash('sha256').update(profileId).digest('hex').slice(0, 32)}.json`);
  /** the last index read or written, so a check of a large file does not read it again */
  let loaded: { profileId: string; index: LoadedIndex | null } | null = null;
  /** the index being written after a pass: a check waits for it (the sync's end reaches the renderer first) */
  let writing: Promise<unknown> = Promise.resolve();

  const hasherOf = async (profile: StoredProfile): Promise<IdentityHasher> =>
    identityHasher(await secrets.secretOf(profile));

  /**
   * The profile's index, or null: none yet, or not keyed with the profile's secret (an older build's, a lost keychain
   * entry).
   */
  async function read(profileId: string, hasher: IdentityHasher): Promise<IdentityIndex | null> {
    try {
      return parseIndex(JSON.parse(await readFile(fileOf(profileId), 'utf8')), hasher);
    } catch {
      return null;
    }
  }

  async function indexOf(profile: StoredProfile): Promise<LoadedIndex | null> {
    if (loaded?.profileId !== profile.id) {
      const hasher = await hasherOf(profile);
      const index = await read(profile.id, hasher);
      loaded = { profileId: profile.id, index: index && loadIndex(index, hasher) };
    }
    return loaded.index;
  }

  return {
    async collector(profile) {
      return new IdentityCollector(await hasherOf(profile));
    },

    store(profileId, collector, runs, at) {
      const job = (async () => {
        const merged = collector.merge(runs, await read(profileId, collector.hasher), at);
        if (!merged) return;
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const temp = `${fileOf(profileId)}.${randomUUID()}.tmp`;
        await writeFile(temp, JSON.stringify(merged), { encoding: 'utf8', mode: 0o600 });
        await rename(temp, fileOf(profileId));
        loaded = { profileId, index: loadIndex(merged, collector.hasher) };
      })();
      writing = job.catch(() => undefined);
      return job;
    },

    async check(arg) {
      await writing;
      const profile = await profiles.active();
      if (!profile) throw new FieldbookError('no-profile');
      const index = await indexOf(profile);
      // an index read from another address (the profile now points elsewhere) is no index
      return checkIdentities(
        index?.baseUrl === profile.baseUrl ? index : null,
        arg,
        profile.keptSites !== undefined,
      );
    },

    async freshSites(profile, now) {
      await writing;
      return freshSites(await read(profile.id, await hasherOf(profile)), profile.baseUrl, now);
    },

    async forget(profileId) {
      if (loaded?.profileId === profileId) loaded = null;
      await rm(fileOf(profileId), { force: true });
      await secrets.forget(profileId);
    },
  };
}
