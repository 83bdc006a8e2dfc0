/**
 * The history's snapshot at the end of a completed sync: the day's figures, the
 * people who (or whose findings) changed since the previous snapshot, and the names
 * and requirements when they changed, all written in one transaction, so a day is
 * there whole or not at all. Read from the cache as the sync left it: changes still
 * in the Outbox are not on the platform yet and are not history.
 */
import type { Table } from 'dexie';
import type { FieldbookDb } from '../db/index.ts';
import type { ReportInput } from '../features/report/model.ts';
import { catalogOf, courseNamesOf, factsOf, type Catalog } from './facts.ts';
import { adjustFigures, dayFigures, findingsByPerson, nextDateChange } from './figures.ts';
import { snapshotFailed, snapshotTaken, takeTouched } from './touched.ts';
import type { RequirementRow } from '../features/requirements/model.ts';
import type { UserRecord } from '../../shared/records.ts';
import { factChange } from './change.ts';
import { packRows } from './packs.ts';
import { factText, headFact, packFact } from './heads.ts';
import type {
  HistoryHeadRow,
  HistoryPersonRow,
  HistorySharedRow,
  HistorySyncRow,
  PersonFact,
  ScopeFigures,
} from './rows.ts';

/** What changed for the history since the previous snapshot. Pure. */
export interface PeopleChanges {
  rows: Omit<HistoryPersonRow, 'seq'>[];
  put: HistoryHeadRow[];
  gone: number[];
}

const minus = (a: readonly string[], b: readonly string[]) => {
  const other = new Set(b);
  return a.filter((x) => !other.has(x));
};
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** The findings that appeared and went away, as a row holds them (absent: none). */
function findingsChange(was: readonly string[], now: readonly string[]): Pick<HistoryPersonRow, 'a' | 'r'> {
  const [a, r] = [minus(now, was), minus(was, now)];
  return { ...(a.length > 0 ? { a } : {}), ...(r.length > 0 ? { r } : {}) };
}

/**
 * The row of a person no longer in the cache: gone from the platform, or (their site no longer among the sites the
 * cache holds) from this laptop only, whose open findings are then not resolved.
 */
function goneRow(head: HistoryHeadRow, held: ReadonlySet<number>): Omit<HistoryPersonRow, 'seq'> {
  const siteid = headFact(head).u[0];
  if (!held.has(siteid)) return { userid: head.userid, gone: 'laptop' };
  return { userid: head.userid, gone: 'platform', ...findingsChange(head.findings, []) };
}

/** The row of a person in the cache, or null when neither they nor their findings changed. */
function changedRow(
  userid: number,
  head: HistoryHeadRow | undefined,
  was: string | undefined,
  fact: PersonFact,
  text: string,
  now: readonly string[],
): Omit<HistoryPersonRow, 'seq'> | null {
  if (head && was === text && sameList(head.findings, now)) return null;
  const before = head && was !== text ? (JSON.parse(was!) as PersonFact) : undefined;
  const change = !head ? factChange(undefined, fact) : before ? factChange(before, fact) : {};
  return { userid, ...change, ...findingsChange(head?.findings ?? [], now) };
}

/**
 * The rows to write: a person new, changed, whose findings changed, or gone; the others write nothing. `heads`: the
 * heads of every person the snapshot looked at; `held`: the sites the cache holds; `day`: the snapshot's, from which
 * each head's next day of a change with the date alone is counted (a head is rewritten when only that moved).
 */
export function peopleChanges(
  heads: readonly HistoryHeadRow[],
  facts: ReadonlyMap<number, PersonFact>,
  findings: ReadonlyMap<number, readonly string[]>,
  held: ReadonlySet<number>,
  day: string,
): PeopleChanges {
  const before = new Map(heads.map((h) => [h.userid, h]));
  const out: PeopleChanges = { rows: [], put: [], gone: [] };
  for (const [userid, fact] of facts) {
    const text = JSON.stringify(fact);
    const now = [...(findings.get(userid) ?? [])];
    const head = before.get(userid);
    const was = head && factText(head);
    const row = changedRow(userid, head, was, fact, text, now);
    const next = nextDateChange(fact, day);
    if (row) out.rows.push(row);
    if (row || head?.next !== next)
      out.put.push({
        userid,
        fact: head && was === text ? head.fact : packFact(text),
        findings: now,
        ...(next ? { next } : {}),
      });
  }
  for (const head of heads) {
    if (facts.has(head.userid)) continue;
    out.rows.push(goneRow(head, held));
    out.gone.push(head.userid);
  }
  return out;
}

