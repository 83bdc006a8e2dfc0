import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FieldbookDb } from '../db/index.ts';
import { credentialAssignment, freshDb, trainingAssignment, user } from '../testing/fixtures.ts';
import { buildReport } from '../features/report/build.ts';
import { requirementRow } from '../features/requirements/model.ts';
import { cacheInput, snapshotHistory } from './snapshot.ts';
import { loadDay } from './rebuild.ts';
import { inputOf } from './facts.ts';
import { historyOptions } from './figures.ts';
import { loadPersonHistory } from './person.ts';
import { historySheets } from './export.ts';
import { loadReportAsOf } from '../features/report/as-of.ts';
import { dropHistoryBefore } from './horizon.ts';
import { readPeopleRows } from './packs.ts';
import { readSyncs } from './sync-figures.ts';

let db: FieldbookDb;
beforeEach(async () => {
  db = freshDb();
  await db.sites.bulkPut([
    { siteid: 1, sitename: 'Riverside', loginpage: 'r' },
    { siteid: 2, sitename: 'Hilltop', loginpage: 'h' },
  ]);
  await db.credentials.put({
    credentialid: 5,
    credentialname: 'Forklift',
    description: '',
    categoryid: 1,
    categoryname: 'Safety',
    requiredstartdate: false,
    requiredexpirationdate: true,
    requiredcredentialnum: false,
    requirements: '',
    activeusercount: 0,
    inactiveusercount: 0,
  });
  await db.users.bulkPut([user(1), user(2), user(3, { siteid: 2 })]);
});
afterEach(() => db.close());

const forklift = (userid: number, expirationIso: string) =>
  credentialAssignment(5, userid, '', { expirationIso });

/** A sync's snapshot at noon of `day`. */
const at = (day: string) => `${day}T12:00:00.000Z`;
const syncOn = (day: string) => snapshotHistory(db, at(day), day);

/** Who held a valid forklift card on `day`, rebuilt from the history. */
async function validForklift(day: string): Promise<number[]> {
  const rebuilt = await loadDay(db, day);
  return inputOf(rebuilt.facts, rebuilt.catalog, rebuilt.requirements)
    .assignments.filter((a) => a.credentialid === 5 && a.expirationIso >= day)
    .map((a) => a.userid)
    .sort();
}

describe('the compliance history', () => {
  it('keeps the dates a renewal in place replaced: the day before the renewal shows the old expiry', async () => {
    await db.credentialAssignments.put(forklift(1, '2026-03-02'));
    await syncOn('2026-03-01');
    // renewed in place: the same assignment, new dates
    await db.credentialAssignments.put(forklift(1, '2027-03-02'));
    await syncOn('2026-03-05');
    const on = async (day: string) =>
      (await loadDay(db, day)).facts.get(1)!.c.map(([, , , expiration]) => expiration);
    expect(await on('2026-03-01')).toEqual(['2026-03-02']);
    expect(await on('2026-03-04')).toEqual(['2026-03-02']);
    expect(await on('2026-03-05')).toEqual(['2027-03-02']);
    expect(await validForklift('2026-03-03')).toEqual([]);
    expect(await validForklift('2026-03-05')).toEqual([1]);
  });

  it('keeps a person who left on the days before they left, and not after', async () => {
    await syncOn('2026-03-01');
    await db.users.delete(2);
    await syncOn('2026-03-02');
    expect([...(await loadDay(db, '2026-03-01')).facts.keys()].sort()).toEqual([1, 2, 3]);
    expect([...(await loadDay(db, '2026-03-02')).facts.keys()].sort()).toEqual([1, 3]);
  });

  it('writes nothing for a person whose records and findings did not change', async () => {
    await syncOn('2026-03-01');
    expect(await readPeopleRows(db)).toHaveLength(3);
    await syncOn('2026-03-02');
    expect(await readPeopleRows(db)).toHaveLength(3);
    expect(await db.historySyncs.count()).toBe(2);
  });

  it('records a finding that appeared with the date alone (an expiry) and one that went away (a renewal)', async () => {
    await db.credentialAssignments.put(forklift(1, '2026-03-02'));
    await syncOn('2026-03-01');
    await syncOn('2026-03-03');
    await db.credentialAssignments.put(forklift(1, '2027-03-02'));
    await syncOn('2026-03-04');
    const rows = await readPeopleRows(db, { userid: 1 });
    expect(rows.map((r) => [r.a, r.r])).toEqual([
      [['Sk5'], undefined],
      [['Ek5'], ['Sk5']],
      [undefined, ['Ek5']],
    ]);
  });

  it("keeps each day's figures per site and per requirement scope, as the report counts them", async () => {
    await db.credentialAssignments.put(forklift(1, '2026-02-01'));
    await db.requirements.put(requirementRow('usertype:User', 'credential:5'));
    await syncOn('2026-03-01');
    const [sync] = await readSyncs(db);
    const { input } = await cacheInput(db);
    const riverside = buildReport(
      { ...input, people: input.people.filter((p) => p.siteid === 1) },
      historyOptions('2026-03-01'),
    );
    expect(sync!.figures).toEqual([
      { scope: 'site:1', people: 2, compliant: 0, findings: { Missing: 1, Expired: 1 } },
      { scope: 'site:2', people: 1, compliant: 0, findings: { Missing: 1 } },
      { scope: 'usertype:User', people: 3, compliant: 0, findings: { Missing: 2, Expired: 1 } },
    ]);
    expect(riverside.compliant).toBe(sync!.figures[0]!.compliant);
  });

  it('keeps the requirements of each day: one added later does not count before it', async () => {
    await syncOn('2026-03-01');
    await db.requirements.put(requirementRow('site:1', 'credential:5'));
    await syncOn('2026-03-10');
    expect((await loadDay(db, '2026-03-09')).requirements).toEqual([]);
    expect((await loadDay(db, '2026-03-10')).requirements).toEqual([
      requirementRow('site:1', 'credential:5'),
    ]);
  });

  it('names the syncs on either side of a day without one, and reaches no day before the first', async () => {
    await syncOn('2026-03-01');
    await syncOn('2026-03-04');
    const gap = await loadDay(db, '2026-03-02');
    expect([gap.syncedThatDay, gap.before?.day, gap.after?.day]).toEqual([false, '2026-03-01', '2026-03-04']);
    const early = await loadDay(db, '2026-02-28');
    expect([early.before, early.after?.day, early.first?.day, early.facts.size]).toEqual([
      null,
      '2026-03-01',
      '2026-03-01',
      0,
    ]);
  });

  it('training counts too: a course overdue on a past day is rebuilt as overdue on that day', async () => {
    await db.trainingAssignments.put(trainingAssignment(70, 1, 7, '2026-03-03'));
    await syncOn('2026-03-01');
    const rebuilt = await loadDay(db, '2026-03-05');
    const report = buildReport(
      inputOf(rebuilt.facts, rebuilt.catalog, rebuilt.requirements),
      historyOptions('2026-03-05'),
    );
    expect(report.findingsByType.find((f) => f.type === 'Training overdue')?.people).toBe(1);
  });
});

