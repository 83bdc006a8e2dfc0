/**
 * A sync through a network that is not talking to the Data API: a redirect, a
 * sign-in page, a proxy that ignores `startrow` or `limit`. The whole sync
 * stops, says what it saw, and the pass is one after which the renderer prunes nothing.
 * A malformed record is named in words: its row in the list, the record, the field, what is wrong.
 */
import { describe, expect, it } from 'vitest';
import type { EventName, EventPayloads, PageFingerprint, SyncPageEvent } from '../../shared/ipc.ts';
import { itemHash, rawItemKeys } from './page-keys.ts';
import { FINGERPRINT_VERSION } from '../../shared/page-fingerprints.ts';
import { makeTask } from './tasks.ts';
import { ApiClient } from '../api/client.ts';
import { json } from '../testing/fake-fetch.ts';
import type { RecordedRequest } from '../testing/fake-fetch.ts';
import { forgetSecret, registerSecret } from '../secrets/scrub.ts';
import { SyncEngine } from './engine.ts';
import { BASE_URL, fakeApi, tinySite, user, type FakeList } from '../testing/fake-api.ts';

/** The fingerprint a written page's last message carries, with its items (none on other messages). */
const written = (p: SyncPageEvent) =>
  p.kind === 'records' && p.fingerprint && p.fingerprint.hash !== null ? p.fingerprint : undefined;

const LIMIT = 4;

async function sync(
  lists: Record<string, FakeList>,
  override?: (req: RecordedRequest) => Response | null,
  fingerprints?: PageFingerprint[],
) {
  const api = fakeApi(lists, override ? { override } : {});
  const client = new ApiClient({
    baseUrl: BASE_URL,
    token: 'tok-123456789',
    fetch: api.fetch,
    sleep: async () => undefined,
    maxRetries: 1,
  });
  const pages: SyncPageEvent[] = [];
  const box: { engine?: SyncEngine } = {};
  const emit = <E extends EventName>(event: E, payload: EventPayloads[E]) => {
    if (event === 'sync:page') {
      const page = payload as SyncPageEvent;
      pages.push(page);
      setTimeout(() => box.engine?.ack(page.pageId), 0);
    }
  };
  box.engine = new SyncEngine({
    syncId: 's1',
    client,
    emit,
    paging: { limit: LIMIT, overlap: 1, maxWave: 2 },
    ...(fingerprints ? { fingerprints } : {}),
  });
  const finished = await box.engine.run();
  // the renderer prunes only after a completed pass in which every collection is complete (renderer/sync/prune.ts)
  const prunable =
    finished.outcome === 'completed' &&
    Object.values(finished.collections).every((c) => c.state === 'complete');
  return { finished, pages, prunable, requests: api.requests };
}

const usersPath = (req: RecordedRequest) => req.url.pathname === '/v1/users';

