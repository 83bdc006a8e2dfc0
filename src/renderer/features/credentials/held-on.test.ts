import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FieldbookDb } from '../../db/index.ts';
import { credentialAssignment, freshDb, user } from '../../testing/fixtures.ts';
import { snapshotHistory } from '../../history/snapshot.ts';
import { loadDay } from '../../history/rebuild.ts';
import { heldOn, heldOnLine } from './held-on.ts';

let db: FieldbookDb;
beforeEach(async () => {
  db = freshDb();
  await db.sites.bulkPut([
    { siteid: 1, sitename: 'Riverside', loginpage: 'r' },
    { siteid: 2, sitename: 'Hilltop', loginpage: 'h' },
  ]);
  await db.users.bulkPut([
    user(1, { lastname: 'Young' }),
    user(2, { lastname: 'Adams' }),
    user(3, { lastname: 'Baker', siteid: 2 }),
    user(4, { lastname: 'Cole' }),
  ]);
});
afterEach(() => db.close());

const FORKLIFT = 5;
const card = (userid: number, startIso: string, expirationIso: string, credentialid = FORKLIFT) =>
  credentialAssignment(credentialid, userid, '', { startIso, expirationIso });
const syncOn = (day: string) => snapshotHistory(db, `${day}T12:00:00.000Z`, day);
const holdersOn = async (day: string) =>
  heldOn(await loadDay(db, day), FORKLIFT).map((r) => `${r.lastname} ${r.start}–${r.expiration}`);

describe('who held a valid credential on a past day', () => {
  beforeEach(async () => {
    await db.credentialAssignments.bulkPut([
      card(1, '2025-03-02', '2026-03-02'), // expires on the 2nd
      card(2, '2025-01-01', ''), // never expires
      card(3, '2025-06-01', '2026-12-31'), // at the other site
      card(4, '2026-03-05', '2027-03-05'), // starts on the 5th
      card(2, '2025-01-01', '2026-01-01', 9), // another credential
    ]);
    await syncOn('2026-03-01');
    // renewed in place on the platform: the same assignment, new dates
    await db.credentialAssignments.put(card(1, '2026-03-04', '2027-03-04'));
    await syncOn('2026-03-04');
  });

  it('lists everyone holding it valid on the day, by name, with the site and the dates of then', async () => {
    const rebuilt = await loadDay(db, '2026-03-02');
    const rows = heldOn(rebuilt, FORKLIFT);
    expect(rows.map((r) => [r.lastname, r.sitename, r.start, r.expiration])).toEqual([
      ['Adams', 'Riverside', '2025-01-01', ''],
      ['Baker', 'Hilltop', '2025-06-01', '2026-12-31'],
      // valid on the day it expires, as the report counts it
      ['Young', 'Riverside', '2025-03-02', '2026-03-02'],
    ]);
  });

  it('leaves out a card expired by the day, even when it was renewed in place later', async () => {
    expect(await holdersOn('2026-03-03')).toEqual(['Adams 2025-01-01–', 'Baker 2025-06-01–2026-12-31']);
    expect(await holdersOn('2026-03-04')).toContain('Young 2026-03-04–2027-03-04');
  });

  it('leaves out a card that had not started by the day', async () => {
    expect(await holdersOn('2026-03-04')).not.toContain('Cole 2026-03-05–2027-03-05');
    await syncOn('2026-03-05');
    expect(await holdersOn('2026-03-05')).toContain('Cole 2026-03-05–2027-03-05');
  });

  it('lists nobody for a day the history does not reach', async () => {
    expect(await holdersOn('2026-02-28')).toEqual([]);
  });
});

describe('the answer’s line', () => {
  it('counts the holders of a day the history reaches', () => {
    expect(heldOnLine(3, 'Forklift', 'Nov 10, 2026', true)).toBe(
      '3 people held a valid Forklift on Nov 10, 2026.',
    );
    expect(heldOnLine(1, 'Forklift', 'Nov 10, 2026', true)).toBe(
      '1 person held a valid Forklift on Nov 10, 2026.',
    );
  });

  it('says a day before the history is not known, never that nobody held it', () => {
    expect(heldOnLine(0, 'Forklift', 'Nov 10, 2026', false)).toBe(
      "Not known: this laptop's history does not reach Nov 10, 2026.",
    );
  });
});
