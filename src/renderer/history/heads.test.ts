/** A head's fact, kept in its compact form (history/heads.ts), and the heads a snapshot keeps (database version 13). */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { gzipSync, strToU8 } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { openFieldbookDb, type FieldbookDb } from '../db/index.ts';
import { SCHEMA_V10, SCHEMA_V9 } from '../db/schema.ts';
import { credentialAssignment, SCHEMA_OF_VERSION_8, trainingAssignment, user } from '../testing/fixtures.ts';
import { catalogOf, courseNamesOf, factsOf } from './facts.ts';
import { factText, headFact, packFact } from './heads.ts';
import type { PersonFact } from './rows.ts';
import { snapshotHistory } from './snapshot.ts';
import { readHeadState } from './head-state.ts';

/** A person as `l` has them: a few cards and a score of courses, ids of six or seven digits, dates all over. */
const fact: PersonFact = {
  u: [101, 'ann.lee', 'Ann', 'Lée', 'E00123', 'Active', 'User'],
  g: [4021, 4107],
  c: Array.from({ length: 5 }, (_, i): [string, number, string, string] => [
    `${310 + i * 7}-200123`,
    310 + i * 7,
    i % 2 ? '' : `2024-0${1 + i}-15`,
    `2027-${String(1 + i * 2).padStart(2, '0')}-0${1 + i}`,
  ]),
  t: Array.from({ length: 20 }, (_, i): PersonFact['t'][number] => [
    1_204_000 + i * 373,
    700 + i * 11,
    '',
    i % 3 ? 'active' : 'completed',
    `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + i).padStart(2, '0')}`,
  ]),
};

describe("a head's fact", () => {
  it('reads back as the same text and fact, in under 40 % of the bytes of its text', () => {
    const text = JSON.stringify(fact);
    const head = { fact: packFact(fact) };
    expect(factText(head)).toBe(text);
    expect(headFact(head)).toEqual(fact);
    expect(head.fact.byteLength).toBeLessThan(new TextEncoder().encode(text).length * 0.4);
  });

  it('reads back exactly what looks like a date but is not one, long words, big and odd numbers', () => {
    const odd: PersonFact = {
      u: [-7, 'Ωmega 名前', 'x'.repeat(300), '2026-02-30', '1999-12-31', '2026-1-05', 'Ωmega 名前'],
      g: [0, 30, 31, 2 ** 40, Number.MAX_SAFE_INTEGER],
      c: [
        ['5-1', 5, '2026-03-01T10:00:00Z', '0001-01-01'],
        ['05-1', 5, '5-', '1-2-3'],
        ['9007199254740993-1', 0, '-5-1', '0-0'],
      ],
      t: [[1.5, -0.25, 'Course', 'completed', '2100-12-31']],
    };
    expect(factText({ fact: packFact(odd) })).toBe(JSON.stringify(odd));
  });

  it('refuses a value it cannot give back, rather than keep a head that reads otherwise', () => {
    const broken = { ...fact, g: [Number.NaN] };
    expect(() => packFact(broken)).toThrow('cannot keep');
  });
});

const cache = {
  sites: [{ siteid: 1, sitename: 'Riverside', loginpage: 'r' }],
  users: [user(1), user(2), user(3)],
  groupMembers: [],
  credentialAssignments: [1, 2, 3].map((u) =>
    credentialAssignment(5, u, '', { expirationIso: '2026-03-20' }),
  ),
  trainingAssignments: [1, 2, 3].map((u) => trainingAssignment(70 + u, u, 7, '2026-03-10')),
  courses: [{ courseid: 7, siteid: 1, coursename: 'Course 7', coursetype: null, status: '' }],
};

/** Each person's fact as the cache holds it now, as a head keeps it (the course names the catalog gives left out). */
async function cacheFacts(db: FieldbookDb): Promise<Map<number, PersonFact>> {
  const [sites, courses] = [await db.sites.toArray(), await db.courses.toArray()];
  const names = courseNamesOf(catalogOf({ sites, courses, categories: [], groups: [], credentials: [] }));
  const records = {
    people: await db.users.toArray(),
    memberships: await db.groupMembers.toArray(),
    assignments: await db.credentialAssignments.toArray(),
    training: await db.trainingAssignments.toArray(),
  };
  return factsOf(records, names);
}

const headsOf = async (db: FieldbookDb) =>
  new Map((await db.historyHeads.toArray()).map((h) => [h.userid, headFact(h)]));

let db: FieldbookDb | null = null;
afterEach(() => db?.close());

describe('the heads a snapshot keeps', () => {
  it("hold each person's fact as the cache has it after several days, the others' left as they were", async () => {
    db = openFieldbookDb(`heads-${Math.random().toString(36).slice(2)}`);
    for (const [table, rows] of Object.entries(cache)) await db.table(table).bulkPut(rows);
    await snapshotHistory(db, '2026-03-01T12:00:00.000Z', '2026-03-01');
    const untouched = (await db.historyHeads.get(3))!.fact;
    await db.credentialAssignments.put(credentialAssignment(5, 1, '', { expirationIso: '2027-03-20' }));
    await snapshotHistory(db, '2026-03-02T12:00:00.000Z', '2026-03-02');
    await db.users.put(user(2, { lastname: 'Renamed' }));
    await db.users.put(user(4));
    await snapshotHistory(db, '2026-03-03T12:00:00.000Z', '2026-03-03');
    expect(await headsOf(db)).toEqual(await cacheFacts(db));
    expect((await db.historyHeads.get(3))!.fact).toEqual(untouched);
  });
});

describe('a history whose heads were gzipped (database versions 9 to 12)', () => {
  async function writtenByVersion12(facts: ReadonlyMap<number, PersonFact>): Promise<string> {
    const name = `v12-${Math.random().toString(36).slice(2)}`;
    const v12 = new Dexie(name);
    v12.version(12).stores({ ...SCHEMA_OF_VERSION_8, ...SCHEMA_V9, ...SCHEMA_V10 });
    await v12.open();
    const gzipped = (f: PersonFact) => gzipSync(strToU8(JSON.stringify(f)), { mtime: 0 });
    const heads = [...facts].map(([userid, f]) => ({ userid, fact: gzipped(f), findings: ['Sk5'] }));
    await v12.table('historyHeads').bulkPut(heads);
    v12.close();
    return name;
  }

  it("keeps every person's fact and findings after the upgrade", async () => {
    const named = (userid: number): PersonFact => {
      const [siteid, , ...rest] = fact.u;
      return { ...fact, u: [siteid, `person ${userid}`, ...rest] };
    };
    const facts = new Map([1, 2, 3].map((userid) => [userid, named(userid)]));
    db = openFieldbookDb(await writtenByVersion12(facts));
    expect(await headsOf(db)).toEqual(facts);
    expect([...(await readHeadState(db)).values()].map((h) => h.findings)).toEqual([
      ['Sk5'],
      ['Sk5'],
      ['Sk5'],
    ]);
  });
});