describe('a sync through something that is not the Data API', () => {
  it('stops as a whole, naming the host, when the API redirects elsewhere, and prunes nothing', async () => {
    const redirect = (req: RecordedRequest) =>
      usersPath(req)
        ? new Response(null, { status: 302, headers: { location: 'https://portal.example.net/login' } })
        : null;
    const { finished, prunable } = await sync(tinySite({ users: 10 }), redirect);
    expect(finished.outcome).toBe('failed');
    expect(finished.error?.code).toBe('not-the-api');
    expect(finished.error?.message).toContain('portal.example.net');
    expect(prunable).toBe(false);
  });

  it('stops as a whole when a sign-in page answers with 200 and HTML, with one clear message', async () => {
    const portal = () =>
      new Response('<!doctype html><title>Sign in to Guest Wi-Fi</title>', {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
    const { finished, prunable, requests } = await sync(tinySite(), portal);
    expect(finished.outcome).toBe('failed');
    expect(finished.error?.message).toContain(
      'a web page answered instead of the API: a network sign-in page or a proxy?',
    );
    expect(prunable).toBe(false);
    expect(requests.length).toBeLessThan(10); // stopped, not one error per collection
  });

  it('stops as a whole when a captive portal answers 511 with its sign-in page, instead of retrying every list', async () => {
    const portal = () =>
      new Response('<!doctype html><title>Network login</title>', {
        status: 511,
        headers: { 'content-type': 'text/html' },
      });
    const { finished, prunable, requests } = await sync(tinySite(), portal);
    expect(finished.outcome).toBe('failed');
    expect(finished.error?.code).toBe('not-the-api');
    expect(prunable).toBe(false);
    expect(requests.length).toBeLessThan(10);
  });

  it('stops when the same page comes back for different start rows (a proxy ignoring startrow)', async () => {
    const lists = tinySite({ users: 10 });
    const firstPage = (req: RecordedRequest) =>
      usersPath(req) ? json(200, { users: lists['/users']!.items.slice(0, LIMIT) }) : null;
    const { finished, prunable } = await sync(lists, firstPage);
    expect(finished.outcome).toBe('failed');
    expect(finished.error?.code).toBe('not-the-api');
    expect(finished.error?.message).toMatch(/same page/);
    expect(prunable).toBe(false);
  });

  it('stops when a page holds more rows than the limit asked for', async () => {
    const lists = tinySite({ users: 10 });
    const everything = (req: RecordedRequest) =>
      usersPath(req) ? json(200, { users: lists['/users']!.items }) : null;
    const { finished, prunable } = await sync(lists, everything);
    expect(finished.outcome).toBe('failed');
    expect(finished.error?.code).toBe('not-the-api');
    // in words: no route, the numbers as numbers are read
    expect(finished.error?.message).toContain(
      `The platform’s answer held 10 rows where at most ${LIMIT} were asked: not how the platform answers, so a proxy or a cache may be in the way`,
    );
    expect(finished.error?.message).not.toMatch(/\/users|limit/);
    expect(prunable).toBe(false);
  });
});

describe('a malformed record', () => {
  it('is reported in words by its row, its name and its field; its page is not stored and nothing is pruned', async () => {
    const lists = tinySite({ users: 10 });
    lists['/users']!.items[5] = user(6, 1, { username: { nested: 'not text' } });
    const { finished, pages, prunable } = await sync(lists);
    const error = finished.collections.users?.error;
    expect(error?.code).toBe('malformed-response');
    expect(error?.message).toBe(
      'The list of users could not be read: row 6, First6 Last6: the username is not text. Nothing was removed from this laptop; the next sync tries again.',
    );
    const stored = pages
      .filter((p) => p.collection === 'users')
      .flatMap((p) => (p.records as { userid: number }[]).map((u) => u.userid));
    expect(stored).not.toContain(6);
    expect(prunable).toBe(false);
  });
});

describe('a record with a text over the length limit, in a page under the size cap', () => {
  it('fails its list, named, in words; its page is not stored and nothing is pruned', async () => {
    const lists = tinySite({ users: 10 });
    lists['/users']!.items[5] = user(6, 1, { lastname: 'x'.repeat(20_000_000) });
    const { finished, pages, prunable } = await sync(lists);
    expect(finished.collections.users).toMatchObject({
      state: 'failed',
      error: { code: 'malformed-response' },
    });
    expect(finished.collections.users?.error?.message).toBe(
      'The list of users could not be read: row 6, First6: the last name is too long (at most 100,000 characters). Nothing was removed from this laptop; the next sync tries again.',
    );
    const stored = pages
      .filter((p) => p.collection === 'users')
      .flatMap((p) => (p.records as { userid: number }[]).map((u) => u.userid));
    expect(stored).not.toContain(6);
    expect(prunable).toBe(false);
  });
});

describe('an answer over the size cap', () => {
  it('fails its own list, named, stores nothing of it, and the pass prunes nothing', async () => {
    const spaces = new Uint8Array(1024 * 1024).fill(0x20);
    let chunks = 0;
    const endless = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull: (c) =>
            void (chunks++ === 0 ? c.enqueue(new TextEncoder().encode('{"users":[')) : c.enqueue(spaces)),
        }),
        {
          status: 200,
          headers: { 'content-type': 'application/json' },
        },
      );
    const { finished, pages, prunable } = await sync(tinySite({ users: 10 }), (req) =>
      usersPath(req) ? endless() : null,
    );
    expect(finished.collections.users).toMatchObject({
      state: 'failed',
      error: { code: 'malformed-response' },
    });
    expect(finished.collections.users?.error?.message).toMatch(
      /larger than 32 MB.*used nothing of it.*\(while reading the list of users\)/,
    );
    expect(pages.filter((p) => p.collection === 'users')).toEqual([]);
    expect(finished.collections.sites?.state).toBe('complete');
    expect(prunable).toBe(false);
  });
});

