/**
 * Profiles (name, base URL, demo flag, learned access level) in a JSON settings
 * file, written atomically (temp file + rename) so a crash never leaves half a
 * file. Tokens live in the keychain, keyed by profile id, and in memory while in
 * use; the settings file holds no secret. The demo profile's token is kept in
 * memory only: it belongs to the local demo server, which hands it out again on
 * every start, so the demo works even where no keychain is reachable.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { ProfileSummary, ProfilesState, TokenAccess } from '../../shared/ipc.ts';
import type { Keychain } from '../deps.ts';
import { FieldbookError } from '../ipc/errors.ts';
import { sameTokenOrigin } from '../../shared/token-origin.ts';
import { normalizeBaseUrl } from './base-url.ts';
import { forgetSecret, registerSecret, tokenHint } from './scrub.ts';
import { MAX_KEPT_SITES } from '../../shared/ipc.ts';

const storedProfileSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  baseUrl: z.string(),
  isDemo: z.boolean().default(false),
  access: z.enum(['unknown', 'full', 'readonly', 'feature']).default('unknown'),
  /** whether the keychain holds a token for it (no secret: lets the list render without the keychain) */
  hasToken: z.boolean().default(false),
  /**
   * "Work offline": held here, in main's own settings, so main enforces it from the first request after a restart,
   * whatever the renderer says
   */
  workOffline: z.boolean().default(false),
  /** the sites this laptop keeps (absent: every site the token sees) */
  keptSites: z.array(z.number().int().positive()).max(MAX_KEPT_SITES).optional(),
});
export type StoredProfile = z.infer<typeof storedProfileSchema>;

const settingsSchema = z.object({
  version: z.literal(1),
  activeId: z.string().nullable(),
  profiles: z.array(storedProfileSchema),
});
type Settings = z.infer<typeof settingsSchema>;

export const SETTINGS_FILE = 'profiles.json';

const EMPTY_ENTRY =
  'The keychain holds an empty entry for this profile: edit the profile and add its API token again.';
const UNREADABLE_ENTRY =
  'The keychain gave no token for this profile. It may be locked: unlock it, then try again. ' +
  'If its entry was removed outside Fieldbook, edit the profile and add its API token again.';

export interface ProfileInput {
  id?: string;
  name: string;
  baseUrl: string;
  token?: string;
}

export class ProfileStore {
  readonly #file: string;
  readonly #dir: string;
  readonly #keychain: Keychain;
  #settings: Settings | null = null;
  #writing: Promise<void> = Promise.resolve();
  /** tokens read from the keychain (or given by the demo) while the app runs */
  readonly #tokens = new Map<string, string>();

  constructor(settingsDir: string, keychain: Keychain) {
    this.#dir = settingsDir;
    this.#file = join(settingsDir, SETTINGS_FILE);
    this.#keychain = keychain;
  }

