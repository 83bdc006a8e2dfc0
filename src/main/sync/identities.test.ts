/**
 * Main's identity index of the sites a profile does not keep: what it holds, how a pass refreshes it, what it answers.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Parsed } from '../../shared/api/wire.ts';
import {
  checkIdentities,
  freshSites,
  identityHasher,
  IdentityCollector,
  IDENTITIES_FRESH_MS,
  loadIndex,
  parseIndex,
  type IdentityHasher,
  type IdentityIndex,
} from './identities.ts';
import { childTasks, makeTask, type SyncTask } from './tasks.ts';

const BASE = 'https://platform.example/v1';
const HASHER = identityHasher(Buffer.alloc(32, 7));
const site = (siteid: number, sitename: string) =>
  ({ siteid, sitename, loginpage: '', links: [] }) as unknown as Parsed<'site'>;
const person = (userid: number, username: string, email?: string) =>
  ({
    userid,
    username,
    email: email ? [{ emailid: userid, email, status: 'Active' }] : [],
  }) as unknown as Parsed<'user'>;

const sitesTask = makeTask('sites', { keptSites: [1] });
const kept1 = makeTask('siteUsers', { siteid: 1 });
const other2 = makeTask('otherSiteUsers', { siteid: 2 });
const other3 = makeTask('otherSiteUsers', { siteid: 3 });
const done = (...tasks: SyncTask[]) => tasks.map((task) => ({ task, state: 'complete' }));

/** A pass that saw sites 1–3 and read the people of those given. */
function pass(read: [SyncTask, Parsed<'user'>[]][]): IdentityCollector {
  const c = new IdentityCollector(HASHER);
  c.observe(sitesTask, [site(1, 'Riverside'), site(2, 'North Depot'), site(3, 'Quarry')]);
  for (const [task, people] of read) c.observe(task, people);
  return c;
}

const ask = (index: IdentityIndex | null, usernames: string[], emails: string[] = [], cachedSites = [1]) =>
  checkIdentities(index && loadIndex(index, HASHER), { usernames, emails, cachedSites }, true);

describe('the index a pass makes', () => {
  const full = pass([
    [kept1, [person(1, 'ann')]],
    [other2, [person(2, 'Ana.Silva', 'Ana@North.example')]],
    [other3, [person(3, 'cy')]],
  ]).merge(done(sitesTask, kept1, other2, other3), null, { baseUrl: BASE, syncedAt: 'T1' })!;

  it("holds per site its name and hashed, lower-cased usernames and addresses: no person's name, no id, no value in clear", () => {
    expect(full.sites.map((s) => s.sitename)).toEqual(['Riverside', 'North Depot', 'Quarry']);
    const text = JSON.stringify(full);
    for (const clear of ['Ana.Silva', 'ana.silva', 'north.example', '"userid"'])
      expect(text).not.toContain(clear);
    expect(full.sites[1]).toEqual({
      siteid: 2,
      sitename: 'North Depot',
      usernames: [HASHER.key('ana.silva')],
      emails: [HASHER.key('ana@north.example')],
      readAt: 'T1',
    });
  });

  it('answers for the sites the renderer does not hold, whatever the case, naming the site', () => {
    expect(ask(full, ['ANA.SILVA', 'ann', 'nobody'], ['ana@NORTH.example'])).toEqual({
      held: [
        { field: 'username', value: 'ANA.SILVA', sitename: 'North Depot' },
        { field: 'email', value: 'ana@NORTH.example', sitename: 'North Depot' },
      ],
      unknownSites: [],
      notSynced: false,
      syncedAt: 'T1',
    });
  });

  it('answers for a kept site too once the renderer no longer holds it (taken off, or added and not synced yet)', () => {
    expect(ask(full, ['ann'], [], []).held).toEqual([
      { field: 'username', value: 'ann', sitename: 'Riverside' },
    ]);
  });

  it("a site whose list failed keeps the previous pass's entries; one never read is unknown, by name", () => {
    const next = pass([
      [kept1, [person(1, 'ann')]],
      [other2, [person(2, 'half.read')]],
    ]).merge([...done(sitesTask, kept1, other3), { task: other2, state: 'failed' }], full, {
      baseUrl: BASE,
      syncedAt: 'T2',
    })!;
    expect(ask(next, ['ana.silva', 'half.read', 'cy']).held.map((h) => h.value)).toEqual(['ana.silva']);
    const first = pass([]).merge([...done(sitesTask), { task: other2, state: 'failed' }], null, {
      baseUrl: BASE,
      syncedAt: 'T1',
    })!;
    expect(ask(first, []).unknownSites).toEqual(['North Depot', 'Quarry']);
  });

  it('a pass that did not read the list of sites changes nothing; a site no longer seen goes', () => {
    expect(
      pass([]).merge([{ task: sitesTask, state: 'failed' }], full, { baseUrl: BASE, syncedAt: 'T2' }),
    ).toBeNull();
    const c = new IdentityCollector(HASHER);
    c.observe(sitesTask, [site(1, 'Riverside'), site(2, 'North Depot')]);
    expect(
      c.merge(done(sitesTask), full, { baseUrl: BASE, syncedAt: 'T2' })!.sites.map((s) => s.siteid),
    ).toEqual([1, 2]);
  });

  it("never reuses another address's entries", () => {
    const moved = pass([]).merge(done(sitesTask), full, {
      baseUrl: 'https://other.example/v1',
      syncedAt: 'T2',
    })!;
    expect(ask(moved, ['ana.silva'])).toMatchObject({ held: [], unknownSites: ['North Depot', 'Quarry'] });
  });

  it('reads back what it wrote, and refuses a file that is not an index', () => {
    expect(parseIndex(JSON.parse(JSON.stringify(full)), HASHER)).toEqual(full);
    expect(parseIndex({ version: 2, sites: [] }, HASHER)).toBeNull();
    expect(parseIndex({ ...full, sites: [{ siteid: '2' }] }, HASHER)).toBeNull();
  });
});