describe("a person's history", () => {
  it('lists a credential renewed in place as two validity periods, the first ended on the day the renewal was seen', async () => {
    await db.credentialAssignments.put(forklift(1, '2026-03-02'));
    await syncOn('2026-03-01');
    await syncOn('2026-03-03');
    await db.credentialAssignments.put(forklift(1, '2027-03-02'));
    await syncOn('2026-03-04');
    const history = await loadPersonHistory(db, 1);
    expect(history.periods.map((p) => [p.expiration, p.seenFrom, p.seenUntil])).toEqual([
      ['2026-03-02', '2026-03-01', '2026-03-04'],
      ['2027-03-02', '2026-03-04', null],
    ]);
  });

  it('gives each finding the day it appeared and the day it was resolved', async () => {
    await db.credentialAssignments.put(forklift(1, '2026-03-02'));
    await syncOn('2026-03-01');
    await syncOn('2026-03-03');
    await db.credentialAssignments.put(forklift(1, '2027-03-02'));
    await syncOn('2026-03-04');
    const { findings } = await loadPersonHistory(db, 1);
    expect(findings.map((f) => [f.type, f.appeared, f.resolved])).toEqual([
      ['Expired', '2026-03-03', '2026-03-04'],
      ['Expires soon', '2026-03-01', '2026-03-03'],
    ]);
  });
});

describe('the history as a spreadsheet', () => {
  it('has a sheet of daily figures per scope and one of the changes per person, in words', async () => {
    await db.credentialAssignments.put(forklift(1, '2026-03-02'));
    await syncOn('2026-03-01');
    await db.credentialAssignments.put(forklift(1, '2027-03-02'));
    await db.users.delete(2);
    await syncOn('2026-03-04');
    const names = { scope: (s: string) => `[${s}]`, item: (k: string) => `<${k}>` };
    const [figures, changes] = historySheets(await readSyncs(db), await readPeopleRows(db), names);
    expect(figures!.rows[0]).toEqual([
      'Day',
      'Synced at',
      'Scope',
      'People',
      'Compliant',
      '% compliant',
      'Missing',
      'Expired',
      'Training overdue',
      'Expires soon',
      'Training due soon',
    ]);
    expect(figures!.rows[1]).toEqual(['2026-03-01', at('2026-03-01'), '[site:1]', 2, 2, 100, 0, 0, 0, 1, 0]);
    expect(changes!.rows.filter((r) => r[0] === '2026-03-04')).toEqual([
      ['2026-03-04', 'Last1, First1', 'E1', 'Finding resolved', 'Expires soon', '<credential:5>'],
      ['2026-03-04', 'Last2, First2', 'E2', 'No longer on the platform', '', ''],
    ]);
  });
});

