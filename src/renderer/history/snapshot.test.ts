/**
 * A snapshot recomputes only the people written since the previous one, from what was written of them, and those
 * whose findings change with the date, from their heads (history/touched.ts, history/written.ts): on random changes
 * over random days (some several in one transaction, some in a transaction that failed), its history equals the
 * history of snapshots that recompute everyone from the cache.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openFieldbookDb, type FieldbookDb } from '../db/index.ts';
import { credentialAssignment, freshDb, trainingAssignment, user } from '../testing/fixtures.ts';
import { requirementRow } from '../features/requirements/model.ts';
import { addDaysIso } from '../../shared/dates.ts';
import { DAY_LEFT_TO_NEXT, snapshotHistory, startSnapshot } from './snapshot.ts';
import { WRITES_KEPT } from './touched.ts';
import { readPeopleRows } from './packs.ts';
import { readHeadState } from './head-state.ts';

const START = '2026-03-01';

function randomOf(seed: number) {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!,
  };
}

type Change = (db: FieldbookDb) => Promise<unknown>;

/** One random change of the platform, as a sync (or an acknowledged edit) writes it into the cache. */
function randomChange(r: ReturnType<typeof randomOf>, today: string): Change {
  const userid = 1 + r.int(30);
  const [credentialid, transcriptid, courseid] = [r.pick([5, 6]), userid * 10 + r.int(2), 7 + r.int(2)];
  const date = r.int(6) === 0 ? '' : addDaysIso(today, r.int(80) - 20);
  const [siteid, status] = [1 + r.int(2), r.pick(['Active', 'Inactive'])];
  const changes: Change[] = [
    (db) =>
      db.credentialAssignments.put(credentialAssignment(credentialid, userid, '', { expirationIso: date })),
    (db) => db.credentialAssignments.delete(`${credentialid}-${userid}`),
    (db) => db.trainingAssignments.put(trainingAssignment(transcriptid, userid, courseid, date)),
    (db) => db.trainingAssignments.delete(transcriptid),
    (db) => db.users.put(user(userid, { siteid, status })),
    (db) => db.users.delete(userid),
    (db) => db.groupMembers.put({ id: `11-${userid}`, groupid: 11, userid }),
    (db) => db.groupMembers.delete(`11-${userid}`),
    (db) => db.groupMembers.where('userid').equals(userid).delete(),
    (db) => db.credentialAssignments.where('userid').equals(userid).modify({ expirationIso: date }),
    (db) =>
      db.transaction('rw', [db.users, db.credentialAssignments, db.trainingAssignments], async () => {
        await db.credentialAssignments.put(
          credentialAssignment(credentialid, userid, '', { expirationIso: date }),
        );
        await db.trainingAssignments.delete(transcriptid);
        await db.users.put(user(userid, { siteid, status }));
      }),
    // a write that failed half-way: nothing of it is in the cache, so nothing of it is history
    (db) =>
      db
        .transaction('rw', [db.users, db.credentialAssignments], async () => {
          await db.credentialAssignments.put(
            credentialAssignment(credentialid, userid, '', { expirationIso: date }),
          );
          await db.users.delete(userid);
          throw new Error('the sync stopped');
        })
        .catch(() => undefined),
  ];
  return r.pick(changes);
}

async function seed(db: FieldbookDb): Promise<void> {
  await db.sites.bulkPut([
    { siteid: 1, sitename: 'Riverside', loginpage: 'r' },
    { siteid: 2, sitename: 'Hilltop', loginpage: 'h' },
  ]);
  await db.groups.put({
    groupid: 11,
    siteid: 1,
    categoryid: 1,
    groupname: 'Drivers',
    usercount: 0,
    accessusercount: 0,
  });
  // course 7's name is the catalog's (a fact leaves it out), course 8 is not in the catalog (kept)
  await db.courses.put({ courseid: 7, siteid: 1, coursename: 'Course 7', coursetype: 1, status: 'active' });
  await db.users.bulkPut(Array.from({ length: 30 }, (_, i) => user(i + 1, { siteid: 1 + (i % 2) })));
  await db.credentialAssignments.bulkPut(
    Array.from({ length: 30 }, (_, i) =>
      credentialAssignment(5, i + 1, '', { expirationIso: addDaysIso(START, i * 2) }),
    ),
  );
  await db.requirements.bulkPut([
    requirementRow('site:1', 'credential:5'),
    requirementRow('group:11', 'course:7'),
  ]);
}

