/** The heads kept in pages (history/head-pages.ts, database version 15). */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { openFieldbookDb, type FieldbookDb } from '../db/index.ts';
import { SCHEMA_V10, SCHEMA_V14, SCHEMA_V9 } from '../db/schema.ts';
import { SCHEMA_OF_VERSION_8 } from '../testing/fixtures.ts';
import { addDaysIso } from '../../shared/dates.ts';
import { headFact, packFact } from './heads.ts';
import {
  allHeads,
  changedPages,
  dueHeads,
  HEAD_PAGES,
  headOf,
  keptHeadsOf,
  readHeads,
  type KeptHeads,
} from './head-pages.ts';
import type { HistoryHeadRow, PersonFact } from './rows.ts';

/** A small deterministic random source (the same heads on every run). */
function randomOf(seed: number) {
  let s = seed * 7919 + 17;
  return (n: number) => {
    s = (s * 48271) % 2147483647;
    return s % n;
  };
}

function headOfPerson(userid: number, round: number, int: (n: number) => number): HistoryHeadRow {
  const fact: PersonFact = {
    u: [1 + int(3), `person ${userid}.${round}`, 'Ann', 'Lée', '', 'Active', 'User'],
    g: Array.from({ length: int(3) }, () => 4000 + int(50)),
    c: [[`5-${userid}`, 5, '', addDaysIso('2026-01-01', int(700))]],
    t: [],
  };
  const findings = ['Ek5', 'Sk5', 'Oc7', 'Dc70011'].filter(() => int(2) === 0);
  const next = int(3) === 0 ? undefined : addDaysIso('2026-03-01', int(60));
  return { userid, fact: packFact(fact), findings, ...(next ? { next } : {}) };
}

/** The pages after some heads put and some people gone, read back as a snapshot reads them. */
function afterWrite(kept: KeptHeads, put: HistoryHeadRow[], gone: number[]): KeptHeads {
  const written = new Map(kept.pages);
  for (const [page, bytes] of changedPages(kept, put, gone))
    if (bytes.length > 0) written.set(page, bytes);
    else written.delete(page);
  return keptHeadsOf([...written].map(([page, heads]) => ({ page, heads })));
}

const asRead = (h: HistoryHeadRow) => ({ ...h, fact: headFact(h) });

describe('the heads kept in pages', () => {
  it.each([1, 2, 3])(
    'read back every head put and none gone, over days of changes (random heads %i)',
    (seed) => {
      const int = randomOf(seed);
      const model = new Map<number, HistoryHeadRow>();
      let kept = keptHeadsOf([]);
      for (let round = 0; round < 6; round += 1) {
        const put = Array.from({ length: 40 }, () => headOfPerson(1 + int(400), round, int));
        const unique = [...new Map(put.map((h) => [h.userid, h])).values()];
        const gone = [...model.keys()].filter((u) => !unique.some((h) => h.userid === u) && int(8) === 0);
        kept = afterWrite(kept, unique, gone);
        for (const h of unique) model.set(h.userid, h);
        for (const u of gone) model.delete(u);
        const expected = [...model.values()].sort((a, b) => a.userid - b.userid).map(asRead);
        expect(allHeads(kept).map(asRead)).toEqual(expected);
        expect(
          dueHeads(kept, '2026-03-20')
            .map((h) => h.userid)
            .sort((a, b) => a - b),
        ).toEqual(
          expected.filter((h) => h.next !== undefined && h.next <= '2026-03-20').map((h) => h.userid),
        );
      }
    },
  );

  it('keep a page with no change out of what is written, and the bytes of an unchanged head as they were', () => {
    const int = randomOf(9);
    const heads = Array.from({ length: 3 * HEAD_PAGES }, (_, i) => headOfPerson(i + 1, 0, int));
    const kept = afterWrite(keptHeadsOf([]), heads, []);
    const changed = changedPages(kept, [headOfPerson(1, 1, int)], [2]);
    expect([...changed.keys()].sort((a, b) => a - b)).toEqual([1, 2]);
    const after = afterWrite(kept, [headOfPerson(1, 1, int)], [2]);
    const untouched = 1 + HEAD_PAGES;
    expect(headOf(after, untouched)!.fact).toEqual(headOf(kept, untouched)!.fact);
    expect(headOf(after, 2)).toBeUndefined();
  });

  it('refuse a next day that would not read back the same', () => {
    const head = { ...headOfPerson(1, 0, randomOf(1)), next: '2026-02-30' };
    expect(() => changedPages(keptHeadsOf([]), [head], [])).toThrow('cannot keep');
  });
});

let db: FieldbookDb | null = null;
afterEach(() => db?.close());

describe('a history whose heads were one record each (database versions 9 to 14)', () => {
  async function writtenByVersion14(heads: readonly HistoryHeadRow[]): Promise<string> {
    const name = `v14-${Math.random().toString(36).slice(2)}`;
    const v14 = new Dexie(name);
    v14.version(14).stores({ ...SCHEMA_OF_VERSION_8, ...SCHEMA_V9, ...SCHEMA_V10, ...SCHEMA_V14 });
    await v14.open();
    await v14.table('historyHeads').bulkPut([...heads]);
    v14.close();
    return name;
  }

  it("keeps every person's fact, findings and next day after the upgrade", async () => {
    const int = randomOf(4);
    const heads = Array.from({ length: 300 }, (_, i) => headOfPerson(i * 37 + 1, 0, int));
    db = openFieldbookDb(await writtenByVersion14(heads));
    expect(allHeads(await readHeads(db)).map(asRead)).toEqual(heads.map(asRead));
    expect(await db.historyHeadPages.count()).toBeLessThanOrEqual(HEAD_PAGES);
  });
});