describe('a record with an id that is not positive', () => {
  for (const userid of [-5, 0]) {
    it(`is refused like any malformed id (userid ${userid}): its page is not stored and nothing is pruned`, async () => {
      const lists = tinySite({ users: 10 });
      lists['/users']!.items[3] = user(userid, 1);
      const { finished, pages, prunable } = await sync(lists);
      const error = finished.collections.users?.error;
      expect(error?.code).toBe('malformed-response');
      expect(error?.message).toContain(
        `could not be read: row 4, First${userid} Last${userid}: the id is not a positive number.`,
      );
      const stored = pages
        .filter((p) => p.collection === 'users')
        .flatMap((p) => (p.records as { userid: number }[]).map((u) => u.userid));
      expect(stored).not.toContain(userid);
      expect(prunable).toBe(false);
    });
  }
});

describe('a page that holds the token', () => {
  it('is refused, not stored, in whatever form the token comes back', async () => {
    const token = 'page-echo-token-0123456789';
    registerSecret(token);
    try {
      const lists = tinySite({ users: 10 });
      lists['/users']!.items[6] = user(7, 1, {
        employeeid: Buffer.from(`token=${token}`).toString('base64'),
      });
      const { finished, pages, prunable } = await sync(lists);
      expect(finished.collections.users).toMatchObject({
        state: 'failed',
        error: { code: 'malformed-response' },
      });
      expect(finished.collections.users?.error?.message).toMatch(/access token/);
      expect(JSON.stringify(pages)).not.toContain(Buffer.from(`token=${token}`).toString('base64'));
      expect(prunable).toBe(false);
    } finally {
      forgetSecret(token);
    }
  });

  it('is refused when a record echoes the token in hex, HTML references, URL-encoded twice, wrapped base64, quoted-printable, %u or full-width', async () => {
    const token = 'form-echo-token+0123456789/';
    const forms = {
      hex: Buffer.from(token).toString('hex'),
      entities: [...token].map((c) => `&#${c.codePointAt(0)};`).join(''),
      'double URL-encoding': encodeURIComponent(encodeURIComponent(token)),
      'MIME base64': Buffer.from(`X-Token: ${token}`)
        .toString('base64')
        .replace(/(.{10})/g, '$1\r\n'),
      'quoted-printable': `${token.slice(0, 9)}=\r\n${token.slice(9).replace('+', '=2B')}`,
      '%u escapes': [...token].map((c) => `%u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
      'full-width': [...token].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join(''),
    };
    registerSecret(token);
    try {
      for (const [form, echo] of Object.entries(forms)) {
        const lists = tinySite({ users: 10 });
        lists['/users']!.items[4] = user(5, 1, { notes: `debug: ${echo}` });
        const { finished, pages, prunable } = await sync(lists);
        expect(finished.collections.users, form).toMatchObject({
          state: 'failed',
          error: { code: 'malformed-response' },
        });
        expect(JSON.stringify(pages), form).not.toContain(JSON.stringify(echo).slice(1, -1));
        expect(prunable, form).toBe(false);
      }
    } finally {
      forgetSecret(token);
    }
  });

  it('is refused when the token sits in the key of an item the renderer says it holds (an assignment known by its link)', async () => {
    const token = 'link-echo-token-0123456789';
    registerSecret(token);
    try {
      const lists = tinySite({ users: 4, assignmentsPerCredential: 2 });
      const fingerprints: PageFingerprint[] = [];
      for (const [path, list] of Object.entries(lists)) {
        const m = /^\/credentials\/(\d+)\/assignments$/.exec(path);
        if (!m) continue;
        // no user id: the item is keyed by its link, which echoes the token
        list.items = list.items.map((a) => ({
          ...(a as Record<string, unknown>),
          userid: undefined,
          link: `${String((a as { link: string }).link)}?t=${token}`,
        }));
        const task = makeTask('credentialAssignments', { credentialid: Number(m[1]) });
        const raw = JSON.parse(JSON.stringify(list.items)) as unknown[];
        // a page whose body hash is another's, every item of which the renderer claims to hold as received
        fingerprints.push({
          taskId: task.taskId,
          startrow: 1,
          hash: 'not-this-body',
          keys: rawItemKeys(task, raw)!,
          hashes: raw.map((item) => itemHash(JSON.stringify(item))).join(''),
          version: FINGERPRINT_VERSION,
        });
      }
      const { finished, pages } = await sync(lists, undefined, fingerprints);
      expect(finished.collections.credentialAssignments).toMatchObject({
        state: 'failed',
        error: { code: 'malformed-response' },
      });
      expect(finished.collections.credentialAssignments?.error?.message).toMatch(
        /^A page of the holders of Cred \d+ \(from row 1\) contains this profile's access token/,
      );
      expect(JSON.stringify(pages)).not.toContain(token);
    } finally {
      forgetSecret(token);
    }
  });

  // JSON.stringify writes a newline as the two characters \n, which a check of the page's JSON text did not read as a
  // separator
  for (const [name, separator] of [
    ['newline', '\n'],
    ['carriage return', '\r'],
    ['tab', '\t'],
    ['CR LF', '\r\n'],
  ] as const) {
    it(`is refused when a record holds the token split by a ${name}`, async () => {
      const token = 'split-echo-token-0123456789';
      registerSecret(token);
      try {
        const lists = tinySite({ users: 10 });
        const split = `${token.slice(0, 9)}${separator}${token.slice(9)}`;
        lists['/users']!.items[2] = user(3, 1, { notes: `echo: ${split}` });
        const { finished, pages, prunable } = await sync(lists);
        expect(finished.collections.users).toMatchObject({
          state: 'failed',
          error: { code: 'malformed-response' },
        });
        expect(JSON.stringify(pages)).not.toContain(JSON.stringify(split).slice(1, -1));
        expect(prunable).toBe(false);
      } finally {
        forgetSecret(token);
      }
    });
  }

  it('is refused when the token split by a newline is a record’s key', async () => {
    const token = 'split-key-token-0123456789';
    registerSecret(token);
    try {
      const lists = tinySite({ users: 10 });
      lists['/users']!.items[4] = user(5, 1, { [`${token.slice(0, 5)}\n${token.slice(5)}`]: 'x' });
      const { finished, prunable } = await sync(lists);
      expect(finished.collections.users).toMatchObject({
        state: 'failed',
        error: { code: 'malformed-response' },
      });
      expect(prunable).toBe(false);
    } finally {
      forgetSecret(token);
    }
  });
});

describe('a page read from its bytes (items found by a scan, only changed ones parsed)', () => {
  /** /users answered with this text for every page (a one-page list) */
  const usersText = (text: string) => (req: RecordedRequest) =>
    usersPath(req)
      ? new Response(text, { status: 200, headers: { 'content-type': 'application/json' } })
      : null;
  const userKeys = (pages: SyncPageEvent[]) =>
    new Set(
      pages
        .filter((p) => p.collection === 'users')
        .flatMap((p) => [
          ...(p.unchangedKeys ?? []),
          ...(p.records as { userid: number }[]).map((r) => r.userid),
        ]),
    );
  /**
   * what the renderer keeps of a pass's pages (page-fingerprints), with another body hash so that the next pass
   * compares items
   */
  const heldAfter = (pages: SyncPageEvent[]): PageFingerprint[] =>
    pages.flatMap((p) => {
      const fp = written(p);
      return fp
        ? [
            {
              taskId: p.taskId,
              startrow: fp.startrow,
              hash: 'another-body',
              keys: fp.keys,
              hashes: fp.hashes,
              version: FINGERPRINT_VERSION,
            },
          ]
        : [];
    });

  it('keys an item as JSON.parse reads it, also when a key is named twice or spelled with an escape', async () => {
    const lists = tinySite({ users: 2 });
    const items = [
      JSON.stringify(user(1)),
      JSON.stringify(user(40)).replace('{"userid":40,', '{"userid":40,"userid":4,'),
      `${JSON.stringify(user(3)).slice(0, -1)},"user\\u0069d":30}`,
    ];
    // JSON.parse keeps the last of a key named twice: 4, and 30 (named with an escape, which a scan of the bytes does
    // not see)
    const text = `{"users":[${items.join(',')}]}`;
    expect((JSON.parse(text) as { users: { userid: number }[] }).users.map((u) => u.userid)).toEqual([
      1, 4, 30,
    ]);
    const first = await sync(lists, usersText(text));
    expect(userKeys(first.pages)).toEqual(new Set([1, 4, 30]));
    const again = await sync(lists, usersText(text), heldAfter(first.pages));
    expect(userKeys(again.pages)).toEqual(new Set([1, 4, 30]));
    // every item is one the cache holds as received: none travels as a record
    expect(again.pages.filter((p) => p.collection === 'users').flatMap((p): unknown[] => p.records)).toEqual(
      [],
    );
    expect(again.prunable).toBe(true);
  });

  it('stops the list, in words, when an item the scan found does not parse, and uses nothing of it', async () => {
    const lists = tinySite({ users: 2 });
    const good = JSON.stringify(user(1));
    const unquoted = JSON.stringify(user(2)).replace('"status":"Active"', '"status":Active');
    const text = `{"users":[${good},${unquoted}]}`;
    const { finished, pages, prunable } = await sync(lists, usersText(text));
    expect(finished.collections.users).toMatchObject({
      state: 'failed',
      error: { code: 'malformed-response' },
    });
    expect(finished.collections.users?.error?.message).toBe(
      'The list of users could not be read: the platform’s answer was not in its data format (it may have been cut off on the way). Nothing was removed from this laptop; the next sync tries again.',
    );
    expect(pages.filter((p) => p.collection === 'users').flatMap((p): unknown[] => p.records)).toEqual([]);
    expect(prunable).toBe(false);
  });

  describe('one item comparison, whether the page is read from its bytes or parsed whole (a body the scan gives up on)', () => {
    const compact = (items: unknown[]) => `{"users":${JSON.stringify(items)}}`;
    // the list named twice: JSON.parse keeps the second, the scan gives up and the page is parsed whole
    const namedTwice = (items: unknown[]) => `{"users":[],"users":${JSON.stringify(items)}}`;
    /**
     * two passes of /users: `before`, then `after` (each in the body's form), the second with the first's fingerprints
     */
    async function resync(form: (items: unknown[]) => string, before: unknown[], after: unknown[]) {
      const lists = tinySite({ users: 2 });
      const first = await sync(lists, usersText(form(before)));
      const again = await sync(lists, usersText(form(after)), heldAfter(first.pages));
      const users = again.pages.filter((p) => p.collection === 'users');
      return {
        sent: users.flatMap((p) => p.records as { userid: number; firstname: string }[]),
        hashes: users.map((p) => written(p)?.hashes).join(''),
      };
    }
    const before = [user(1), user(2), user(3)];
    // a change of the same length, far past the item's first 24 characters, to a key the cache already holds
    const after = [user(1), { ...user(2), firstname: 'Frist2' }, user(3)];

    it.each([
      ['read from its bytes', compact],
      ['parsed whole', namedTwice],
    ])('sends a changed item of a known key when the page is %s', async (_, form) => {
      const { sent } = await resync(form, before, after);
      expect(sent.map((u) => [u.userid, u.firstname])).toEqual([[2, 'Frist2']]);
    });

    it('hashes every item the same on both paths, so they agree on which are held', async () => {
      const bytes = await resync(compact, before, after);
      const parsed = await resync(namedTwice, before, after);
      expect(parsed.hashes).toBe(bytes.hashes);
      expect(parsed.sent).toEqual(bytes.sent);
      // and the hashes are the one function's, of each item's text as received
      expect(bytes.hashes).toBe(after.map((u) => itemHash(JSON.stringify(u))).join(''));
    });
  });

  it('reads a body the scan does not (the list named twice) as JSON.parse does', async () => {
    const lists = tinySite({ users: 2 });
    const [first, second, third] = [user(7), user(1), user(2)].map((u) => JSON.stringify(u));
    const text = `{"users":[${first}],"users":[${second},${third}]}`;
    const { finished, pages } = await sync(lists, usersText(text));
    expect(finished.outcome).toBe('completed');
    expect(userKeys(pages)).toEqual(new Set([1, 2]));
  });
});