  async #load(): Promise<Settings> {
    if (this.#settings) return this.#settings;
    let text: string | null;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch {
      text = null;
    }
    let settings: Settings = { version: 1, activeId: null, profiles: [] };
    if (text !== null) {
      try {
        settings = settingsSchema.parse(JSON.parse(text));
      } catch {
        // unreadable settings: keep the file aside for the user rather than overwrite it silently
        await rename(this.#file, `${this.#file}.unreadable-${Date.now()}`).catch(() => undefined);
      }
    }
    this.#settings ??= settings;
    return this.#settings;
  }

  async #persist(): Promise<void> {
    const settings = this.#settings;
    if (!settings) return;
    const write = async () => {
      await mkdir(this.#dir, { recursive: true });
      const temp = `${this.#file}.${process.pid}.${randomUUID()}.tmp`;
      await writeFile(temp, JSON.stringify(settings, null, 2), { encoding: 'utf8', mode: 0o600 });
      await rename(temp, this.#file);
    };
    this.#writing = this.#writing.then(write, write);
    await this.#writing;
  }

  async list(): Promise<StoredProfile[]> {
    return [...(await this.#load()).profiles];
  }

  async get(id: string): Promise<StoredProfile | null> {
    return (await this.#load()).profiles.find((p) => p.id === id) ?? null;
  }

  async activeId(): Promise<string | null> {
    return (await this.#load()).activeId;
  }

  async active(): Promise<StoredProfile | null> {
    const settings = await this.#load();
    return settings.profiles.find((p) => p.id === settings.activeId) ?? null;
  }

  summary(profile: StoredProfile): ProfileSummary {
    const token = this.#tokens.get(profile.id);
    // the demo always has a token: the demo server hands it out again when it starts
    const hasToken = profile.isDemo || profile.hasToken;
    return {
      id: profile.id,
      name: profile.name,
      baseUrl: profile.baseUrl,
      hasToken,
      tokenHint: hasToken ? tokenHint(token ?? '') : null,
      isDemo: profile.isDemo,
      access: profile.access,
      workOffline: profile.workOffline,
      ...(profile.keptSites ? { keptSites: [...profile.keptSites] } : {}),
    };
  }

  async state(): Promise<ProfilesState> {
    const settings = await this.#load();
    // warm the token cache so hints show the real tail
    for (const p of settings.profiles) if (p.hasToken && !p.isDemo) await this.token(p.id).catch(() => null);
    return {
      profiles: settings.profiles.map((p) => this.summary(p)),
      activeId: settings.activeId,
      keychain: await this.#keychain.available(),
    };
  }

  /** Create (no id) or edit a profile. A new profile becomes the active one. */
  async save(input: ProfileInput): Promise<StoredProfile> {
    const settings = await this.#load();
    const url = normalizeBaseUrl(input.baseUrl);
    if (!url.ok) throw new FieldbookError('invalid-argument', url.message);
    const existing = input.id ? settings.profiles.find((p) => p.id === input.id) : undefined;
    if (input.id && !existing) throw new FieldbookError('no-profile', 'That profile no longer exists.');
    if (existing?.isDemo) throw new FieldbookError('invalid-argument', 'The demo profile cannot be edited.');
    const id = existing?.id ?? randomUUID();
    // the token belongs to the origin it was entered for: a new scheme, host or port asks for it again
    const moved = existing !== undefined && !sameTokenOrigin(existing.baseUrl, url.baseUrl);
    if (input.token !== undefined) await this.#storeToken(id, input.token.trim());
    else if (moved && existing.hasToken) await this.#dropToken(id);

    const profile: StoredProfile = {
      id,
      name: input.name.trim(),
      baseUrl: url.baseUrl,
      isDemo: false,
      workOffline: existing?.workOffline ?? false,
      hasToken: input.token !== undefined || (!moved && (existing?.hasToken ?? false)),
      // a new address or token may mean a new access level: learn it again
      access:
        existing && input.token === undefined && existing.baseUrl === url.baseUrl
          ? existing.access
          : 'unknown',
      // the same customer keeps the same sites; another address may be another customer: every site again until chosen
      ...(existing?.keptSites && existing.baseUrl === url.baseUrl ? { keptSites: existing.keptSites } : {}),
    };
    if (existing) settings.profiles[settings.profiles.indexOf(existing)] = profile;
    else {
      settings.profiles.push(profile);
      settings.activeId = id;
    }
    await this.#persist();
    return profile;
  }

  async #storeToken(id: string, token: string): Promise<void> {
    const status = await this.#keychain.available();
    if (!status.available) throw new FieldbookError('keychain-unavailable', status.message);
    try {
      await this.#keychain.set(id, token);
    } catch {
      throw new FieldbookError('keychain-unavailable');
    }
    const old = this.#tokens.get(id);
    if (old) forgetSecret(old);
    this.#tokens.set(id, token);
    registerSecret(token);
  }

  /**
   * Forgets a profile's token (memory and keychain). A keychain that cannot delete leaves an entry nothing will read:
   * hasToken is cleared all the same.
   */
  async #dropToken(id: string): Promise<void> {
    const token = this.#tokens.get(id);
    if (token) forgetSecret(token);
    this.#tokens.delete(id);
    await this.#keychain.delete(id).catch(() => false);
  }

  /** The demo profile, created on first use; its address and token change with every demo start. */
  async saveDemo(baseUrl: string, token: string): Promise<StoredProfile> {
    const settings = await this.#load();
    let profile = settings.profiles.find((p) => p.isDemo);
    if (!profile) {
      profile = {
        id: `demo-${randomUUID()}`,
        name: 'Demo site',
        baseUrl,
        isDemo: true,
        access: 'full',
        hasToken: false,
        workOffline: false,
      };
      settings.profiles.push(profile);
    }
    profile.baseUrl = baseUrl.replace(/\/+$/, '');
    profile.access = 'full';
    this.#tokens.set(profile.id, token);
    registerSecret(token);
    settings.activeId = profile.id;
    await this.#persist();
    return profile;
  }

  async delete(id: string): Promise<void> {
    const settings = await this.#load();
    const profile = settings.profiles.find((p) => p.id === id);
    if (!profile) throw new FieldbookError('no-profile', 'That profile no longer exists.');
    if (profile.hasToken && !profile.isDemo) {
      try {
        await this.#keychain.delete(id);
      } catch {
        throw new FieldbookError(
          'keychain-unavailable',
          'The token could not be removed from the system keychain, so the profile was kept. Unlock the keychain and try again.',
        );
      }
    }
    const token = this.#tokens.get(id);
    if (token) forgetSecret(token);
    this.#tokens.delete(id);
    settings.profiles = settings.profiles.filter((p) => p.id !== id);
    if (settings.activeId === id) settings.activeId = settings.profiles[0]?.id ?? null;
    await this.#persist();
  }

  async activate(id: string): Promise<StoredProfile> {
    const settings = await this.#load();
    const profile = settings.profiles.find((p) => p.id === id);
    if (!profile) throw new FieldbookError('no-profile', 'That profile no longer exists.');
    settings.activeId = id;
    await this.#persist();
    return profile;
  }

  /** "Work offline" on or off; kept across restarts. */
  async setWorkOffline(id: string, offline: boolean): Promise<StoredProfile> {
    const profile = await this.get(id);
    if (!profile) throw new FieldbookError('no-profile', 'That profile no longer exists.');
    if (profile.workOffline !== offline) {
      profile.workOffline = offline;
      await this.#persist();
    }
    return profile;
  }

  async setAccess(id: string, access: TokenAccess): Promise<void> {
    const profile = await this.get(id);
    if (!profile || profile.access === access) return;
    profile.access = access;
    await this.#persist();
  }

  /**
   * Keeps only these sites on this laptop (null: every site the token sees). The ids are checked against the server by
   * the caller.
   */
  async setKeptSites(id: string, siteids: readonly number[] | null): Promise<StoredProfile> {
    const profile = await this.get(id);
    if (!profile) throw new FieldbookError('no-profile', 'That profile no longer exists.');
    if (siteids === null) delete profile.keptSites;
    else profile.keptSites = [...new Set(siteids)].sort((a, b) => a - b);
    await this.#persist();
    return profile;
  }

  /** The profile's token (keychain, cached in memory), or null when it has none (the demo's comes from its cache). */
  async token(id: string): Promise<string | null> {
    const cached = this.#tokens.get(id);
    if (cached !== undefined) return cached;
    const profile = await this.get(id);
    if (!profile || profile.isDemo || !profile.hasToken) return null;
    const status = await this.#keychain.available();
    if (!status.available) throw new FieldbookError('keychain-unavailable', status.message);
    const token = await this.#keychain.get(id);
    // the profile was saved with a token: an entry that gives none is said in words, never sent as an empty token
    if (token === null) throw new FieldbookError('token-missing', UNREADABLE_ENTRY);
    if (token === '') throw new FieldbookError('token-missing', EMPTY_ENTRY);
    this.#tokens.set(id, token);
    registerSecret(token);
    return token;
  }
}