/** What the history holds, without the ids the tables gave. */
async function historyOf(db: FieldbookDb) {
  const people = await readPeopleRows(db);
  return {
    syncs: (await db.historySyncs.toArray()).map(({ seq: _, ...s }) => s),
    people: people.map(({ id: _, ...row }) => row).sort((a, b) => a.seq - b.seq || a.userid - b.userid),
    heads: await db.historyHeads.toArray(),
    states: await readHeadState(db),
  };
}

let dbs: FieldbookDb[] = [];
afterEach(() => {
  for (const db of dbs) db.close();
  dbs = [];
});

describe('a snapshot of the people written since the previous one', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'gives the history that recomputing everyone gives (random days %i)',
    async (n) => {
      dbs = [freshDb(), freshDb()];
      const [incremental, full] = dbs as [FieldbookDb, FieldbookDb];
      const r = randomOf(n);
      for (const db of dbs) await seed(db);
      let day = START;
      for (let i = 0; i < 12; i += 1) {
        day = addDaysIso(day, 1 + r.int(6));
        const changes = Array.from({ length: r.int(6) }, () => randomChange(r, day));
        for (const db of dbs) for (const change of changes) await change(db);
        await snapshotHistory(incremental, `${day}T12:00:00.000Z`, day);
        await snapshotHistory(full, `${day}T12:00:00.000Z`, day, { full: true });
      }
      expect(await historyOf(incremental)).toEqual(await historyOf(full));
    },
  );

  it('recomputes everyone once the requirements changed', async () => {
    dbs = [freshDb(), freshDb()];
    const [incremental, full] = dbs as [FieldbookDb, FieldbookDb];
    for (const db of dbs) await seed(db);
    for (const db of dbs) await snapshotHistory(db, `${START}T12:00:00.000Z`, START);
    for (const db of dbs) await db.requirements.put(requirementRow('usertype:User', 'credential:6'));
    await snapshotHistory(incremental, '2026-03-02T12:00:00.000Z', '2026-03-02');
    await snapshotHistory(full, '2026-03-02T12:00:00.000Z', '2026-03-02', { full: true });
    expect(await historyOf(incremental)).toEqual(await historyOf(full));
  });
});

describe('the people written, kept across a restart', () => {
  /** The database of `db` opened again as a new window would: nothing of the old window's memory. */
  function reopened(db: FieldbookDb): FieldbookDb {
    db.close();
    const again = openFieldbookDb(db.name);
    dbs.push(again);
    return again;
  }

  async function afterRestart(changes: Change[]) {
    dbs = [freshDb(), freshDb()];
    const [before, full] = dbs as [FieldbookDb, FieldbookDb];
    for (const db of dbs) await seed(db);
    for (const db of dbs) await snapshotHistory(db, `${START}T12:00:00.000Z`, START);
    const day = addDaysIso(START, 3);
    for (const db of dbs) for (const change of changes) await change(db);
    const incremental = reopened(before);
    const readEveryone = vi.spyOn(incremental.users, 'toArray');
    await snapshotHistory(incremental, `${day}T12:00:00.000Z`, day);
    await snapshotHistory(full, `${day}T12:00:00.000Z`, day, { full: true });
    return { readEveryone, incremental: await historyOf(incremental), full: await historyOf(full) };
  }

  it('makes the first snapshot of a new window read only the people written, with the same day', async () => {
    const r = randomOf(11);
    const changes = Array.from({ length: 12 }, () => randomChange(r, START));
    const { readEveryone, incremental, full } = await afterRestart(changes);
    expect(readEveryone).not.toHaveBeenCalled();
    expect(incremental).toEqual(full);
  });

  it('makes the next snapshot read everyone after a write whose people are not known', async () => {
    const { readEveryone, incremental, full } = await afterRestart([(db) => db.groupMembers.clear()]);
    expect(readEveryone).toHaveBeenCalled();
    expect(incremental).toEqual(full);
  });
});

describe('a person written whose head is missing from the history', () => {
  it('writes no day, and the next snapshot reads them from the cache: the history a full snapshot gives', async () => {
    dbs = [freshDb(), freshDb()];
    const [incremental, full] = dbs as [FieldbookDb, FieldbookDb];
    for (const db of dbs) await seed(db);
    for (const db of dbs) await snapshotHistory(db, `${START}T12:00:00.000Z`, START);
    const [day, next] = [addDaysIso(START, 1), addDaysIso(START, 2)];
    for (const db of dbs) {
      await db.users.put(user(5, { status: 'Inactive' }));
      await db.historyHeads.delete(5);
    }
    await expect(snapshotHistory(incremental, `${day}T12:00:00.000Z`, day)).rejects.toThrow(DAY_LEFT_TO_NEXT);
    await snapshotHistory(incremental, `${next}T12:00:00.000Z`, next);
    await snapshotHistory(full, `${next}T12:00:00.000Z`, next, { full: true });
    expect(await historyOf(incremental)).toEqual(await historyOf(full));
  });
});

