import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS, PRIMARY_KEY } from '../../shared/records.ts';
import { OUTBOX_TABLE_SCHEMAS } from './outbox-tables.ts';
import { dbNameForProfile, openFieldbookDb } from './index.ts';
import { freshDb, trainingAssignment, user } from '../testing/fixtures.ts';

describe('the cache database', () => {
  it('has a table for every synced collection, keyed by the API id', async () => {
    const db = freshDb();
    await db.open();
    for (const collection of COLLECTIONS) {
      expect(db.table(collection).schema.primKey.keyPath).toBe(PRIMARY_KEY[collection]);
    }
  });

  it('includes the outbox feature tables and the sync state tables', async () => {
    const db = freshDb();
    await db.open();
    const names = db.tables.map((t) => t.name);
    for (const t of Object.keys(OUTBOX_TABLE_SCHEMAS)) expect(names).toContain(t);
    expect(names).toContain('syncCheckpoints');
    expect(names).toContain('syncCollections');
  });

  it('keeps each profile in its own database', () => {
    expect(dbNameForProfile('a')).not.toBe(dbNameForProfile('b'));
  });

  it('finds users by any prefix of their lower-cased search keys', async () => {
    const db = freshDb();
    await db.users.bulkPut([
      user(1, { firstname: 'Ada', lastname: 'Lovelace' }),
      user(2, { firstname: 'Alan', lastname: 'Turing' }),
    ]);
    const found = await db.users.where('searchKeys').startsWith('love').distinct().toArray();
    expect(found.map((u) => u.userid)).toEqual([1]);
  });

  it('indexes training by its open due date whoever writes it, and drops it from there once completed', async () => {
    const db = freshDb();
    await db.trainingAssignments.put(trainingAssignment(1, 1, 50, '2026-01-01'));
    expect(await db.trainingAssignments.where('openDueIso').equals('2026-01-01').count()).toBe(1);
    await db.trainingAssignments.put(
      trainingAssignment(1, 1, 50, '2026-01-01', { course_status: 'completed' }),
    );
    expect(await db.trainingAssignments.where('openDueIso').equals('2026-01-01').count()).toBe(0);
  });

  it('survives being reopened with the same name', async () => {
    const name = `reopen-${Math.random()}`;
    const first = openFieldbookDb(name);
    await first.users.put(user(7));
    first.close();
    const second = openFieldbookDb(name);
    expect((await second.users.get(7))?.username).toBe('user7');
  });
});