/** The whole cache as the report reads it (every person, any status). */
export async function cacheInput(db: FieldbookDb): Promise<{ input: ReportInput; catalog: Catalog }> {
  const [
    people,
    memberships,
    assignments,
    training,
    sites,
    categories,
    groups,
    credentials,
    courses,
    requirements,
  ] = await Promise.all([
    db.users.toArray(),
    db.groupMembers.toArray(),
    db.credentialAssignments.toArray(),
    db.trainingAssignments.toArray(),
    db.sites.toArray(),
    db.profileCategories.toArray(),
    db.groups.toArray(),
    db.credentials.toArray(),
    db.courses.toArray(),
    db.requirements.toArray(),
  ]);
  const input = {
    people,
    memberships,
    assignments,
    training,
    categories,
    groups,
    credentials,
    courses,
    requirements,
  };
  return { input, catalog: catalogOf({ sites, categories, groups, credentials, courses }) };
}

/** The latest names or requirements the history holds, as JSON text (null: none yet). */
async function latestShared(db: FieldbookDb, kind: HistorySharedRow['kind']): Promise<string | null> {
  const row = await db.historyShared
    .orderBy('id')
    .reverse()
    .filter((r) => r.kind === kind)
    .first();
  return row?.value ?? null;
}

/** The day as the snapshot writes it: the figures, the people's changes, the names and requirements when new. */
interface Day {
  figures: ScopeFigures[];
  changes: PeopleChanges;
  catalog: string;
  requirements: string;
}

const HISTORY_TABLES = (db: FieldbookDb) => [
  db.historySyncs,
  db.historyPacks,
  db.historyHeads,
  db.historyShared,
];

/** Writes the day (inside the caller's transaction); returns its sync's seq. */
async function writeDay(db: FieldbookDb, at: string, day: string, written: Day): Promise<number> {
  const seq = (await db.historySyncs.add({ at, day, figures: written.figures }))!;
  await db.historyPacks.bulkAdd(packRows(written.changes.rows, seq));
  await db.historyHeads.bulkPut(written.changes.put);
  await db.historyHeads.bulkDelete(written.changes.gone);
  for (const [kind, value] of [
    ['catalog', written.catalog],
    ['requirements', written.requirements],
  ] as const)
    if ((await latestShared(db, kind)) !== value) await db.historyShared.add({ seq, kind, value });
  return seq;
}

const sortedRequirements = (rows: readonly RequirementRow[]) =>
  [...rows].sort((a, b) => a.id.localeCompare(b.id));
const heldOf = (catalog: Catalog) => new Set(catalog.s.map(([siteid]) => siteid));

/** The snapshot from the whole cache: every person's facts and findings, every head compared. */
async function fullSnapshot(db: FieldbookDb, at: string, day: string): Promise<number> {
  const { input, catalog } = await cacheInput(db);
  const facts = factsOf(input, courseNamesOf(catalog));
  const findings = findingsByPerson(input, day);
  const held = heldOf(catalog);
  const figures = dayFigures(input, day, held, findings);
  const [catalogText, requirements] = [
    JSON.stringify(catalog),
    JSON.stringify(sortedRequirements(input.requirements)),
  ];
  return db.transaction('rw', HISTORY_TABLES(db), async () => {
    const changes = peopleChanges(await db.historyHeads.toArray(), facts, findings, held, day);
    return writeDay(db, at, day, { figures, changes, catalog: catalogText, requirements });
  });
}

/**
 * The records of some people, by the `userid` index, one range a person: a set of keys (`anyOf`) walks the
 * index with a cursor, which took seconds for a hundred people in the tests' database.
 */
async function byUser<T, K, I>(table: Table<T, K, I>, userids: readonly number[]): Promise<T[]> {
  return (await Promise.all(userids.map((id) => table.where('userid').equals(id).toArray()))).flat();
}