describe('a day that could not be written', () => {
  it.each([1, 2, 3])(
    'leaves its people to the next snapshot, which reads them from the cache (random days %i)',
    async (n) => {
      dbs = [freshDb(), freshDb()];
      const [failed, full] = dbs as [FieldbookDb, FieldbookDb];
      const r = randomOf(n + 20);
      for (const db of dbs) await seed(db);
      for (const db of dbs) await snapshotHistory(db, `${START}T12:00:00.000Z`, START);
      const days = [addDaysIso(START, 1), addDaysIso(START, 2)];
      const changes = days.map((day) => Array.from({ length: 10 }, () => randomChange(r, day)));
      for (const change of changes[0]!) for (const db of dbs) await change(db);
      vi.spyOn(failed.historySyncs, 'add').mockRejectedValueOnce(new Error('QuotaExceededError'));
      const day = days[0]!;
      await expect(snapshotHistory(failed, `${day}T12:00:00.000Z`, day)).rejects.toThrow('Quota');
      for (const change of changes[1]!) for (const db of dbs) await change(db);
      for (const db of dbs)
        await snapshotHistory(db, `${days[1]}T12:00:00.000Z`, days[1]!, { full: db === full });
      expect(await historyOf(failed)).toEqual(await historyOf(full));
    },
  );
});

describe('a day of more writes than memory keeps (a first sync, a week offline)', () => {
  it('reads the people written from the cache, with the same day', async () => {
    dbs = [freshDb(), freshDb()];
    const [incremental, full] = dbs as [FieldbookDb, FieldbookDb];
    for (const db of dbs) await seed(db);
    for (const db of dbs) await snapshotHistory(db, `${START}T12:00:00.000Z`, START);
    const due = addDaysIso(START, 40);
    const many = Array.from({ length: WRITES_KEPT + 1 }, (_, i) =>
      trainingAssignment(1000 + i, 1 + (i % 30), 7, due),
    );
    for (const db of dbs) await db.trainingAssignments.bulkPut(many);
    const readFromCache = vi.spyOn(incremental.trainingAssignments, 'where');
    const day = addDaysIso(START, 1);
    await snapshotHistory(incremental, `${day}T12:00:00.000Z`, day);
    await snapshotHistory(full, `${day}T12:00:00.000Z`, day, { full: true });
    expect(readFromCache).toHaveBeenCalled();
    expect(await historyOf(incremental)).toEqual(await historyOf(full));
  });
});

describe('two windows taking the snapshot of the same sync at once', () => {
  it('write the day once, and the next sync of the window left out writes its people', async () => {
    dbs = [freshDb(), freshDb()];
    const [overlapping, oneAfterOther] = dbs as [FieldbookDb, FieldbookDb];
    const other = openFieldbookDb(overlapping.name);
    dbs.push(other);
    for (const db of [overlapping, oneAfterOther]) await seed(db);
    for (const db of [overlapping, oneAfterOther]) await snapshotHistory(db, `${START}T12:00:00.000Z`, START);
    const [day, next] = [addDaysIso(START, 2), addDaysIso(START, 3)];
    const r = randomOf(5);
    const changes = [day, next].map((d) => Array.from({ length: 10 }, () => randomChange(r, d)));
    for (const db of [overlapping, oneAfterOther]) for (const change of changes[0]!) await change(db);
    const at = `${day}T12:00:00.000Z`;
    const both = await Promise.allSettled([
      snapshotHistory(overlapping, at, day),
      snapshotHistory(other, at, day),
    ]);
    const left = both.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(left.map((s) => (s.reason as Error).message)).toEqual([DAY_LEFT_TO_NEXT]);
    await snapshotHistory(oneAfterOther, at, day);
    for (const db of [overlapping, oneAfterOther]) for (const change of changes[1]!) await change(db);
    for (const db of [overlapping, oneAfterOther]) await snapshotHistory(db, `${next}T12:00:00.000Z`, next);
    expect(await historyOf(overlapping)).toEqual(await historyOf(oneAfterOther));
  });
});

/**
 * Two databases after a first snapshot, and two days of random changes; `oneAfterOther` has each day's changes
 * written and its snapshot taken, one after the other, `overlapping` none yet.
 */
