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
import type { ProfileStore } from '../secrets/profiles.ts';
import { FieldbookError } from '../ipc/errors.ts';
import { checkIdentities, freshSites, loadIndex, parseIndex, type IdentityCollector, type IdentityIndex, type LoadedIndex } from '../sync/identities.ts';

export interface IdentitiesService {
  /** After a pass of a profile keeping some sites: its index merged with what the pass read, and written. */
  store(profileId: string, collector: IdentityCollector, runs: Parameters<IdentityCollector['merge']>[0], at: Parameters<IdentityCollector['merge']>[2]): Promise<void>;
  check(arg: ParsedArg<'identities:check'>): Promise<IdentitiesCheck>;
  /** The sites whose usernames and e-mails the index read recently (`IDENTITIES_FRESH_MS`): a sync does not read them again. */
  freshSites(profileId: string, baseUrl: string, now: Date): Promise<number[]>;
  /** A deleted profile's index goes with it. */
  forget(profileId: string): Promise<void>;
}

export function createIdentitiesService(settingsDir: string, profiles: ProfileStore): IdentitiesService {
  const dir = join(settingsDir, 'identities');
  // the profile id is ours, but a file name is made of a digest of it, never of the text itself
  const fileOf = (profileId: string) => join(dir, `${createHash('sha256').update(profileId).digest('hex').slice(0, 32)}.json`);
  /** the last index read or written, so a check of a large file does not read it again */
  let loaded: { profileId: string; index: LoadedIndex | null } | null = null;
  /** the index being written after a pass: a check waits for it (the sync's end reaches the renderer first) */
  let writing: Promise<unknown> = Promise.resolve();

  async function read(profileId: string): Promise<IdentityIndex | null> {
    try {
      return parseIndex(JSON.parse(await readFile(fileOf(profileId), 'utf8')));
    } catch {
      return null;
    }
  }

  async function indexOf(profileId: string): Promise<LoadedIndex | null> {
    if (loaded?.profileId !== profileId) {
      const index = await read(profileId);
      loaded = { profileId, index: index && loadIndex(index) };
    }
    return loaded.index;
  }

  return {
    store(profileId, collector, runs, at) {
      const job = (async () => {
        const merged = collector.merge(runs, await read(profileId), at);
        if (!merged) return;
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const temp = `${fileOf(profileId)}.${randomUUID()}.tmp`;
        await writeFile(temp, JSON.stringify(merged), { encoding: 'utf8', mode: 0o600 });
        await rename(temp, fileOf(profileId));
        loaded = { profileId, index: loadIndex(merged) };
      })();
      writing = job.catch(() => undefined);
      return job;
    },

    async check(arg) {
      await writing;
      const profile = await profiles.active();
      if (!profile) throw new FieldbookError('no-profile');
      const index = await indexOf(profile.id);
      // an index read from another address (the profile now points elsewhere) is no index
      return checkIdentities(index?.baseUrl === profile.baseUrl ? index : null, arg, profile.keptSites !== undefined);
    },

    async freshSites(profileId, baseUrl, now) {
      await writing;
      return freshSites(await read(profileId), baseUrl, now);
    },

    async forget(profileId) {
      if (loaded?.profileId === profileId) loaded = null;
      await rm(fileOf(profileId), { force: true });
    },
  };
}
