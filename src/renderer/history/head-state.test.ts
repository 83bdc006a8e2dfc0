/** Everyone's findings and next day in one record, apart from the heads' facts (history/head-state.ts, version 15). */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openFieldbookDb, type FieldbookDb } from '../db/index.ts';
import { SCHEMA_V10, SCHEMA_V14, SCHEMA_V15, SCHEMA_V16, SCHEMA_V9 } from '../db/schema.ts';
import { credentialAssignment, freshDb, SCHEMA_OF_VERSION_8, user } from '../testing/fixtures.ts';
import { requirementRow } from '../features/requirements/model.ts';
import { headFact, packFact, writeVarint } from './heads.ts';
import { KeptStates, packStates, readHeadState, statesOf, type HeadState } from './head-state.ts';
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

  it('keep each finding as its place in a table of keys: one byte each while fewer than 128 keys are held', () => {
    const record = packStates(new Map([[7, { findings: ['Ek5', 'Mk9', 'Oc70011'] }]]));
    expect(record.keys).toEqual(['Ek5', 'Mk9', 'Oc70011']);
    // userid 7, no next day, three findings, their places
    expect([...record.people]).toEqual([7, 0, 3, 0, 1, 2]);
  });

  it('put the most frequent keys first, so that they take the fewest bytes', () => {
    const states = new Map<number, HeadState>([
      [1, { findings: ['Ek5', 'Mk9'] }],
      [2, { findings: ['Mk9'] }],
      [3, { findings: ['Mk9', 'Sc4'] }],
    ]);
    expect(packStates(states).keys).toEqual(['Mk9', 'Ek5', 'Sc4']);
  });

  it("never move a key: new ones go at the table's end, the people not put are kept as they were", () => {
    const record = packStates(
      new Map<number, HeadState>([
        [1, { findings: ['Ek5'], next: '2026-03-21' }],
        [300, { findings: ['Mk9', 'Ek5'] }],
        [40_000, { findings: [] }],
      ]),
    );
    const kept = KeptStates.of(record);
    expect(kept.after(new Map(), [])).toEqual(record);
    const after = kept.after(new Map([[2, { findings: ['Sc4', 'Ek5'], next: '2026-04-01' }]]), [40_000]);
    expect(after.keys).toEqual([...record.keys, 'Sc4']);
    expect(statesOf(after)).toEqual(
      new Map<number, HeadState>([
        [1, { findings: ['Ek5'], next: '2026-03-21' }],
        [2, { findings: ['Sc4', 'Ek5'], next: '2026-04-01' }],
        [300, { findings: ['Mk9', 'Ek5'] }],
      ]),
    );
  });

  it('find the people due on a day by their next day alone: due on it or before, never without one', () => {
    const kept = KeptStates.of(
      packStates(
        new Map<number, HeadState>([
          [1, { findings: ['Sk5'], next: '2026-03-20' }],
          [2, { findings: [], next: '2026-03-21' }],
          [3, { findings: ['Ek5'], next: '2026-03-22' }],
          [4, { findings: ['Ek5'] }],
        ]),
      ),
    );
    expect(kept.dueOn('2026-03-21')).toEqual([1, 2]);
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

describe('a history whose findings record kept each finding as its text (database versions 15 and 16)', () => {
  /** The version 15 record's bytes: userid, next day + 1, how many findings, each one's length and text. */
  function version15Bytes(states: ReadonlyMap<number, { findings: string[]; next?: number }>): Uint8Array {
    const out: number[] = [];
    for (const [userid, { findings, next }] of states) {
      for (const n of [userid, next === undefined ? 0 : next + 1, findings.length]) writeVarint(out, n);
      for (const f of findings) out.push(f.length, ...[...f].map((c) => c.charCodeAt(0)));
    }
    return Uint8Array.from(out);
  }

  it("keeps every person's findings and next day after the upgrade", async () => {
    const name = `v16-${Math.random().toString(36).slice(2)}`;
    const v16 = new Dexie(name);
    const schema = { ...SCHEMA_OF_VERSION_8, ...SCHEMA_V9, ...SCHEMA_V10, ...SCHEMA_V14 };
    v16.version(16).stores({ ...schema, ...SCHEMA_V15, ...SCHEMA_V16 });
    await v16.open();
    // day 9,576 from 2000-01-01 is 2026-03-21
    const old = new Map([
      [3, { findings: ['Ek5', 'Oc70011'], next: 9_576 }],
      [1, { findings: [] }],
      [70_000, { findings: ['Mk9'] }],
    ]);
    await v16.table('historyHeadState').put({ id: 1, people: version15Bytes(old) });
    v16.close();
    db = openFieldbookDb(name);
    expect(await readHeadState(db)).toEqual(
      new Map<number, HeadState>([
        [1, { findings: [] }],
        [3, { findings: ['Ek5', 'Oc70011'], next: '2026-03-21' }],
        [70_000, { findings: ['Mk9'] }],
      ]),
    );
  });
});
