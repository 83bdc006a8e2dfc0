import 'fake-indexeddb/auto';
import Dexie, { liveQuery, type Table } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { HELD, settledQuerier } from './settled-query.ts';

class Db extends Dexie {
  rows!: Table<{ id: number }, number>;
  constructor(name: string) {
    super(name);
    this.version(1).stores({ rows: 'id' });
  }
}

let db: Db | null = null;
afterEach(async () => {
  await db?.delete();
  db = null;
});

/**
 * Subscribes a live query of the row count, writes `writes` rows one transaction each, and says how often the count
 * was read and what was seen.
 */
async function countWhileWriting(
  syncing: boolean,
  writes: number,
): Promise<{ reads: number; seen: (number | typeof HELD)[] }> {
  db = new Db(`settled-${syncing}-${Math.random()}`);
  const table = db.rows;
  let reads = 0;
  const seen: (number | typeof HELD)[] = [];
  const query = () => {
    reads += 1;
    return table.count();
  };
  const subscription = liveQuery(settledQuerier(query, syncing)).subscribe((v) => seen.push(v));
  await new Promise((r) => setTimeout(r, 20));
  for (let id = 1; id <= writes; id += 1) {
    await table.put({ id });
    await new Promise((r) => setTimeout(r, 20));
  }
  subscription.unsubscribe();
  return { reads, seen };
}

describe("the dashboard's figures during a sync", () => {
  it('read no table while a sync runs: the sync’s writes wake nothing, the last value stays', async () => {
    const { reads, seen } = await countWhileWriting(true, 5);
    expect(reads).toBe(0);
    expect(new Set(seen)).toEqual(new Set([HELD]));
  });

  it('follow every write when no sync runs', async () => {
    const { reads, seen } = await countWhileWriting(false, 5);
    expect(reads).toBeGreaterThanOrEqual(6);
    expect(seen.at(-1)).toBe(5);
  });
});