describe('a site no longer kept on this laptop', () => {
  /** What the coordinator's "stop keeping this site" leaves: the site and its people gone from the cache. */
  const stopKeeping = async () => {
    await db.sites.delete(2);
    await db.users.delete(3);
  };
  const keepAgain = async () => {
    await db.sites.put({ siteid: 2, sitename: 'Hilltop', loginpage: 'h' });
    await db.users.put(user(3, { siteid: 2 }));
  };
  const changesOn = async (day: string) => {
    const names = { scope: (s: string) => s, item: (k: string) => k };
    const sheets = historySheets(await readSyncs(db), await readPeopleRows(db), names);
    return sheets[1]!.rows.filter((r) => r[0] === day).map((r) => [r[1], r[3]]);
  };

  it('does not record its people as no longer on the platform', async () => {
    await syncOn('2026-03-01');
    await stopKeeping();
    await syncOn('2026-03-02');
    expect(await changesOn('2026-03-02')).toEqual([['Last3, First3', 'Site no longer kept on this laptop']]);
  });

  it('keeps no figures for the site after it, even for a requirement that names the site', async () => {
    await db.requirements.put(requirementRow('site:2', 'credential:5'));
    await syncOn('2026-03-01');
    await stopKeeping();
    await syncOn('2026-03-02');
    const [, second] = await readSyncs(db);
    expect(second!.figures.map((f) => f.scope)).toEqual(['site:1']);
  });

  it('rebuilds the site as it was before, and a later day as not kept, saying so', async () => {
    await syncOn('2026-03-01');
    await stopKeeping();
    await syncOn('2026-03-03');
    expect([...(await loadDay(db, '2026-03-02')).facts.keys()].sort()).toEqual([1, 2, 3]);
    expect([...(await loadDay(db, '2026-03-03')).facts.keys()].sort()).toEqual([1, 2]);
    const later = await loadReportAsOf(db, { kind: 'site', siteid: 2 }, '2026-03-04');
    expect(later.history.join(' ')).toContain(
      'Hilltop was not kept on this laptop on that day: its history here stops at the sync of',
    );
    const before = await loadReportAsOf(db, { kind: 'site', siteid: 2 }, '2026-03-02');
    expect(before.history.join(' ')).not.toContain('not kept on this laptop');
  });

  it('kept again later, its people come back as kept again, not as new on the platform', async () => {
    await syncOn('2026-03-01');
    await stopKeeping();
    await syncOn('2026-03-02');
    await keepAgain();
    await syncOn('2026-03-05');
    expect(await changesOn('2026-03-05')).toEqual([['Last3, First3', 'Site kept again on this laptop']]);
    expect([...(await loadDay(db, '2026-03-05')).facts.keys()].sort()).toEqual([1, 2, 3]);
    const [, , third] = await readSyncs(db);
    expect(third!.figures.map((f) => f.scope)).toEqual(['site:1', 'site:2']);
  });

  it("closes the person's open findings on the day the site stopped being kept, without calling them resolved", async () => {
    await db.credentialAssignments.put(forklift(3, '2026-03-02'));
    await syncOn('2026-03-01');
    await stopKeeping();
    await syncOn('2026-03-02');
    const { findings } = await loadPersonHistory(db, 3);
    expect(findings.map((f) => [f.type, f.appeared, f.resolved, f.unfollowed])).toEqual([
      ['Expires soon', '2026-03-01', null, '2026-03-02'],
    ]);
  });
});

