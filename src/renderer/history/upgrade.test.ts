/**
 * A history written by the builds before database version 9 (rows unpacked, findings in the report's words, every
 * training's course name), opened by this build: every day rebuilds as before and the next sync, with nothing
 * changed, writes nobody.
 */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { openFieldbookDb, type FieldbookDb } from '../db/index.ts';
import { credentialAssignment, SCHEMA_OF_VERSION_8, trainingAssignment, user } from '../testing/fixtures.ts';
import { buildReport } from '../features/report/build.ts';
import { catalogOf, factsOf, inputOf } from './facts.ts';
import { historyOptions } from './figures.ts';
import { readPeopleRows } from './packs.ts';
import { loadDay } from './rebuild.ts';
import { snapshotHistory } from './snapshot.ts';
import { readHeadState } from './head-state.ts';
import { compactFindingKey } from './upgrade.ts';

const cache = {
  sites: [{ siteid: 1, sitename: 'Riverside', loginpage: 'r' }],
  users: [user(1)],
  groupMembers: [],
  credentialAssignments: [credentialAssignment(5, 1, '', { expirationIso: '2026-03-20' })],
  trainingAssignments: [trainingAssignment(70, 1, 7, '2026-03-10')],
  courses: [{ courseid: 7, siteid: 1, coursename: 'Course 7', coursetype: null, status: '' }],
};
const records = {
  people: cache.users,
  memberships: [],
  assignments: cache.credentialAssignments,
  training: cache.trainingAssignments,
};
const catalog = catalogOf({ ...cache, categories: [], groups: [], credentials: [] });
/** the fact as the builds before version 9 kept it: the course's name in each training */
const oldFact = factsOf(records).get(1)!;
const OLD_FINDINGS = ['Expires soon|credential:5', 'Training due soon|course:7'];

async function writtenByVersion8(): Promise<string> {
  const name = `v8-${Math.random().toString(36).slice(2)}`;
  const v8 = new Dexie(name);
  v8.version(8).stores(SCHEMA_OF_VERSION_8);
  await v8.open();
  for (const [table, rows] of Object.entries(cache)) await v8.table(table).bulkPut(rows);
  await v8.table('historySyncs').add({ at: '2026-03-01T12:00:00.000Z', day: '2026-03-01', figures: [] });
  await v8.table('historyPeople').add({ seq: 1, userid: 1, ...oldFact, a: OLD_FINDINGS });
  await v8.table('historyHeads').put({ userid: 1, fact: JSON.stringify(oldFact), findings: OLD_FINDINGS });
  await v8.table('historyShared').bulkAdd([
    { seq: 1, kind: 'catalog', value: JSON.stringify(catalog) },
    { seq: 1, kind: 'requirements', value: '[]' },
  ]);
  v8.close();
  return name;
}

async function upgraded(): Promise<FieldbookDb> {
  const db = openFieldbookDb(await writtenByVersion8());
  await db.open();
  return db;
}

describe('a history written before database version 9', () => {
  it('keeps each row, packed, with short finding keys and without the names the day gives', async () => {
    const db = await upgraded();
    expect(await readPeopleRows(db)).toEqual([
      {
        id: 1,
        seq: 1,
        userid: 1,
        ...oldFact,
        t: [[70, 7, '', 'active', '2026-03-10']],
        a: ['Sk5', 'Dc7'],
      },
    ]);
    db.close();
  });

  it("rebuilds the day's report as before, the course named by the day's names", async () => {
    const db = await upgraded();
    const rebuilt = await loadDay(db, '2026-03-01');
    const report = buildReport(
      inputOf(rebuilt.facts, rebuilt.catalog, rebuilt.requirements),
      historyOptions('2026-03-01'),
    );
    const findings = report.sections.flatMap((s) => s.rows.flatMap((r) => r.findings));
    expect(findings.map((f) => f.type).sort()).toEqual(['Expires soon', 'Training due soon']);
    expect(findings.find((f) => f.type === 'Training due soon')?.item).toBe('Course 7');
    db.close();
  });

  it('writes nobody at the next sync when nothing changed (its heads are in the new encoding too)', async () => {
    const db = await upgraded();
    await snapshotHistory(db, '2026-03-05T12:00:00.000Z', '2026-03-05');
    expect(await readPeopleRows(db)).toHaveLength(1);
    expect((await readHeadState(db)).get(1)?.findings).toEqual(['Dc7', 'Sk5']);
    db.close();
  });
});

describe("an older build's finding key", () => {
  it('becomes the short key of the same finding, and a short key stays as it is', () => {
    expect(compactFindingKey('Training overdue|course:12')).toBe('Oc12');
    expect(compactFindingKey('Missing|credential:5')).toBe('Mk5');
    expect(compactFindingKey('Mk5')).toBe('Mk5');
  });
});
