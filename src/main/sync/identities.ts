/**
 * The light identity index of a profile keeping some sites (issue 28): per
 * site, the usernames and e-mail addresses of its people, each lower-cased and
 * keyed with the profile's own secret (HMAC-SHA256: a guessed address cannot be
 * confirmed from the file without the keychain), and the site's name. Nothing else: no person's name, no id. It
 * answers one question, which the import asks before it plans a new person or a
 * new username or e-mail: "does someone at a site this laptop does not hold
 * have it?" (the platform keeps both unique across the customer and refuses a
 * second, 1002). It never crosses IPC; the renderer gets only the answers for
 * the values it asks about (`identities:check`).
 *
 * Filled by the sync from users lists it reads anyway or reads for this only:
 * each kept site's users (`siteUsers`) and each other site's
 * (`otherSiteUsers`, parsed here and never sent). Main only.
 */
import { createHmac, createSecretKey } from 'node:crypto';
import type { Parsed } from '../../shared/api/wire.ts';
import type { IdentitiesCheck, ParsedArg } from '../../shared/ipc.ts';
import type { SyncTask } from './tasks.ts';

/** How a profile's index keys what it holds, with the profile's secret (secrets/identity-key.ts). */
export interface IdentityHasher {
  /** names the secret in the file (an HMAC of a fixed text: it tells nothing of the secret) */
  readonly keyId: string;
  /**
   * A username or address as the index holds it: NFC, trimmed, lower-cased, then HMAC-SHA256, 96 bits (no collision in
   * millions).
   */
  key(value: string): string;
}

export function identityHasher(secret: Uint8Array): IdentityHasher {
  // one key object for every value (its pads are not derived again per value)
  const key = createSecretKey(secret);
  const mac = (text: string) => createHmac('sha256', key).update(text).digest('base64url').slice(0, 16);
  return {
    keyId: mac('fieldbook identity index'),
    key: (value) => mac(value.normalize('NFC').trim().toLowerCase()),
  };
}

export interface SiteIdentities {
  siteid: number;
  sitename: string;
  /** null: its people are not known (no sync has read them in full) */
  usernames: string[] | null;
  emails: string[] | null;
  /**
   * when a sync last read its people in full (absent in an index written before it was kept: the index's `syncedAt`)
   */
  readAt?: string;
}

/** What is stored per profile (main's settings folder), as JSON. */
export interface IdentityIndex {
  /** 2: keyed (HMAC). 1, plain SHA-256, is not read: the next sync writes it again */
  version: 2;
  /** the secret its entries were keyed with (IdentityHasher.keyId): an index of another secret is no index */
  keyId: string;
  /** the address it was read from: an index of another address (the profile was edited) is no index */
  baseUrl: string;
  /** when the sync that last filled it ended */
  syncedAt: string;
  /** every site the token saw at that sync */
  sites: SiteIdentities[];
}

const READS_PEOPLE = new Set(['siteUsers', 'otherSiteUsers']);

interface TaskRunLike {
  task: SyncTask;
  state: string;
}

/** One pass's identities, as its pages are read. */
export class IdentityCollector {
  readonly #names = new Map<number, string>();
  readonly #read = new Map<number, { usernames: Set<string>; emails: Set<string> }>();
  /** sites some of whose people this pass did not parse */
  readonly #partial = new Set<number>();
  /** keys what the pass reads (the profile's secret) */
  readonly hasher: IdentityHasher;

  constructor(hasher: IdentityHasher) {
    this.hasher = hasher;
  }

