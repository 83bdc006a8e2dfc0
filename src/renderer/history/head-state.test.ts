/** Everyone's findings and next day in one record, apart from the heads' facts (history/head-state.ts, version 15). */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openFieldbookDb, type FieldbookDb } from '../db/index.ts';
import { SCHEMA_V10, SCHEMA_V14, SCHEMA_V9 } from '../db/schema.ts';
import { credentialAssignment, freshDb, SCHEMA_OF_VERSION_8, user } from '../testing/fixtures.ts';
import { requirementRow } from '../features/requirements/model.ts';
import { headFact, packFact } from './heads.ts';
import { packStates, readHeadState, statesOf, type HeadState } from './head-state.ts';
import { readPeopleRows } from './packs.ts';
import type { PersonFact } from './rows.ts';
import { snapshotHistory } from './snapshot.ts';

const factOf = (userid: number): PersonFact => ({
  u: [1, `person.${userid}`, 'Ann', 'Lée', '', 'Active', 'User'],
  g: [4021],
  c: [[`5-${userid}`, 5, '', '2026-03-20']],
  t: [],
});

describe("everyone's findings and next day, kept in one record", () => {
  it('read back as written, findings in any script, a person without a next day included', () => {
    const states = new Map<number, HeadState>([
      [1, { findings: ['Ek5', 'Oc70011'], next: '2026-03-21' }],
      [987_654_321, { findings: [] }],
      [3, { findings: ['Ω名'], next: '2099-12-31' }],
    ]);
    expect(statesOf(packStates(states))).toEqual(states);
  });

  it('refuse a next day that would not read back the same', () => {
    expect(() => packStates(new Map([[1, { findings: [], next: '2026-02-30' }]]))).toThrow('cannot keep');
  });
});

let db: FieldbookDb | null = null;
afterEach(() => {
  db?.close();
  vi.restoreAllMocks();
});

describe('a person whose findings change with the date alone', () => {
  it('gets their new findings in the history without their head being written again', async () => {
    db = freshDb();
    await db.sites.put({ siteid: 1, sitename: 'Riverside', loginpage: 'r' });
    await db.users.bulkPut([user(1), user(2)]);
    await db.credentialAssignments.bulkPut([
      credentialAssignment(5, 1, '', { expirationIso: '2026-03-20' }),
      credentialAssignment(5, 2, '', { expirationIso: '2027-03-20' }),
    ]);
    await db.requirements.put(requirementRow('site:1', 'credential:5'));
    await snapshotHistory(db, '2026-03-01T12:00:00.000Z', '2026-03-01');
    const written: number[] = [];
    const bulkPut = db.historyHeads.bulkPut.bind(db.historyHeads);
    vi.spyOn(db.historyHeads, 'bulkPut').mockImplementation((rows, ...rest) => {
      written.push(...rows.map((r) => r.userid ?? 0));
      return bulkPut(rows, ...rest);
    });
    await db.users.put(user(2, { lastname: 'Renamed' }));
    await snapshotHistory(db, '2026-03-21T12:00:00.000Z', '2026-03-21');
    const lastDay = (await readPeopleRows(db)).filter((row) => row.userid === 1).at(-1);
    expect(lastDay).toMatchObject({ a: ['Ek5'], r: ['Sk5'] });
    expect((await readHeadState(db)).get(1)?.findings).toEqual(['Ek5']);
    expect(written).toEqual([2]);
  });
});

describe('a history whose heads kept their findings and next day (database versions 8 to 14)', () => {
  async function writtenByVersion14(userids: readonly number[]): Promise<string> {
    const name = `v14-${Math.random().toString(36).slice(2)}`;
    const v14 = new Dexie(name);
    v14.version(14).stores({ ...SCHEMA_OF_VERSION_8, ...SCHEMA_V9, ...SCHEMA_V10, ...SCHEMA_V14 });
    await v14.open();
    await v14.table('historyHeads').bulkPut(
      userids.map((userid) => ({
        userid,
        fact: packFact(factOf(userid)),
        findings: userid % 2 ? ['Sk5'] : [],
        ...(userid % 3 ? { next: '2026-03-21' } : {}),
      })),
    );
    v14.close();
    return name;
  }

  it("keeps every person's fact, findings and next day after the upgrade", async () => {
    const userids = Array.from({ length: 40 }, (_, i) => i * 37 + 1);
    db = openFieldbookDb(await writtenByVersion14(userids));
    const states = await readHeadState(db);
    const heads = await db.historyHeads.toArray();
    expect(new Map(heads.map((h) => [h.userid, headFact(h)]))).toEqual(
      new Map(userids.map((u) => [u, factOf(u)])),
    );
    expect(states).toEqual(
      new Map(
        userids.map((u) => [u, { findings: u % 2 ? ['Sk5'] : [], ...(u % 3 ? { next: '2026-03-21' } : {}) }]),
      ),
    );
  });
});
