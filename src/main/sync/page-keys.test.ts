import { describe, expect, it } from 'vitest';
import { scanList } from '../api/list-scan.ts';
import {
  heldAsReceived,
  itemHash,
  recordKeyOfItemKey,
  rawItemKeys,
  scanFields,
  scannedKey,
} from './page-keys.ts';
import { ITEM_HASH_CHARS, taskItems } from '../../shared/page-fingerprints.ts';
import { itemKey, makeTask } from './tasks.ts';

const users = makeTask('users');
const holders = makeTask('credentialAssignments', { credentialid: 7 });

describe("an item's hash", () => {
  it('holds at least 128 bits (nobody can search for an edit hashing as the cached item), in base64url', () => {
    expect(ITEM_HASH_CHARS * 6).toBeGreaterThanOrEqual(128);
    expect(itemHash('{"userid":1}')).toMatch(new RegExp(`^[A-Za-z0-9_-]{${ITEM_HASH_CHARS}}$`));
    // every character carries digest bits (none is padding): over many items each place takes many values
    const hashes = Array.from({ length: 256 }, (_, i) => itemHash(`{"userid":${i}}`));
    for (let at = 0; at < ITEM_HASH_CHARS; at++)
      expect(new Set(hashes.map((h) => h[at])).size, `character ${at}`).toBeGreaterThan(32);
  });

  it("is the same of an item's bytes and of its text, and differs for a change anywhere in it", () => {
    const text = `{"userid":1,"firstname":"${'x'.repeat(200)}"}`;
    expect(itemHash(new TextEncoder().encode(text))).toBe(itemHash(text));
    expect(itemHash(text.replace(/x"}$/, 'y"}'))).not.toBe(itemHash(text));
  });

  it("is held only when it is the hash the cache's copy of that key was made from, not because the key is known", () => {
    const held = taskItems([
      { taskId: 't', startrow: 1, hash: 'p', keys: [1], hashes: itemHash('a'), version: 0 },
    ]);
    expect(heldAsReceived(held, 1, itemHash('a'))).toBe(true);
    expect(heldAsReceived(held, 1, itemHash('b'))).toBe(false);
    expect(heldAsReceived(held, 2, itemHash('a'))).toBe(false);
  });
});

describe("keys of a page's items as received", () => {
  it('reads integer keys as they are, and keys sent as text as the full validation converts them', () => {
    expect(rawItemKeys(users, [{ userid: 3 }, { userid: 4 }])).toEqual([3, 4]);
    expect(rawItemKeys(users, [{ userid: 3 }, { userid: ' 12 ' }])).toEqual([3, 12]);
  });

  it('has none for a page with an item whose key does not fit (the full validation then says which)', () => {
    expect(rawItemKeys(users, [{ userid: 3 }, { userid: 1.5 }])).toBeNull();
    expect(rawItemKeys(users, [{ userid: 3 }, null])).toBeNull();
  });

  it('keys a credential assignment as the pager does, by user or by link', () => {
    const raw = [
      { credentialid: 7, userid: 12 },
      { credentialid: '7', link: 'https://api.example/v1/credentials/7/assignments/7-13' },
    ];
    const keys = rawItemKeys(holders, raw)!;
    expect(keys).toEqual([
      itemKey(holders, { credentialid: 7, userid: 12 } as never),
      '7-https://api.example/v1/credentials/7/assignments/7-13',
    ]);
    expect(keys.map((k) => recordKeyOfItemKey(holders, k))).toEqual(['7-12', '7-13']);
    expect(recordKeyOfItemKey(holders, '7-')).toBeNull();
  });

  it("makes the record keys of memberships and feature access from the task's scope", () => {
    expect(recordKeyOfItemKey(makeTask('groupMembers', { groupid: 5, categoryid: 1 }), 9)).toBe('5-9');
    expect(recordKeyOfItemKey(makeTask('moduleAccess', { siteid: 2, accessID: 3 }), 9)).toBe('2-3-9');
    expect(recordKeyOfItemKey(users, 9)).toBe(9);
  });

  it('keys an item from the integer fields a scan of its bytes read, as itemKey keys it parsed', () => {
    const scanned = (task: typeof users, items: unknown[]) => {
      const list = scanList(
        new TextEncoder().encode(JSON.stringify({ list: items })),
        'list',
        scanFields(task),
      )!;
      return items.map((_, i) => scannedKey(task, list.keys, i));
    };
    expect(scanned(users, [{ userid: 3, boss: { userid: 9 } }, { userid: '4' }])).toEqual([3, undefined]);
    const holders7 = [
      { credentialid: 7, userid: 12, link: 'x' },
      { credentialid: 7, link: 'https://api.example/v1/credentials/7/assignments/7-13' },
    ];
    expect(scanned(holders, holders7)).toEqual([itemKey(holders, holders7[0] as never), undefined]);
    expect(scanned(holders, holders7)[0]).toBe('7-12');
  });
});