describe('keyed with the profile’s own secret', () => {
  const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 16);
  const OTHER = identityHasher(Buffer.alloc(32, 8));
  const made = (hasher: IdentityHasher) => {
    const c = new IdentityCollector(hasher);
    c.observe(sitesTask, [site(1, 'Riverside'), site(2, 'North Depot')]);
    c.observe(other2, [person(2, 'ana.silva', 'ana@north.example')]);
    return c.merge(done(sitesTask, other2), null, { baseUrl: BASE, syncedAt: 'T1' })!;
  };

  it('holds no plain SHA-256 of a username or address, so a guessed one cannot be confirmed from the file', () => {
    const text = JSON.stringify(made(HASHER));
    for (const value of ['ana.silva', 'ana@north.example']) expect(text).not.toContain(sha256(value));
  });

  it('gives another profile’s index other entries for the same people', () => {
    const [ours, theirs] = [made(HASHER), made(OTHER)].map((index) => [
      ...index.sites[1]!.usernames!,
      ...index.sites[1]!.emails!,
    ]);
    expect(ours!.filter((entry) => theirs!.includes(entry))).toEqual([]);
  });

  it('is not read with another secret, nor as an older build wrote it (unkeyed SHA-256): nothing is answered from it', () => {
    expect(parseIndex(JSON.parse(JSON.stringify(made(HASHER))), OTHER)).toBeNull();
    const unkeyed = {
      version: 1,
      baseUrl: BASE,
      syncedAt: 'T1',
      sites: [{ siteid: 2, sitename: 'North Depot', usernames: [sha256('ana.silva')], emails: [] }],
    };
    expect(parseIndex(unkeyed, HASHER)).toBeNull();
  });

  it('is not built on by a pass with another secret: a site that pass did not read is unknown, not kept', () => {
    const c = new IdentityCollector(OTHER);
    c.observe(sitesTask, [site(1, 'Riverside'), site(2, 'North Depot')]);
    const next = c.merge(done(sitesTask), made(HASHER), { baseUrl: BASE, syncedAt: 'T2' })!;
    expect(next.sites[1]).toEqual({ siteid: 2, sitename: 'North Depot', usernames: null, emails: null });
  });
});

describe('what it answers without an index', () => {
  it('a profile keeping some sites that no sync has filled it for: nothing can be checked', () => {
    expect(ask(null, ['ann'])).toEqual({ held: [], unknownSites: [], notSynced: true, syncedAt: null });
  });

  it('a profile keeping every site: the renderer holds them all, nothing to ask', () => {
    expect(checkIdentities(null, { usernames: ['ann'], emails: [], cachedSites: [1] }, false)).toMatchObject({
      held: [],
      notSynced: false,
    });
  });
});

