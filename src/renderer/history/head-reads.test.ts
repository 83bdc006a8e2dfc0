/** The heads of some people read by ranges of userids (history/head-reads.ts). */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FieldbookDb } from '../db/index.ts';
import { freshDb } from '../testing/fixtures.ts';
import { headRanges, readHeads } from './head-reads.ts';

describe('the ranges that read some heads', () => {
  it('join two people asked for when at most the gap of heads lies between them', () => {
    const all = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89];
    // 1 and 3: one head between; 3 and 21: three between (5, 8, 13); 21 and 89: two between (34, 55)
    expect(headRanges([1, 3, 21, 89], all, 2)).toEqual([
      [1, 3],
      [21, 89],
    ]);
    expect(headRanges([1, 3, 21, 89], all, 3)).toEqual([[1, 89]]);
    expect(headRanges([1, 2, 3], all, 0)).toEqual([[1, 3]]);
    expect(headRanges([1, 3], all, 0)).toEqual([
      [1, 1],
      [3, 3],
    ]);
  });

  it('read a person without a head alone, and join no range across them', () => {
    expect(headRanges([2, 4, 5], [1, 2, 3, 5], 3)).toEqual([
      [2, 2],
      [4, 4],
      [5, 5],
    ]);
    expect(headRanges([7], [], 3)).toEqual([[7, 7]]);
    expect(headRanges([], [1, 2], 3)).toEqual([]);
  });
});

let db: FieldbookDb | null = null;
afterEach(() => {
  db?.close();
  vi.restoreAllMocks();
});

describe('the heads read by ranges', () => {
  it('are the heads asked for, in the order asked, none of those between, undefined for a person without', async () => {
    db = freshDb();
    const fact = (userid: number) => Uint8Array.of(userid % 256);
    await db.historyHeads.bulkPut([10, 11, 12, 13, 14, 40].map((userid) => ({ userid, fact: fact(userid) })));
    const all = [10, 11, 12, 13, 14, 40];
    const heads = await readHeads(db, [14, 10, 99, 12, 40, 10], all);
    expect(heads.map((h) => h?.userid)).toEqual([14, 10, undefined, 12, 40, 10]);
    expect(heads.map((h) => (h ? [...h.fact] : null))).toEqual([[14], [10], null, [12], [40], [10]]);
  });

  it('find a head the list of userids does not name', async () => {
    db = freshDb();
    await db.historyHeads.bulkPut([{ userid: 5, fact: Uint8Array.of(5) }]);
    expect((await readHeads(db, [5], [1, 2, 3])).map((h) => h?.userid)).toEqual([5]);
  });
});
