/**
 * The people written since the last snapshot, kept on disk (history/touched.ts), stay bounded when syncs never
 * complete: past WRITTEN_KEPT rows they give way to one that makes the next snapshot read everyone.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { FieldbookDb } from '../db/index.ts';
import { freshDb, user } from '../testing/fixtures.ts';
import { WRITTEN_KEPT } from './touched.ts';

let db: FieldbookDb | null = null;
afterEach(() => db?.close());

const people = (from: number, n: number) => Array.from({ length: n }, (_, i) => user(from + i));

describe('the people written, kept on disk between snapshots', () => {
  it('keep a row a person written while they are few', async () => {
    db = freshDb();
    await db.users.bulkPut(people(1, 3));
    expect((await db.historyWritten.toArray()).map((r) => r.userid)).toEqual([1, 2, 3]);
  });

  it('give way to one row without a person once past the bound (the next snapshot reads everyone)', async () => {
    db = freshDb();
    await db.users.bulkPut(people(1, WRITTEN_KEPT - 10));
    await db.users.bulkPut(people(WRITTEN_KEPT, 20));
    const rows = await db.historyWritten.toArray();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.userid).toBeUndefined();
    expect(await db.users.count()).toBe(WRITTEN_KEPT + 10);
  }, 120_000);
});
