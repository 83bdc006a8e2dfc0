import { describe, expect, it } from 'vitest';
import { scanList } from '../api/list-scan.ts';
import { recordKeyOfItemKey, rawItemKeys, scanFields, scannedKey } from './page-keys.ts';
import { itemKey, makeTask } from './tasks.ts';

const users = makeTask('users');
const holders = makeTask('credentialAssignments', { credentialid: 7 });

describe('keys of a page\'s items as received', () => {
  it('reads integer keys as they are, and keys sent as text as the full validation converts them', () => {
    expect(rawItemKeys(users, [{ userid: 3 }, { userid: 4 }])).toEqual([3, 4]);
    expect(rawItemKeys(users, [{ userid: 3 }, { userid: ' 12 ' }])).toEqual([3, 12]);
  });

  it('has none for a page with an item whose key does not fit (the full validation then says which)', () => {
    expect(rawItemKeys(users, [{ userid: 3 }, { userid: 1.5 }])).toBeNull();
    expect(rawItemKeys(users, [{ userid: 3 }, null])).toBeNull();
  });

  it('keys a credential assignment as the pager does, by user or by link', () => {
    const raw = [{ credentialid: 7, userid: 12 }, { credentialid: '7', link: 'https://api.example/v1/credentials/7/assignments/7-13' }];
    const keys = rawItemKeys(holders, raw)!;
    expect(keys).toEqual([itemKey(holders, { credentialid: 7, userid: 12 } as never), '7-https://api.example/v1/credentials/7/assignments/7-13']);
    expect(keys.map((k) => recordKeyOfItemKey(holders, k))).toEqual(['7-12', '7-13']);
    expect(recordKeyOfItemKey(holders, '7-')).toBeNull();
  });

  it('makes the record keys of memberships and feature access from the task\'s scope', () => {
    expect(recordKeyOfItemKey(makeTask('groupMembers', { groupid: 5, categoryid: 1 }), 9)).toBe('5-9');
    expect(recordKeyOfItemKey(makeTask('moduleAccess', { siteid: 2, accessID: 3 }), 9)).toBe('2-3-9');
    expect(recordKeyOfItemKey(users, 9)).toBe(9);
  });

  it('keys an item from the integer fields a scan of its bytes read, as itemKey keys it parsed', () => {
    const scanned = (task: typeof users, items: unknown[]) => {
      const list = scanList(new TextEncoder().encode(JSON.stringify({ list: items })), 'list', scanFields(task))!;
      return items.map((_, i) => scannedKey(task, list.keys, i));
    };
    expect(scanned(users, [{ userid: 3, boss: { userid: 9 } }, { userid: '4' }])).toEqual([3, undefined]);
    const holders7 = [{ credentialid: 7, userid: 12, link: 'x' }, { credentialid: 7, link: 'https://api.example/v1/credentials/7/assignments/7-13' }];
    expect(scanned(holders, holders7)).toEqual([itemKey(holders, holders7[0] as never), undefined]);
    expect(scanned(holders, holders7)[0]).toBe('7-12');
  });
});
