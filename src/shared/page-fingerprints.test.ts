import { describe, expect, it } from 'vitest';
import { MAX_IPC_MESSAGE_BYTES, requestSchemas, type PageFingerprint } from './ipc.ts';
import {
  FINGERPRINT_VERSION,
  FingerprintBook,
  fingerprintMessages,
  fingerprintText,
  ITEM_HASH_CHARS,
  itemHashAt,
  readFingerprint,
  taskItems,
} from './page-fingerprints.ts';

const h = (c: string) => c.repeat(ITEM_HASH_CHARS);
const print = (
  taskId: string,
  startrow: number,
  keys: number[],
  hashes: string[],
  hash: string | null = 'page',
): PageFingerprint => ({
  taskId,
  startrow,
  hash,
  keys,
  hashes: hashes.join(''),
  version: FINGERPRINT_VERSION,
});

describe('page fingerprints', () => {
  it("reads each item's hash at its place", () => {
    expect(itemHashAt(print('t', 1, [1, 2], [h('a'), h('b')]), 1)).toBe(h('b'));
  });

  it('uses no fingerprint of a task with a page whose hashes do not fit its keys (a task known in part could hide a doubtful item)', () => {
    const book = new FingerprintBook();
    book.add([print('t', 1, [1, 2], [h('a')]), print('t', 6, [3], [h('c')]), print('u', 1, [9], [h('d')])]);
    expect(book.page('t', 6)).toBeUndefined();
    expect(book.pagesOf('t')).toEqual([]);
    expect(book.page('u', 1)?.keys).toEqual([9]);
  });

  it('reads fingerprints sent as stored (keys as JSON text), and refuses the task of one that does not read', () => {
    expect(readFingerprint(fingerprintText(print('t', 1, [1, 2], [h('a'), h('b')])))).toEqual(
      print('t', 1, [1, 2], [h('a'), h('b')]),
    );
    const bad = [
      '[1,',
      '{"0":1}',
      '[1,true]',
      '[null]',
      `["${'k'.repeat(2001)}"]`,
      JSON.stringify(Array.from({ length: 1001 }, (_, i) => i)),
    ];
    for (const keys of bad)
      expect(
        readFingerprint({
          taskId: 't',
          startrow: 1,
          hash: 'p',
          keys,
          hashes: h('a'),
          version: FINGERPRINT_VERSION,
        }),
        keys.slice(0, 20),
      ).toBeNull();
    const book = new FingerprintBook();
    book.add([
      fingerprintText(print('t', 1, [1], [h('a')])),
      { taskId: 't', startrow: 2, hash: 'p', keys: '[2,', hashes: h('b'), version: FINGERPRINT_VERSION },
      fingerprintText(print('u', 1, [3], [h('c')])),
    ]);
    // the later page of a refused task is not used either
    book.add([fingerprintText(print('t', 3, [4], [h('d')]))]);
    expect([book.page('t', 1), book.page('t', 3), book.pagesOf('t').length]).toEqual([
      undefined,
      undefined,
      0,
    ]);
    expect(book.page('u', 1)?.keys).toEqual([3]);
  });

  it("takes a fingerprint made by another version of the code as absent, and the task's other pages as they are", () => {
    const book = new FingerprintBook();
    book.add([
      fingerprintText({ ...print('t', 1, [1], [h('a')]), version: FINGERPRINT_VERSION - 1 }),
      { ...print('t', 6, [2], [h('b')]), version: FINGERPRINT_VERSION + 1 },
      print('t', 11, [3], [h('c')]),
    ]);
    expect([book.page('t', 1), book.page('t', 6)]).toEqual([undefined, undefined]);
    expect(book.pagesOf('t').map((f) => f.startrow)).toEqual([11]);
    expect(taskItems(book.pagesOf('t')).hashes).toEqual(new Map([[3, h('c')]]));
  });

  it("knows a task's items across its pages, overlap included", () => {
    const items = taskItems([
      print('t', 1, [1, 2, 3], [h('a'), h('b'), h('c')]),
      print('t', 3, [3, 4], [h('c'), h('d')]),
    ]);
    expect([...items.hashes.entries()]).toEqual([
      [1, h('a')],
      [2, h('b')],
      [3, h('c')],
      [4, h('d')],
    ]);
    expect(items.doubtful.size).toBe(0);
  });

  it('doubts an item two pages remember differently, and the pages holding it', () => {
    const items = taskItems([
      print('t', 1, [1, 2], [h('a'), h('b')]),
      print('t', 3, [2, 3], [h('x'), h('c')]),
      print('t', 5, [4], [h('d')]),
    ]);
    expect(items.hashes.has(2)).toBe(false);
    expect(items.hashes.get(3)).toBe(h('c'));
    expect([...items.doubtful]).toEqual(['t@1', 't@3']);
  });

  it('sends whole pages per message, each message within its item budget', () => {
    const list = [
      print('a', 1, [1, 2], [h('a'), h('a')]),
      print('b', 1, [1], [h('b')]),
      print('a', 3, [3], [h('a')]),
      print('c', 1, [1, 2, 3], [h('c'), h('c'), h('c')]),
    ].map(fingerprintText);
    const messages = fingerprintMessages(list, 3);
    expect(messages.map((m) => m.map((f) => `${f.taskId}@${f.startrow}`))).toEqual([
      ['a@1', 'b@1'],
      ['a@3'],
      ['c@1'],
    ]);
    expect(messages.flat()).toEqual(list);
  });

  it('fits a cache of a quarter of a million items of one list into messages the IPC contract takes', () => {
    const keys = Array.from({ length: 1000 }, (_, i) => 1_000_000 + i);
    const list = Array.from({ length: 250 }, (_, p) =>
      fingerprintText(
        print(
          'trainingAssignments:/sites/1/trainingassignments',
          p * 995 + 1,
          keys,
          keys.map(() => h('q')),
        ),
      ),
    );
    const messages = fingerprintMessages(list);
    expect(messages.length).toBeGreaterThan(1);
    for (const fingerprints of messages) {
      const arg = { syncId: 's', fingerprints };
      expect(requestSchemas['sync:fingerprints'].safeParse(arg).success).toBe(true);
      // the whole message as the harness's socket carries it, within the limit every IPC message keeps
      expect(JSON.stringify({ id: 1, channel: 'sync:fingerprints', arg }).length).toBeLessThanOrEqual(
        MAX_IPC_MESSAGE_BYTES,
      );
    }
    expect(messages.flat()).toHaveLength(250);
  });

  it('leaves out whole a task with a page too large for one message', () => {
    const long = (i: number) => `7-https://api.example/v1/credentials/7/assignments/${'x'.repeat(1500)}${i}`;
    const list = [
      print('big', 1, [1, 2], [h('a'), h('b')]),
      {
        ...print('big', 996, [], []),
        keys: Array.from({ length: 700 }, (_, i) => long(i)),
        hashes: h('c').repeat(700),
      },
      print('small', 1, [1], [h('d')]),
    ].map(fingerprintText);
    const messages = fingerprintMessages(list);
    expect(messages.flat().map((f) => `${f.taskId}@${f.startrow}`)).toEqual(['small@1']);
  });
});