describe('what a change costs', () => {
  const rowsOf = async (userid: number) =>
    (await readPeopleRows(db, { userid })).map(({ id: _, seq: __, ...row }) => row);

  it("keeps only the renewed credential's new dates, not the person's whole record", async () => {
    await db.credentialAssignments.bulkPut([forklift(1, '2027-01-01'), credentialAssignment(6, 1, '')]);
    await db.trainingAssignments.put(trainingAssignment(70, 1, 7, '2027-03-03'));
    await syncOn('2026-03-01');
    await db.credentialAssignments.put(forklift(1, '2028-01-01'));
    await syncOn('2026-03-02');
    expect((await rowsOf(1)).at(-1)).toEqual({ userid: 1, c: [['5-1', 5, '2020-01-01', '2028-01-01']] });
  });

  it('keeps a finding that changed with the date alone as the finding, nothing else', async () => {
    await db.credentialAssignments.put(forklift(1, '2026-03-02'));
    await syncOn('2026-03-01');
    await syncOn('2026-03-03');
    expect((await rowsOf(1)).at(-1)).toEqual({
      userid: 1,
      a: ['Ek5'],
      r: ['Sk5'],
    });
  });

  it("keeps a training's course name only where the day's names lack it, and the day shows both names", async () => {
    await db.courses.put({ courseid: 7, siteid: 1, coursename: 'Course 7', coursetype: null, status: '' });
    // course 8 is not among the courses the cache holds: only the assignment names it
    await db.trainingAssignments.bulkPut([
      trainingAssignment(70, 1, 7, '2026-03-10'),
      trainingAssignment(71, 1, 8, '2026-03-10'),
    ]);
    await syncOn('2026-03-01');
    expect((await rowsOf(1))[0]!.t).toEqual([
      [70, 7, '', 'active', '2026-03-10'],
      [71, 8, 'Course 8', 'active', '2026-03-10'],
    ]);
    const rebuilt = await loadDay(db, '2026-03-01');
    const report = buildReport(
      inputOf(rebuilt.facts, rebuilt.catalog, rebuilt.requirements),
      historyOptions('2026-03-01'),
    );
    const due = report.sections.flatMap((s) => s.rows).find((r) => r.userid === 1)!.findings;
    expect(due.map((f) => f.item).sort()).toEqual(['Course 7', 'Course 8']);
  });

  it('keeps the removal of a credential and of a group membership as what went', async () => {
    await db.credentialAssignments.bulkPut([forklift(1, '2027-01-01'), credentialAssignment(6, 1, '')]);
    await db.groupMembers.bulkPut([
      { id: '8-1', groupid: 8, userid: 1 },
      { id: '9-1', groupid: 9, userid: 1 },
    ]);
    await syncOn('2026-03-01');
    await db.credentialAssignments.delete('6-1');
    await db.groupMembers.delete('9-1');
    await syncOn('2026-03-02');
    expect((await rowsOf(1)).at(-1)).toEqual({ userid: 1, g: [8], cx: ['6-1'] });
    expect((await loadDay(db, '2026-03-01')).facts.get(1)!.c.map((c) => c[0])).toEqual(['5-1', '6-1']);
    expect((await loadDay(db, '2026-03-02')).facts.get(1)!.c.map((c) => c[0])).toEqual(['5-1']);
  });
});

describe('dropping the history older than the horizon', () => {
  /** Who is in the rebuilt day, with their credentials' expiries and, per person, their open findings. */
  const dayOf = async (day: string) => {
    const rebuilt = await loadDay(db, day);
    const report = buildReport(
      inputOf(rebuilt.facts, rebuilt.catalog, rebuilt.requirements),
      historyOptions(day),
    );
    return {
      facts: rebuilt.facts,
      report,
      requirements: rebuilt.requirements,
      reached: rebuilt.before !== null,
    };
  };

  async function twoMonths() {
    await db.credentialAssignments.put(forklift(1, '2026-01-20'));
    await syncOn('2026-01-01');
    await db.requirements.put(requirementRow('site:1', 'credential:5'));
    await db.users.delete(2);
    await syncOn('2026-01-15');
    await db.credentialAssignments.put(forklift(1, '2027-01-20'));
    await syncOn('2026-02-10');
    await db.users.put(user(4));
    await syncOn('2026-03-01');
  }

  it('rebuilds every day from the last sync before the horizon on exactly as before', async () => {
    await twoMonths();
    const days = ['2026-01-15', '2026-01-21', '2026-02-10', '2026-02-20', '2026-03-01'];
    const before = await Promise.all(days.map(dayOf));
    expect(await dropHistoryBefore(db, '2026-02-01')).toBe(1);
    expect(await Promise.all(days.map(dayOf))).toEqual(before);
  });

  it('no longer reaches the days before that sync, and says where the history now starts', async () => {
    await twoMonths();
    await dropHistoryBefore(db, '2026-02-01');
    expect((await dayOf('2026-01-10')).reached).toBe(false);
    expect((await loadDay(db, '2026-03-01')).first?.day).toBe('2026-01-15');
    expect(await db.historySyncs.count()).toBe(3);
  });

  it('keeps the findings still open at the new start on the person page, and drops nothing when nothing is older', async () => {
    await twoMonths();
    expect(await dropHistoryBefore(db, '2026-01-10')).toBe(0);
    await dropHistoryBefore(db, '2026-01-20');
    const { findings } = await loadPersonHistory(db, 1);
    expect(findings.map((f) => [f.type, f.appeared, f.resolved])).toContainEqual([
      'Expires soon',
      '2026-01-15',
      '2026-02-10',
    ]);
  });
});