/** The records of some people, as the report reads them (their names are not needed: findings are compared by key). */
async function peopleInput(
  db: FieldbookDb,
  userids: number[],
  requirements: RequirementRow[],
): Promise<ReportInput> {
  const [people, memberships, assignments, training] = await Promise.all([
    db.users.bulkGet(userids),
    byUser(db.groupMembers, userids),
    byUser(db.credentialAssignments, userids),
    byUser(db.trainingAssignments, userids),
  ]);
  const found = people.filter((p): p is UserRecord => p !== undefined);
  return {
    people: found,
    memberships,
    assignments,
    training,
    requirements,
    categories: [],
    groups: [],
    credentials: [],
    courses: [],
  };
}

/** The names and requirements of the cache now, as the history keeps them. */
async function namesNow(db: FieldbookDb) {
  const [sites, categories, groups, credentials, courses, requirements] = await Promise.all([
    db.sites.toArray(),
    db.profileCategories.toArray(),
    db.groups.toArray(),
    db.credentials.toArray(),
    db.courses.toArray(),
    db.requirements.toArray(),
  ]);
  const catalog = catalogOf({ sites, categories, groups, credentials, courses });
  return { catalog, requirements: sortedRequirements(requirements) };
}

/**
 * The snapshot from the people written since the previous one (`touched`) and those whose findings may change with
 * the date today, the others' figures carried over; null when it cannot be taken so (the notes are not known, the
 * names or requirements changed, the day went back): the snapshot is then a full one.
 */
async function incrementalSnapshot(
  db: FieldbookDb,
  at: string,
  day: string,
  last: HistorySyncRow | undefined,
  touched: ReadonlySet<number> | null,
): Promise<number | null> {
  if (!touched || !last || last.day > day) return null;
  const { catalog, requirements } = await namesNow(db);
  const [catalogText, requirementsText] = [JSON.stringify(catalog), JSON.stringify(requirements)];
  if ((await latestShared(db, 'catalog')) !== catalogText) return null;
  if ((await latestShared(db, 'requirements')) !== requirementsText) return null;
  const due = (await db.historyHeads.where('next').belowOrEqual(day).primaryKeys()) as number[];
  const userids = [...new Set([...touched, ...due])];
  const input = await peopleInput(db, userids, requirements);
  const facts = factsOf(input, courseNamesOf(catalog));
  const findings = findingsByPerson(input, day);
  return db.transaction('rw', HISTORY_TABLES(db), async () => {
    // another snapshot came in between: what it carried over is not this one's base
    if ((await db.historySyncs.orderBy('seq').last())?.seq !== last.seq) return null;
    const heads = (await db.historyHeads.bulkGet(userids)).filter(
      (h): h is HistoryHeadRow => h !== undefined,
    );
    const changes = peopleChanges(heads, facts, findings, heldOf(catalog), day);
    const counted = (h: Pick<HistoryHeadRow, 'fact' | 'findings'>) => ({
      fact: headFact(h),
      findings: h.findings,
    });
    const moved = new Set([...changes.put.map((h) => h.userid), ...changes.gone]);
    const figures = adjustFigures(
      last.figures,
      heads.filter((h) => moved.has(h.userid)).map(counted),
      changes.put.map(counted),
    );
    return writeDay(db, at, day, { figures, changes, catalog: catalogText, requirements: requirementsText });
  });
}

/**
 * Takes the snapshot of a completed sync that ended `at`, counted for the local day `day`: from the people written
 * since the previous snapshot of this window (history/touched.ts) where that is known, else (or with `full`) from
 * the whole cache. Both give the same day (snapshot.test.ts compares them on random changes).
 */
export async function snapshotHistory(
  db: FieldbookDb,
  at: string,
  day: string,
  options: { full?: boolean } = {},
): Promise<void> {
  const last = await db.historySyncs.orderBy('seq').last();
  const touched = takeTouched(db.memory, last?.seq ?? null);
  try {
    const seq =
      (await incrementalSnapshot(db, at, day, last, options.full ? null : touched)) ??
      (await fullSnapshot(db, at, day));
    snapshotTaken(db.memory, seq);
  } catch (e) {
    snapshotFailed(db.memory);
    throw e;
  }
}
