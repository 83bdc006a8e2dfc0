/**
 * The sites a profile keeps on this laptop: which sites its token sees (with a
 * cheap guess whether it sees too many people to keep them all), and setting
 * the kept ones, each checked against the server's list of sites.
 */
import { WrapperKey } from '../../shared/api/wire.ts';
import type { ParsedArg, ProfileSites, ProfileSummary } from '../../shared/ipc.ts';
import type { ApiClient } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import { FieldbookError } from '../ipc/errors.ts';
import type { ProfileStore, StoredProfile } from '../secrets/profiles.ts';
import type { ProfilesService } from './profiles.ts';

/**
 * More people than this and the app asks which sites to keep (dataset `l`, 20,000 people, syncs in under two minutes).
 */
const MANY_PEOPLE = 20_000;

const PAGE = 1000;

async function sitesSeen(client: ApiClient): Promise<{ siteid: number; name: string }[]> {
  const sites: { siteid: number; name: string }[] = [];
  for (let startrow = 1; ; startrow += PAGE) {
    const page = await client.getPage('/sites', WrapperKey.sites, 'site', { startrow, limit: PAGE });
    for (const s of page.items) sites.push({ siteid: s.siteid, name: s.sitename });
    if (page.empty || page.items.length < PAGE) return sites;
  }
}

/**
 * One row past `many`: whether the token sees more people than that, in one
 * small request; null when that row's record cannot be read (it says nothing of
 * how many there are; the sync says what it could not read).
 */
async function manyPeople(client: ApiClient, many: number): Promise<boolean | null> {
  try {
    const page = await client.getPage('/users', WrapperKey.users, 'user', { startrow: many + 1, limit: 1 });
    return !page.empty && page.items.length > 0;
  } catch (e) {
    if (e instanceof ApiError && e.appError.code === 'malformed-response') return null;
    throw e;
  }
}

/**
 * The chosen sites to check with the server: those the profile does not keep
 * yet (none when the choice is every site); a profile keeping every site checks
 * them all. None while the profile works offline: nothing leaves the laptop,
 * the choice was made among the sites its token listed, and the sync that
 * brings an added site in reads the server's own list of sites (a site the
 * token no longer sees brings nothing).
 */
function sitesToCheck(profile: StoredProfile, chosen: readonly number[] | null): number[] {
  if (chosen === null || profile.workOffline) return [];
  if (profile.keptSites === undefined) return [...chosen];
  const kept = new Set(profile.keptSites);
  return chosen.filter((id) => !kept.has(id));
}

export interface KeptSitesService {
  sites(arg: ParsedArg<'profiles:sites'>): Promise<ProfileSites>;
  setKept(arg: ParsedArg<'profiles:setKeptSites'>): Promise<ProfileSummary>;
}

/** `manyPeople`: more people than this and the app asks which sites to keep (tests lower it). */
export function createKeptSitesService(
  profiles: ProfileStore,
  session: ProfilesService,
  manyPeopleAbove = MANY_PEOPLE,
): KeptSitesService {
  async function profileOf(id: string): Promise<StoredProfile> {
    const profile = await profiles.get(id);
    if (!profile) throw new FieldbookError('no-profile', 'That profile no longer exists.');
    return profile;
  }

  /** Refuses sites the token no longer sees (nothing changed). */
  async function checkSeen(profile: StoredProfile, chosen: readonly number[]): Promise<void> {
    const seen = new Set((await sitesSeen(await session.clientFor(profile))).map((s) => s.siteid));
    const unknown = chosen.filter((id) => !seen.has(id));
    if (unknown.length === 0) return;
    // a site the token does not see has no name here: it is counted, never shown by its id
    const which =
      unknown.length === 1 ? 'One of the chosen sites is' : `${unknown.length} of the chosen sites are`;
    throw new FieldbookError(
      'invalid-argument',
      `${which} not seen by this profile's token any more, so the kept sites were not changed. Choose among the sites listed.`,
    );
  }

  return {
    async sites(arg) {
      const profile = await profileOf(arg.id);
      const client = await session.clientFor(profile);
      const [sites, many] = await Promise.all([sitesSeen(client), manyPeople(client, manyPeopleAbove)]);
      // not known: with one site there is nothing to choose; with several the coordinator chooses (the cautious way)
      return { sites, keptSites: profile.keptSites ?? null, manyRecords: many ?? sites.length > 1 };
    },

    async setKept(arg) {
      const profile = await profileOf(arg.id);
      const check = sitesToCheck(profile, arg.siteids);
      if (check.length > 0) await checkSeen(profile, check);
      return session.summaryOf(await profiles.setKeptSites(profile.id, arg.siteids));
    },
  };
}