describe('the other sites are read again only once their entries are some hours old', () => {
  const at = (iso: string) => ({ baseUrl: BASE, syncedAt: iso });
  const morning = '2026-11-27T08:00:00.000Z';
  const first = pass([
    [kept1, [person(1, 'ann')]],
    [other2, [person(2, 'ana.silva')]],
    [other3, [person(3, 'cy')]],
  ]).merge(done(sitesTask, kept1, other2, other3), null, at(morning))!;
  const later = (ms: number) => new Date(Date.parse(morning) + ms);

  it('a site read in full within the window is fresh; one older, one never read, one of another address or read "in the future" is not', () => {
    expect(freshSites(first, BASE, later(IDENTITIES_FRESH_MS - 1000))).toEqual([1, 2, 3]);
    expect(freshSites(first, BASE, later(IDENTITIES_FRESH_MS + 1000))).toEqual([]);
    expect(freshSites(first, 'https://other.example/v1', later(1000))).toEqual([]);
    expect(freshSites(first, BASE, later(-60_000))).toEqual([]);
    const failed = pass([]).merge(
      [...done(sitesTask), { task: other2, state: 'failed' }],
      null,
      at(morning),
    )!;
    expect(freshSites(failed, BASE, later(1000))).not.toContain(2);
    expect(freshSites(null, BASE, later(1000))).toEqual([]);
  });

  it('reads them again after twelve hours: fresh at eleven, not at thirteen', () => {
    const hours = (n: number) => later(n * 60 * 60 * 1000);
    expect(freshSites(first, BASE, hours(11))).toEqual([1, 2, 3]);
    expect(freshSites(first, BASE, hours(13))).toEqual([]);
  });

  it('a pass that skips a fresh site keeps its entries and when they were read; the answer is "as of" the oldest reading', () => {
    const noon = '2026-11-27T12:00:00.000Z';
    // site 3 fresh: not read at noon; site 2 read again
    const next = pass([
      [kept1, [person(1, 'ann')]],
      [other2, [person(2, 'ana.silva'), person(4, 'new.hire')]],
    ]).merge(done(sitesTask, kept1, other2), first, at(noon))!;
    expect(next.sites.map((s) => [s.siteid, s.readAt])).toEqual([
      [1, noon],
      [2, noon],
      [3, morning],
    ]);
    expect(ask(next, ['cy', 'new.hire'])).toEqual({
      held: [
        { field: 'username', value: 'cy', sitename: 'Quarry' },
        { field: 'username', value: 'new.hire', sitename: 'North Depot' },
      ],
      unknownSites: [],
      notSynced: false,
      syncedAt: morning,
    });
  });

  it('an index written before sites had their own time counts as read when it was written', () => {
    const old = { ...first, sites: first.sites.map(({ readAt: _, ...rest }) => rest) };
    expect(parseIndex(JSON.parse(JSON.stringify(old)), HASHER)).toEqual(old);
    expect(freshSites(old, BASE, later(1000))).toEqual([1, 2, 3]);
    expect(ask(old, []).syncedAt).toBe(morning);
  });

  it("the list of sites plans the other sites' users only for those not fresh", () => {
    const sites = makeTask('sites', { keptSites: [1], identitiesFresh: [3] });
    const planned = childTasks(sites, [
      site(1, 'Riverside'),
      site(2, 'North Depot'),
      site(3, 'Quarry'),
    ]).filter((t) => t.kind === 'otherSiteUsers');
    expect(planned.map((t) => t.scope.siteid)).toEqual([2]);
  });
});

describe('a kept site whose unchanged people were not parsed (skipped by fingerprint)', () => {
  const at = (iso: string) => ({ baseUrl: BASE, syncedAt: iso });
  const morning = '2026-11-27T08:00:00.000Z';
  const noon = '2026-11-27T12:00:00.000Z';
  const first = pass([[kept1, [person(1, 'ann'), person(5, 'bo')]]]).merge(
    done(sitesTask, kept1),
    null,
    at(morning),
  )!;

  it('adds the people it read to those known before, and keeps when the site was last read in full', () => {
    const c = new IdentityCollector(HASHER);
    c.observe(sitesTask, [site(1, 'Riverside'), site(2, 'North Depot'), site(3, 'Quarry')]);
    c.observe(kept1, [person(6, 'new.hire')], 2);
    const next = c.merge(done(sitesTask, kept1), first, at(noon))!;
    expect(next.sites[0]).toMatchObject({ siteid: 1, readAt: morning });
    expect(ask(next, ['ann', 'bo', 'new.hire'], [], []).held.map((h) => h.value)).toEqual([
      'ann',
      'bo',
      'new.hire',
    ]);
  });

  it('is unknown when nothing was known of it before (it is read in full once it is no longer kept)', () => {
    const c = new IdentityCollector(HASHER);
    c.observe(sitesTask, [site(1, 'Riverside')]);
    c.observe(kept1, [], 3);
    expect(c.merge(done(sitesTask, kept1), null, at(noon))!.sites[0]).toEqual({
      siteid: 1,
      sitename: 'Riverside',
      usernames: null,
      emails: null,
    });
  });
});