  /**
   * A page: the sites list names every site; a site's users list gives its
   * people's identities. `known` items of a kept site's page were not parsed
   * (the cache holds them as received: page-keys.ts), so that site's reading
   * is partial: it adds to the previous entries rather than replacing them.
   */
  observe(task: SyncTask, items: readonly unknown[], known = 0): void {
    if (task.kind === 'sites') {
      for (const s of items as Parsed<'site'>[]) this.#names.set(s.siteid, s.sitename);
      return;
    }
    const siteid = task.scope.siteid;
    if (!READS_PEOPLE.has(task.kind) || siteid === undefined) return;
    if (known > 0) this.#partial.add(siteid);
    let site = this.#read.get(siteid);
    if (!site) this.#read.set(siteid, (site = { usernames: new Set(), emails: new Set() }));
    for (const u of items as Parsed<'user'>[]) {
      if (u.username) site.usernames.add(this.hasher.key(u.username));
      for (const e of u.email) {
        const address = typeof e === 'string' ? e : e.email;
        if (address) site.emails.add(this.hasher.key(address));
      }
    }
  }

  /**
   * The index after the pass: a site whose users were read in full this pass
   * replaces its entries; one whose list failed keeps the previous pass's (or
   * stays unknown); a site the token no longer sees goes. Null when the sites
   * list was not read in full: the previous index stands.
   */
  merge(
    runs: readonly TaskRunLike[],
    previous: IdentityIndex | null,
    at: { baseUrl: string; syncedAt: string },
  ): IdentityIndex | null {
    if (!runs.some((r) => r.task.kind === 'sites' && r.state === 'complete')) return null;
    const complete = new Set(
      runs
        .filter((r) => READS_PEOPLE.has(r.task.kind) && r.state === 'complete')
        .map((r) => r.task.scope.siteid),
    );
    const same = previous?.baseUrl === at.baseUrl && previous.keyId === this.hasher.keyId ? previous : null;
    const before = new Map((same?.sites ?? []).map((s) => [s.siteid, s]));
    const sites: SiteIdentities[] = [];
    for (const [siteid, sitename] of this.#names) {
      const read = this.#read.get(siteid);
      const old = before.get(siteid);
      if (complete.has(siteid) && this.#partial.has(siteid))
        sites.push(added(siteid, sitename, old && { ...old, readAt: old.readAt ?? same!.syncedAt }, read));
      else if (complete.has(siteid))
        sites.push({
          siteid,
          sitename,
          usernames: [...(read?.usernames ?? [])],
          emails: [...(read?.emails ?? [])],
          readAt: at.syncedAt,
        });
      else if (old?.usernames && old.emails)
        sites.push({
          siteid,
          sitename,
          usernames: old.usernames,
          emails: old.emails,
          readAt: old.readAt ?? same!.syncedAt,
        });
      else sites.push({ siteid, sitename, usernames: null, emails: null });
    }
    return { version: 2, keyId: this.hasher.keyId, baseUrl: at.baseUrl, syncedAt: at.syncedAt, sites };
  }
}

/**
 * How long the usernames and e-mails of a site not kept stand before a sync
 * reads them again. Reading them is most of a resync of a profile keeping one
 * site of many (dataset `xl`: 39 other sites, 195,000 people, about 126 MB at
 * every sync); the platform refuses a duplicate anyway (1002), so an index a
 * few hours old costs at worst a refused change, which the Outbox shows.
 */
export const IDENTITIES_FRESH_MS = 12 * 60 * 60 * 1000;

/** The sites whose people the index read in full within `IDENTITIES_FRESH_MS` of `now` (from the same address). */
export function freshSites(index: IdentityIndex | null, baseUrl: string, now: Date): number[] {
  if (!index || index.baseUrl !== baseUrl) return [];
  return index.sites
    .filter((s) => {
      const readAt = Date.parse(s.readAt ?? index.syncedAt);
      return (
        s.usernames !== null &&
        s.emails !== null &&
        now.getTime() - readAt < IDENTITIES_FRESH_MS &&
        readAt <= now.getTime()
      );
    })
    .map((s) => s.siteid);
}

/**
 * A site read in part (its unchanged people not parsed): what was read adds to
 * the previous entries, which keep their time (unknown without them).
 */
function added(
  siteid: number,
  sitename: string,
  old: SiteIdentities | undefined,
  read: { usernames: Set<string>; emails: Set<string> } | undefined,
): SiteIdentities {
  if (!old?.usernames || !old.emails) return { siteid, sitename, usernames: null, emails: null };
  const usernames = [...new Set([...old.usernames, ...(read?.usernames ?? [])])];
  const emails = [...new Set([...old.emails, ...(read?.emails ?? [])])];
  return { siteid, sitename, usernames, emails, readAt: old.readAt };
}

/** A loaded index, with a set per site for the look-ups. */
export interface LoadedIndex {
  hasher: IdentityHasher;
  baseUrl: string;
  syncedAt: string;
  sites: {
    siteid: number;
    sitename: string;
    usernames: ReadonlySet<string> | null;
    emails: ReadonlySet<string> | null;
    readAt: string;
  }[];
}

export function loadIndex(index: IdentityIndex, hasher: IdentityHasher): LoadedIndex {
  return {
    hasher,
    baseUrl: index.baseUrl,
    syncedAt: index.syncedAt,
    sites: index.sites.map((s) => ({
      siteid: s.siteid,
      sitename: s.sitename,
      usernames: s.usernames && new Set(s.usernames),
      emails: s.emails && new Set(s.emails),
      readAt: s.readAt ?? index.syncedAt,
    })),
  };
}

type CheckArg = ParsedArg<'identities:check'>;

/**
 * The asked values against the sites the renderer does not hold. `keepsSome`:
 * the profile keeps some sites (else the renderer holds every site and nothing
 * is asked of the index). No index yet while keeping some: none can be checked.
 */
export function checkIdentities(
  index: LoadedIndex | null,
  arg: CheckArg,
  keepsSome: boolean,
): IdentitiesCheck {
  if (!keepsSome) return { held: [], unknownSites: [], notSynced: false, syncedAt: index?.syncedAt ?? null };
  if (!index) return { held: [], unknownSites: [], notSynced: true, syncedAt: null };
  const cached = new Set(arg.cachedSites);
  const others = index.sites.filter((s) => !cached.has(s.siteid));
  const held: IdentitiesCheck['held'] = [];
  const ask = (field: 'username' | 'email', values: readonly string[]) => {
    for (const value of new Set(values)) {
      const key = index.hasher.key(value);
      const site = others.find((s) => (field === 'username' ? s.usernames : s.emails)?.has(key));
      if (site) held.push({ field, value, sitename: site.sitename });
    }
  };
  ask('username', arg.usernames);
  ask('email', arg.emails);
  const unknownSites = others.filter((s) => s.usernames === null || s.emails === null).map((s) => s.sitename);
  // "as of": the oldest reading of the sites asked about (each is read again once it is IDENTITIES_FRESH_MS old)
  const readAts = others
    .filter((s) => s.usernames !== null)
    .map((s) => s.readAt)
    .sort();
  return { held, unknownSites, notSynced: false, syncedAt: readAts[0] ?? index.syncedAt };
}

/**
 * A file's JSON as an index keyed with this secret, or null when it is not one
 * (an older build's unkeyed index, one keyed with a secret the keychain no
 * longer holds, a hand edit): the next sync writes it again.
 */
export function parseIndex(json: unknown, hasher: IdentityHasher): IdentityIndex | null {
  const o = json as Partial<IdentityIndex> | null;
  if (
    !o ||
    o.version !== 2 ||
    o.keyId !== hasher.keyId ||
    typeof o.baseUrl !== 'string' ||
    typeof o.syncedAt !== 'string' ||
    !Array.isArray(o.sites)
  )
    return null;
  const ok = o.sites.every(
    (s) =>
      typeof s.siteid === 'number' &&
      typeof s.sitename === 'string' &&
      (s.usernames === null || Array.isArray(s.usernames)) &&
      (s.emails === null || Array.isArray(s.emails)) &&
      (s.readAt === undefined || typeof s.readAt === 'string'),
  );
  return ok ? (o as IdentityIndex) : null;
}
