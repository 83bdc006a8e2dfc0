/**
 * The names and requirements kept deflated (database version 12, history/shared-rows.ts): read back as the same
 * text, and a history written before version 12 rebuilds its days with the same names after the upgrade.
 */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { openFieldbookDb } from '../db/index.ts';
import { SCHEMA_V10, SCHEMA_V9 } from '../db/schema.ts';
import { SCHEMA_OF_VERSION_8 } from '../testing/fixtures.ts';
import type { Catalog } from './facts.ts';
import { loadDay } from './rebuild.ts';
import { keptShared, readShared, sharedOf } from './shared-rows.ts';

const CATALOG: Catalog = {
  s: [
    [101, 'Riverside'],
    [102, 'Hillcrest'],
  ],
  pc: [[7, 101, 'Plant']],
  g: Array.from({ length: 40 }, (_, i): [number, number, number, string] => [i, 101, 7, `Crew ${i}`]),
  k: Array.from({ length: 30 }, (_, i): [number, number, string] => [i, 7, `Forklift class ${i}`]),
  co: Array.from({ length: 30 }, (_, i): [number, number, string] => [i, 101, `Safety course ${i}`]),
};
const REQUIREMENTS = [{ id: 'r1', scope: 'site:101', kind: 'credential', credentialid: 3 }];
const DAY = { at: '2026-03-01T12:00:00.000Z', day: '2026-03-01', figures: [['site:101', 0, 0]] };

describe('the names kept by the history', () => {
  it('read back as the same names, in less than half the bytes of their text', () => {
    const text = JSON.stringify(CATALOG);
    const kept = keptShared({ seq: 1, kind: 'catalog', value: text });
    expect(sharedOf(kept)).toEqual({ seq: 1, kind: 'catalog', value: text });
    expect(kept.value.byteLength).toBeLessThan(new TextEncoder().encode(text).length / 2);
  });
});

describe('a history written before database version 12', () => {
  async function writtenByVersion11(): Promise<string> {
    const name = `v11-${Math.random().toString(36).slice(2)}`;
    const v11 = new Dexie(name);
    v11.version(11).stores({ ...SCHEMA_OF_VERSION_8, ...SCHEMA_V9, ...SCHEMA_V10 });
    await v11.open();
    await v11.table('historySyncs').add(DAY);
    await v11.table('historyShared').bulkAdd([
      { seq: 1, kind: 'catalog', value: JSON.stringify(CATALOG) },
      { seq: 1, kind: 'requirements', value: JSON.stringify(REQUIREMENTS) },
    ]);
    v11.close();
    return name;
  }

  it('rebuilds its days with the same names and requirements after the upgrade', async () => {
    const db = openFieldbookDb(await writtenByVersion11());
    const day = await loadDay(db, '2026-03-01');
    expect(day.catalog).toEqual(CATALOG);
    expect(day.requirements).toEqual(REQUIREMENTS);
    expect((await db.historyShared.toArray()).every((row) => row.value instanceof Uint8Array)).toBe(true);
    expect((await readShared(db)).map((row) => row.kind)).toEqual(['catalog', 'requirements']);
    db.close();
  });
});
