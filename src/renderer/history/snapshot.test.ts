/**
 * A snapshot recomputes only the people written since the previous one and those whose findings change with the
 * date (history/touched.ts): on random changes over random days, its history equals the history of snapshots that
 * recompute everyone.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { FieldbookDb } from '../db/index.ts';
import { credentialAssignment, freshDb, trainingAssignment, user } from '../testing/fixtures.ts';
import { requirementRow } from '../features/requirements/model.ts';
import { addDaysIso } from '../../shared/dates.ts';
import { snapshotHistory } from './snapshot.ts';
import { readPeopleRows } from './packs.ts';

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
  };
}

let dbs: FieldbookDb[] = [];
afterEach(() => {
  for (const db of dbs) db.close();
  dbs = [];
});

describe('a snapshot of the people written since the previous one', () => {
  it.each([1, 2, 3, 4, 5, 6])(
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