async function twoDays(randomSeed: number) {
  dbs = [freshDb(), freshDb()];
  const [overlapping, oneAfterOther] = dbs as [FieldbookDb, FieldbookDb];
  for (const db of dbs) await seed(db);
  for (const db of dbs) await snapshotHistory(db, `${START}T12:00:00.000Z`, START);
  const r = randomOf(randomSeed);
  const days = [addDaysIso(START, 1), addDaysIso(START, 2)] as const;
  const changes = days.map((day) => Array.from({ length: 8 }, () => randomChange(r, day)));
  for (const [i, day] of days.entries()) {
    for (const change of changes[i]!) await change(oneAfterOther);
    await snapshotHistory(oneAfterOther, `${day}T12:00:00.000Z`, day);
  }
  return { overlapping, oneAfterOther, days, changes };
}

/** The next day of `db` slow to make: its heads take their time to read. */
function slowHeadsOnce(db: FieldbookDb): void {
  const bulkGet = db.historyHeads.bulkGet.bind(db.historyHeads);
  const slowly = async (keys: number[]) => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    return bulkGet(keys);
  };
  vi.spyOn(db.historyHeads, 'bulkGet').mockImplementationOnce(slowly as typeof bulkGet);
}

describe("a window's next snapshot started before its previous day is written", () => {
  it('starts after that day is written and reads only its own people, with the day one after the other gives', async () => {
    const { overlapping, oneAfterOther, days, changes } = await twoDays(7);
    const readEveryone = vi.spyOn(overlapping.users, 'toArray');
    slowHeadsOnce(overlapping);
    for (const change of changes[0]!) await change(overlapping);
    const first = await startSnapshot(overlapping, `${days[0]}T12:00:00.000Z`, days[0]);
    // the next sync's writes and its snapshot, while the first day is still being made
    for (const change of changes[1]!) await change(overlapping);
    const second = startSnapshot(overlapping, `${days[1]}T12:00:00.000Z`, days[1]);
    await Promise.all([first.written, (await second).written]);
    expect(readEveryone).not.toHaveBeenCalled();
    expect(await historyOf(overlapping)).toEqual(await historyOf(oneAfterOther));
  });
});

describe('writes that land while a day is being made', () => {
  it('are in the next day, even after a restart in between', async () => {
    const { overlapping, oneAfterOther, days, changes } = await twoDays(9);
    slowHeadsOnce(overlapping);
    for (const change of changes[0]!) await change(overlapping);
    const first = await startSnapshot(overlapping, `${days[0]}T12:00:00.000Z`, days[0]);
    for (const change of changes[1]!) await change(overlapping);
    await first.written;
    overlapping.close();
    const again = openFieldbookDb(overlapping.name);
    dbs.push(again);
    await snapshotHistory(again, `${days[1]}T12:00:00.000Z`, days[1]);
    expect(await historyOf(again)).toEqual(await historyOf(oneAfterOther));
  });
});

describe('the snapshots of one window, day after day', () => {
  it('patch the people written from what the window noted, reading none of them from the cache', async () => {
    dbs = [freshDb()];
    const db = dbs[0]!;
    await seed(db);
    await snapshotHistory(db, `${START}T12:00:00.000Z`, START);
    const readPeople = vi.spyOn(db.users, 'bulkGet');
    for (const days of [1, 2]) {
      const day = addDaysIso(START, days);
      const renewed = addDaysIso(day, 365);
      for (const userid of [3, 4, 5])
        await db.credentialAssignments.put(
          credentialAssignment(5, userid + days, '', { expirationIso: renewed }),
        );
      await snapshotHistory(db, `${day}T12:00:00.000Z`, day);
    }
    expect(readPeople.mock.calls.flatMap(([userids]) => userids)).toEqual([]);
  });
});

describe('a snapshot that fails while it reads the cache', () => {
  it(
    "fails, and the window's next snapshot still starts and writes its day",
    { timeout: 5_000 },
    async () => {
      dbs = [freshDb()];
      const db = dbs[0]!;
      await seed(db);
      await snapshotHistory(db, `${START}T12:00:00.000Z`, START);
      vi.spyOn(db.historyWritten, 'toArray').mockRejectedValueOnce(new Error('The disk is full'));
      const day = addDaysIso(START, 1);
      await expect(startSnapshot(db, `${day}T12:00:00.000Z`, day)).rejects.toThrow('The disk is full');
      await snapshotHistory(db, `${day}T13:00:00.000Z`, day);
      expect(await db.historySyncs.count()).toBe(2);
    },
  );
});
