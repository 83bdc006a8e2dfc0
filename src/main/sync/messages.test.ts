/**
 * What a coordinator reads when a list of a sync goes wrong: the list named by
 * the site, group, feature or credential it belongs to, as the sync read them
 * ("the groups of North"), never by a route or an id.
 */
import { describe, expect, it } from 'vitest';
import type { EventName, EventPayloads, SyncFinishedEvent, SyncProgress } from '../../shared/ipc.ts';
import { ApiClient } from '../api/client.ts';
import { json, statusBody, type RecordedRequest } from '../testing/fake-fetch.ts';
import { forgetSecret, registerSecret } from '../secrets/scrub.ts';
import { SyncEngine } from './engine.ts';
import { BASE_URL, fakeApi, tinySite, user, type FakeList } from '../testing/fake-api.ts';

async function sync(
  lists: Record<string, FakeList>,
  override: (req: RecordedRequest) => Response | null,
  maxRetries = 1,
) {
  const api = fakeApi(lists, { override });
  const client = new ApiClient({
    baseUrl: BASE_URL,
    token: 'tok-123456789',
    fetch: api.fetch,
    sleep: async () => undefined,
    maxRetries,
  });
  const notices: string[] = [];
  const box: { engine?: SyncEngine } = {};
  const emit = <E extends EventName>(event: E, payload: EventPayloads[E]) => {
    if (event === 'sync:page') setTimeout(() => box.engine?.ack((payload as { pageId: number }).pageId), 0);
    if (event === 'sync:progress' && (payload as SyncProgress).notice)
      notices.push((payload as SyncProgress).notice!);
  };
  box.engine = new SyncEngine({ syncId: 's1', client, emit, paging: { limit: 4, overlap: 0, maxWave: 2 } });
  const finished = await box.engine.run();
  return { finished, notices };
}

const at = (path: string, answer: () => Response) => (req: RecordedRequest) =>
  req.url.pathname === `/v1${path}` ? answer() : null;
const denied = () => json(401, statusBody(401, 800, 'Resource not owned'));

/** Every error message of a finished sync. */
const messagesOf = (finished: SyncFinishedEvent) =>
  [finished.error?.message, ...Object.values(finished.collections).map((c) => c.error?.message)].filter(
    (m): m is string => !!m,
  );

describe('a failed list, named in words', () => {
  it("names the site of a site's list, and the lists it would have created", async () => {
    const { finished } = await sync(tinySite(), at('/sites/1/access/groups', denied));
    expect(finished.collections.groups?.error?.message).toMatch(/\(while reading the groups of North\)$/);
    expect(finished.collections.groupMembers?.error?.message).toMatch(
      /^Not synced, because the groups of North could not be read: /,
    );
  });

  it('names the group, the feature and the credential of the lists read per group, per feature and per credential', async () => {
    const fail = (req: RecordedRequest) =>
      [
        '/v1/sites/categories/profile/4/groups/40/users',
        '/v1/sites/1/access/modules/3/users',
        '/v1/credentials/7/assignments',
      ].includes(req.url.pathname)
        ? denied()
        : null;
    const { finished } = await sync(tinySite(), fail);
    expect(finished.collections.groupMembers?.error?.message).toContain(
      '(while reading the members of Crew at North)',
    );
    expect(finished.collections.moduleAccess?.error?.message).toContain(
      '(while reading the users given Reports: view at North)',
    );
    expect(finished.collections.credentialAssignments?.error?.message).toContain(
      '(while reading the holders of Cred 7)',
    );
  });

  it('names a record that could not be read by its row, its name and its field, in words, after the list', async () => {
    const lists = tinySite();
    lists['/sites/1/access/groups']!.items[0] = {
      ...lists['/sites/1/access/groups']!.items[0],
      groupid: 'forty',
    };
    const { finished } = await sync(lists, () => null);
    const after = 'Nothing was removed from this laptop; the next sync tries again.';
    expect(finished.collections.groups?.error?.message).toBe(
      `The groups of North could not be read: row 1, the group “Crew”: the id is not a number. ${after}`,
    );
    expect(finished.collections.groupMembers?.error?.message).toBe(
      `Not synced, because the groups of North could not be read: row 1, the group “Crew”: the id is not a number. ${after}`,
    );
    for (const message of messagesOf(finished)) expect(message).not.toMatch(/\/sites|groupid|Invalid input/);
  });

  it('says "a site" when the site was never named (its name came empty)', async () => {
    const lists = tinySite();
    lists['/sites']!.items[0] = { ...lists['/sites']!.items[0], sitename: null };
    const { finished } = await sync(lists, at('/sites/1/courses', denied));
    expect(finished.collections.courses?.error?.message).toMatch(/\(while reading the courses of a site\)$/);
  });

  it('shows no id in any message when every per-site list fails', async () => {
    const { finished } = await sync(tinySite(), (req) =>
      req.url.pathname.startsWith('/v1/sites/') ? denied() : null,
    );
    const messages = messagesOf(finished);
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(m).not.toMatch(/\b(site|group|feature|credential) \d/);
  });
});

describe('while a list is retried', () => {
  it('the notice names the list by its site', async () => {
    let busy = 0;
    const onceBusy = at('/sites/1/courses', () =>
      busy++ < 1 ? json(503, statusBody(503, 1006, 'busy')) : json(200, { courses: [] }),
    );
    const { notices, finished } = await sync(tinySite(), onceBusy, 2);
    expect(notices.find((n) => n.includes('retrying'))).toMatch(
      /^The courses of North: .+; retrying \(2 of 3\)…$/,
    );
    expect(finished.collections.courses?.state).toBe('complete');
  });
});

describe('a page that echoes the token', () => {
  it("is refused with the list's name", async () => {
    const token = 'names-echo-token-0123456789';
    registerSecret(token);
    try {
      const lists = tinySite();
      lists['/sites/1/access/groups/40/users']!.items[0] = user(3, 1, { notes: token });
      const { finished } = await sync(lists, () => null);
      expect(finished.collections.groupAccess?.error?.message).toMatch(
        /^A page of the supervisors of Crew at North \(from row 1\) contains this profile's access token/,
      );
    } finally {
      forgetSecret(token);
    }
  });
});
