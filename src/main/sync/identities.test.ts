/** Main's identity index of the sites a profile does not keep: what it holds, how a pass refreshes it, what it answers. */
import { describe, expect, it } from 'vitest';
import type { Parsed } from '../../shared/api/wire.ts';
import { checkIdentities, identityKey, IdentityCollector, loadIndex, parseIndex, type IdentityIndex } from './identities.ts';
import { makeTask, type SyncTask } from './tasks.ts';

const BASE = 'https://platform.example/v1';
const site = (siteid: number, sitename: string) => ({ siteid, sitename, loginpage: '', links: [] }) as unknown as Parsed<'site'>;
const person = (userid: number, username: string, email?: string) =>
  ({ userid, username, email: email ? [{ emailid: userid, email, status: 'Active' }] : [] }) as unknown as Parsed<'user'>;

const sitesTask = makeTask('sites', { keptSites: [1] });
const kept1 = makeTask('siteUsers', { siteid: 1 });
const other2 = makeTask('otherSiteUsers', { siteid: 2 });
const other3 = makeTask('otherSiteUsers', { siteid: 3 });
const done = (...tasks: SyncTask[]) => tasks.map((task) => ({ task, state: 'complete' }));

/** A pass that saw sites 1–3 and read the people of those given. */
function pass(read: [SyncTask, Parsed<'user'>[]][]): IdentityCollector {
  const c = new IdentityCollector();
  c.observe(sitesTask, [site(1, 'Riverside'), site(2, 'North Depot'), site(3, 'Quarry')]);
  for (const [task, people] of read) c.observe(task, people);
  return c;
}

const ask = (index: IdentityIndex | null, usernames: string[], emails: string[] = [], cachedSites = [1]) =>
  checkIdentities(index && loadIndex(index), { usernames, emails, cachedSites }, true);

describe('the index a pass makes', () => {
  const full = pass([[kept1, [person(1, 'ann')]], [other2, [person(2, 'Ana.Silva', 'Ana@North.example')]], [other3, [person(3, 'cy')]]]).merge(done(sitesTask, kept1, other2, other3), null, { baseUrl: BASE, syncedAt: 'T1' })!;

  it('holds per site its name and hashed, lower-cased usernames and addresses: no person\'s name, no id, no value in clear', () => {
    expect(full.sites.map((s) => s.sitename)).toEqual(['Riverside', 'North Depot', 'Quarry']);
    const text = JSON.stringify(full);
    for (const clear of ['Ana.Silva', 'ana.silva', 'north.example', '"userid"']) expect(text).not.toContain(clear);
    expect(full.sites[1]).toEqual({ siteid: 2, sitename: 'North Depot', usernames: [identityKey('ana.silva')], emails: [identityKey('ana@north.example')] });
  });

  it('answers for the sites the renderer does not hold, whatever the case, naming the site', () => {
    expect(ask(full, ['ANA.SILVA', 'ann', 'nobody'], ['ana@NORTH.example'])).toEqual({
      held: [{ field: 'username', value: 'ANA.SILVA', sitename: 'North Depot' }, { field: 'email', value: 'ana@NORTH.example', sitename: 'North Depot' }],
      unknownSites: [], notSynced: false, syncedAt: 'T1',
    });
  });

  it('answers for a kept site too once the renderer no longer holds it (taken off, or added and not synced yet)', () => {
    expect(ask(full, ['ann'], [], []).held).toEqual([{ field: 'username', value: 'ann', sitename: 'Riverside' }]);
  });

  it("a site whose list failed keeps the previous pass's entries; one never read is unknown, by name", () => {
    const next = pass([[kept1, [person(1, 'ann')]], [other2, [person(2, 'half.read')]]]).merge([...done(sitesTask, kept1, other3), { task: other2, state: 'failed' }], full, { baseUrl: BASE, syncedAt: 'T2' })!;
    expect(ask(next, ['ana.silva', 'half.read', 'cy']).held.map((h) => h.value)).toEqual(['ana.silva']);
    const first = pass([]).merge([...done(sitesTask), { task: other2, state: 'failed' }], null, { baseUrl: BASE, syncedAt: 'T1' })!;
    expect(ask(first, []).unknownSites).toEqual(['North Depot', 'Quarry']);
  });

  it('a pass that did not read the list of sites changes nothing; a site no longer seen goes', () => {
    expect(pass([]).merge([{ task: sitesTask, state: 'failed' }], full, { baseUrl: BASE, syncedAt: 'T2' })).toBeNull();
    const c = new IdentityCollector();
    c.observe(sitesTask, [site(1, 'Riverside'), site(2, 'North Depot')]);
    expect(c.merge(done(sitesTask), full, { baseUrl: BASE, syncedAt: 'T2' })!.sites.map((s) => s.siteid)).toEqual([1, 2]);
  });

  it("never reuses another address's entries", () => {
    const moved = pass([]).merge(done(sitesTask), full, { baseUrl: 'https://other.example/v1', syncedAt: 'T2' })!;
    expect(ask(moved, ['ana.silva'])).toMatchObject({ held: [], unknownSites: ['North Depot', 'Quarry'] });
  });

  it('reads back what it wrote, and refuses a file that is not an index', () => {
    expect(parseIndex(JSON.parse(JSON.stringify(full)))).toEqual(full);
    expect(parseIndex({ version: 2, sites: [] })).toBeNull();
    expect(parseIndex({ ...full, sites: [{ siteid: '2' }] })).toBeNull();
  });
});

describe('what it answers without an index', () => {
  it('a profile keeping some sites that no sync has filled it for: nothing can be checked', () => {
    expect(ask(null, ['ann'])).toEqual({ held: [], unknownSites: [], notSynced: true, syncedAt: null });
  });

  it('a profile keeping every site: the renderer holds them all, nothing to ask', () => {
    expect(checkIdentities(null, { usernames: ['ann'], emails: [], cachedSites: [1] }, false)).toMatchObject({ held: [], notSynced: false });
  });
});
