import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  countCredentialsExpiringWithin,
  countExpiredCredentials,
  credentialHolders,
  credentialSummaries,
  credentialsExpiringWithin,
  expiredCredentials,
} from './queries.ts';
import { credentialAssignment, freshDb, user } from '../../testing/fixtures.ts';
import type { FieldbookDb } from '../../db/index.ts';

const today = '2026-03-01';
let db: FieldbookDb;
beforeEach(async () => {
  db = freshDb();
  await db.users.bulkPut([user(1), user(2), user(3), user(4), user(5)]);
  await db.credentials.bulkPut(
    [7, 8].map((credentialid) => ({
      credentialid,
      credentialname: `C${credentialid}`,
      description: '',
      categoryid: 1,
      categoryname: 'Safety',
      requiredstartdate: false,
      requiredexpirationdate: true,
      requiredcredentialnum: false,
      requirements: '',
      activeusercount: 0,
      inactiveusercount: 0,
    })),
  );
  await db.credentialAssignments.bulkPut([
    credentialAssignment(7, 1, '02/28/2026'), // expired yesterday
    credentialAssignment(7, 2, '03/01/2026'), // expires today
    credentialAssignment(7, 3, '03/31/2026'), // day 30
    credentialAssignment(7, 4, '05/30/2026'), // day 90
    credentialAssignment(7, 5, ''), // no date
    credentialAssignment(8, 1, '03/10/2026'),
  ]);
});

const who = (list: { userid: number }[]) => list.map((a) => a.userid);

describe('credentials expiring and expired', () => {
  it('lists assignments expiring from today through day 30, soonest first', async () => {
    const found = await credentialsExpiringWithin(db, 30, { today });
    expect(found.map((a) => a.id)).toEqual(['7-2', '8-1', '7-3']);
  });

  it('narrows the window to one credential', async () => {
    expect(who(await credentialsExpiringWithin(db, 90, { today, credentialid: 7 }))).toEqual([2, 3, 4]);
  });

  it('lists expired assignments but never those without a date', async () => {
    expect(who(await expiredCredentials(db, { today }))).toEqual([1]);
    expect(who(await expiredCredentials(db, { today, credentialid: 8 }))).toEqual([]);
  });

  it('reads long windows a page at a time, soonest first, and counts them all', async () => {
    expect((await credentialsExpiringWithin(db, 90, { today, limit: 2 })).map((a) => a.id)).toEqual([
      '7-2',
      '8-1',
    ]);
    expect(await countCredentialsExpiringWithin(db, 90, { today })).toBe(4);
    expect(await countExpiredCredentials(db, { today })).toBe(1);
  });

  it('lists every holder with their user, undated last', async () => {
    const holders = await credentialHolders(db, 7);
    expect(holders.map((h) => h.user?.userid)).toEqual([1, 2, 3, 4, 5]);
  });

  it('counts holders, expired, 30/60/90-day and missing dates per credential', async () => {
    const summary = (await credentialSummaries(db, today)).get(7);
    expect(summary).toEqual({
      credentialid: 7,
      holders: 5,
      expired: 1,
      within30: 2,
      within60: 2,
      within90: 3,
      missingDates: 1,
    });
  });
});
