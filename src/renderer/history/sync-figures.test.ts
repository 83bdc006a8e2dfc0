/**
 * A sync's figures kept as tuples of numbers (database version 11, history/sync-figures.ts): read back as the report
 * counted them, and a history written before version 11 reads the same figures after the upgrade.
 */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { openFieldbookDb } from '../db/index.ts';
import { SCHEMA_V10, SCHEMA_V9 } from '../db/schema.ts';
import { SCHEMA_OF_VERSION_8 } from '../testing/fixtures.ts';
import { loadTrend } from '../features/dashboard/trend.ts';
import { keptFigures, readSyncs, syncOf } from './sync-figures.ts';
import type { ScopeFigures } from './rows.ts';

const FIGURES: ScopeFigures[] = [
  { scope: 'site:101', people: 70, compliant: 23, findings: { Expired: 29, 'Training overdue': 106 } },
  { scope: 'usertype:Site manager', people: 4, compliant: 4, findings: {} },
  { scope: 'group:11', people: 5, compliant: 1, findings: { Missing: 2, 'Training due soon': 3 } },
];
const DAY = { at: '2026-03-01T12:00:00.000Z', day: '2026-03-01' };

describe("a sync's figures, kept as numbers", () => {
  it('read back as the report counted them, in under half the room of its words', () => {
    const kept = keptFigures(FIGURES);
    expect(syncOf({ ...DAY, figures: kept }).figures).toEqual(FIGURES);
    expect(JSON.stringify(kept).length).toBeLessThan(JSON.stringify(FIGURES).length / 2);
  });

  it('refuse a finding type they have no place for, rather than lose its count', () => {
    const unknown = { scope: 'site:1', people: 1, compliant: 0, findings: { Lapsed: 1 } } as ScopeFigures;
    expect(() => keptFigures([unknown])).toThrow('No place in the history');
  });
});

describe('a history written before database version 11', () => {
  async function writtenByVersion10(): Promise<string> {
    const name = `v10-${Math.random().toString(36).slice(2)}`;
    const v10 = new Dexie(name);
    v10.version(10).stores({ ...SCHEMA_OF_VERSION_8, ...SCHEMA_V9, ...SCHEMA_V10 });
    await v10.open();
    await v10.table('historySyncs').add({ ...DAY, figures: FIGURES });
    v10.close();
    return name;
  }

  it("keeps each day's figures, and the trend shows the same compliance", async () => {
    const db = openFieldbookDb(await writtenByVersion10());
    expect((await readSyncs(db)).map((s) => s.figures)).toEqual([FIGURES]);
    expect((await db.historySyncs.toArray())[0]!.figures[0]).toEqual(['site:101', 70, 23, 0, 29, 106]);
    const trend = await loadTrend(db, 30, '2026-03-01', 101);
    expect(trend.days.at(-1)!.percent).toEqual({ 'site:101': 32.9 });
    db.close();
  });
});
