import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FieldbookDb } from '../../db/index.ts';
import { freshDb, user } from '../../testing/fixtures.ts';
import { snapshotHistory } from '../../history/snapshot.ts';
import { dropHistoryBefore } from '../../history/horizon.ts';
import { loadReportAsOf } from './as-of.ts';
import { formatDate, formatDateTime } from '../../app/format.ts';
import { todayIso } from '../../../shared/dates.ts';

let db: FieldbookDb;
beforeEach(async () => {
  db = freshDb();
  await db.sites.put({ siteid: 1, sitename: 'Riverside', loginpage: 'r' });
  await db.groups.put({
    groupid: 9,
    siteid: 1,
    categoryid: 3,
    groupname: 'Drivers',
    usercount: 1,
    accessusercount: 0,
  });
  await db.users.bulkPut([user(1), user(2), user(3, { siteid: 2 })]);
  await db.groupMembers.put({ id: '9-2', groupid: 9, userid: 2 });
});
afterEach(() => db.close());

const at = (day: string) => `${day}T12:00:00.000Z`;
const syncOn = (day: string) => snapshotHistory(db, at(day), day);
const riverside = { kind: 'site', siteid: 1 } as const;

describe('the report as of a past day', () => {
  it('says it was rebuilt from the syncs since the first, and names the syncs on either side of a day with one', async () => {
    await syncOn('2026-03-01');
    await syncOn('2026-03-03');
    await syncOn('2026-03-06');
    const report = await loadReportAsOf(db, riverside, '2026-03-03');
    expect(report.history).toEqual([
      `Rebuilt from this laptop's syncs since its first sync, on ${formatDate('2026-03-01')}.`,
      `As the sync of ${formatDateTime(at('2026-03-03'))} left it. The syncs on either side: ` +
        `${formatDateTime(at('2026-03-01'))}, and ${formatDateTime(at('2026-03-06'))}.`,
    ]);
    expect(report.scopeLabel).toBe('Riverside');
    expect(report.input.people.map((p) => p.userid).sort()).toEqual([1, 2]);
  });

  it('a day without a sync is shown as the sync before left it, naming that sync and the next, not a guess', async () => {
    await syncOn('2026-03-01');
    await syncOn('2026-03-06');
    const report = await loadReportAsOf(db, riverside, '2026-03-04');
    expect(report.reached).toBe(true);
    expect(report.dataAsOf).toBe(at('2026-03-01'));
    expect(report.history[1]).toBe(
      `No sync on ${formatDate('2026-03-04')}: shown as the sync of ${formatDateTime(at('2026-03-01'))} left it, ` +
        `with dates counted on ${formatDate('2026-03-04')}. Changes made on the platform between that sync and ` +
        `the next (${formatDateTime(at('2026-03-06'))}) are not known here.`,
    );
  });

  it('says plainly that the history does not reach a day before the first sync, and shows nobody', async () => {
    await syncOn('2026-03-01');
    const report = await loadReportAsOf(db, riverside, '2026-02-20');
    expect(report.reached).toBe(false);
    expect(report.input.people).toEqual([]);
    // the site is named as today, not as "a site not on this laptop"
    expect(report.scopeLabel).toBe('Riverside');
    const group = await loadReportAsOf(db, { kind: 'group', groupid: 9 }, '2026-02-20');
    expect(group.scopeLabel).toBe('Drivers (Riverside)');
    expect(report.history[1]).toBe(
      `The history does not reach ${formatDate('2026-02-20')}: nothing is known of that day here. ` +
        `The nearest sync after it: ${formatDateTime(at('2026-03-01'))}.`,
    );
  });

  it('after older history was dropped, says where it now starts and when the rest was dropped', async () => {
    for (const day of ['2026-01-10', '2026-01-20', '2026-03-01']) await syncOn(day);
    await dropHistoryBefore(db, '2026-02-01', at('2026-03-02'));
    const kept = await loadReportAsOf(db, riverside, '2026-03-01');
    const dropped = formatDate(todayIso(new Date(at('2026-03-02'))));
    expect(kept.history[0]).toBe(
      `Rebuilt from this laptop's syncs since ${formatDate('2026-01-20')}: the history before it was dropped on ` +
        `${dropped}.`,
    );
    const before = await loadReportAsOf(db, riverside, '2026-01-12');
    expect(before.reached).toBe(false);
    expect(before.history[1]).toBe(
      `The history does not reach ${formatDate('2026-01-12')}: what was known of that day was dropped from this ` +
        `laptop on ${dropped}. The nearest sync after it: ${formatDateTime(at('2026-01-20'))}.`,
    );
  });

  it('before any sync, says the history starts with the next one', async () => {
    const report = await loadReportAsOf(db, riverside, '2026-02-20');
    const day = formatDate('2026-02-20');
    expect(report.history).toEqual([
      `This laptop keeps no history yet: it starts with the next complete sync, so ${day} cannot be shown.`,
    ]);
  });

  it("a group's report as of a day holds the group's members of that day, under the group's name then", async () => {
    await syncOn('2026-03-01');
    await db.groupMembers.put({ id: '9-1', groupid: 9, userid: 1 });
    await syncOn('2026-03-02');
    const then = await loadReportAsOf(db, { kind: 'group', groupid: 9 }, '2026-03-01');
    expect(then.scopeLabel).toBe('Drivers (Riverside)');
    expect(then.input.people.map((p) => p.userid)).toEqual([2]);
    const later = await loadReportAsOf(db, { kind: 'group', groupid: 9 }, '2026-03-02');
    expect(later.input.people.map((p) => p.userid).sort()).toEqual([1, 2]);
  });
});
