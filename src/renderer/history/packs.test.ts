/** A sync's people's rows packed by bucket of people and deflated (history/packs.ts), and read back. */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { freshDb } from '../testing/fixtures.ts';
import type { FieldbookDb } from '../db/index.ts';
import {
  appendRows,
  EVERY_BUCKET,
  ONE_PACK_BELOW,
  OPEN_PACK_ROWS,
  PACK_BUCKETS,
  packRows,
  readPeopleRows,
  unpackAll,
} from './packs.ts';
import type { HistoryPersonRow } from './rows.ts';

/** Rows of people in several buckets, in the order a snapshot writes them (by person, the gone last). */
const rowsOf = (seq: number): Omit<HistoryPersonRow, 'id' | 'seq'>[] => [
  { userid: 3, u: [1, 'ann', 'Ann', 'Lee', 'E3', 'Active', 'User'], g: [8], a: ['Sk5'] },
  { userid: 3 + PACK_BUCKETS, c: [['5-19', 5, '', `2027-0${seq}-01`]], r: ['Ek5'] },
  { userid: 4, t: [[70, 7, '', 'active', '2027-01-01']], tx: [71] },
  { userid: 2, gone: 'platform', r: ['Dc7'] },
];

let db: FieldbookDb | null = null;
afterEach(() => db?.close());

describe("the people's rows, packed", () => {
  it('read back as written, by sync then person, numbered in that order', () => {
    const packs = [...packRows(rowsOf(2), 2), ...packRows(rowsOf(1), 1)];
    const expected = [1, 2].flatMap((seq) =>
      rowsOf(seq)
        .map((row) => ({ seq, ...row }))
        .sort((a, b) => a.userid - b.userid),
    );
    expect(unpackAll(packs)).toEqual(expected.map((row, i) => ({ ...row, id: i + 1 })));
  });

  it('take one pack a bucket of people that has rows, smaller than the rows as text', () => {
    const rows = Array.from({ length: ONE_PACK_BELOW }, (_, i) => ({
      userid: i,
      a: ['Sk5', 'Dc7'],
      r: ['Oc9'],
    }));
    const packs = packRows(rows, 1);
    expect(packs.map((p) => p.bucket)).toEqual(Array.from({ length: PACK_BUCKETS }, (_, i) => i));
    const stored = packs.reduce((n, p) => n + p.rows.byteLength, 0);
    expect(stored).toBeLessThan(JSON.stringify(rows).length / 3);
  });

  it('take one pack for a sync of few rows, whoever they are', () => {
    expect(packRows(rowsOf(1), 1).map((p) => p.bucket)).toEqual([EVERY_BUCKET]);
  });

  it("give a person's rows and the rows up to a sync, from the database", async () => {
    db = freshDb();
    for (const seq of [1, 2, 3]) await db.historyPacks.bulkAdd(packRows(rowsOf(seq), seq));
    // a busy sync, packed by bucket: person 19 among many
    const busy = Array.from({ length: ONE_PACK_BELOW }, (_, i) => ({ userid: 100 + i, a: ['Sk5'] }));
    await db.historyPacks.bulkAdd(packRows([...busy, { userid: 19, tx: [70] }], 4));
    const mine = await readPeopleRows(db, { userid: 3 + PACK_BUCKETS });
    expect(mine.map((r) => [r.seq, r.userid, r.c?.[0]?.[3] ?? r.tx])).toEqual([
      [1, 19, '2027-01-01'],
      [2, 19, '2027-02-01'],
      [3, 19, '2027-03-01'],
      [4, 19, [70]],
    ]);
    expect((await readPeopleRows(db, { upTo: 2 })).map((r) => r.seq)).toEqual([1, 1, 1, 1, 2, 2, 2, 2]);
    expect(await readPeopleRows(db)).toHaveLength(12 + ONE_PACK_BELOW + 1);
  });
});

describe("a small site's days, packed together", () => {
  /** A small site's day: a renewal, a course assigned, a finding gone. */
  const dayRows = (seq: number): Omit<HistoryPersonRow, 'id' | 'seq'>[] => [
    { userid: seq, c: [[`5-${seq}`, 5, '2026-03-01', `2027-03-${10 + (seq % 18)}`]], r: ['Ek5'] },
    { userid: seq + 1, t: [[seq * 10, 7, '', 'active', '2026-06-01']], a: ['Dc7'] },
  ];
  const storedBytes = async () =>
    (await db!.historyPacks.toArray()).reduce((n, p) => n + p.rows.byteLength, 0);

  it('go into one open pack, each row read back with its own sync, up to a sync', async () => {
    db = freshDb();
    for (const seq of [1, 2, 3]) await appendRows(db, dayRows(seq), seq);
    expect(await db.historyPacks.count()).toBe(1);
    expect((await readPeopleRows(db)).map((r) => [r.seq, r.userid])).toEqual([
      [1, 1],
      [1, 2],
      [2, 2],
      [2, 3],
      [3, 3],
      [3, 4],
    ]);
    expect((await readPeopleRows(db, { upTo: 2 })).map((r) => r.seq)).toEqual([1, 1, 2, 2]);
    expect((await readPeopleRows(db, { userid: 3, upTo: 2 })).map((r) => [r.seq, r.c?.[0]?.[0]])).toEqual([
      [2, undefined],
    ]);
  });

  it('take a third of the room a pack a day takes over a month', async () => {
    db = freshDb();
    for (let seq = 1; seq <= 30; seq++) await appendRows(db, dayRows(seq), seq);
    const apart = Array.from({ length: 30 }, (_, i) => packRows(dayRows(i + 1), i + 1)[0]!.rows.byteLength);
    expect(await storedBytes()).toBeLessThan(apart.reduce((n, b) => n + b, 0) / 3);
  });

  it('start another pack once the open one is full', async () => {
    db = freshDb();
    const many = Array.from({ length: OPEN_PACK_ROWS - 1 }, (_, i) => ({ userid: 100 + i, a: ['Sk5'] }));
    await appendRows(db, many, 1);
    await appendRows(db, dayRows(2), 2);
    expect((await db.historyPacks.toArray()).map((p) => p.seq)).toEqual([1, 2]);
    expect(await readPeopleRows(db)).toHaveLength(OPEN_PACK_ROWS - 1 + 2);
  });

  it("leave the open pack as it was when the day's transaction fails", async () => {
    db = freshDb();
    await appendRows(db, dayRows(1), 1);
    const day = db.transaction('rw', db.historyPacks, async () => {
      await appendRows(db!, dayRows(2), 2);
      throw new Error('the window closed');
    });
    await expect(day).rejects.toThrow('the window closed');
    expect((await readPeopleRows(db)).map((r) => r.seq)).toEqual([1, 1]);
  });
});
