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
import {
  catalogOf,
  courseNamesOf,
  EMPTY_CATALOG,
  factsOf,
  inputOf,
  withoutCourseNames,
  type Catalog,
} from './facts.ts';
import { adjustFigures, dayFigures, findingsByPerson, nextFindingsChange } from './figures.ts';
import { snapshotFailed, snapshotTaken, takeTouched, type Touched } from './touched.ts';
import { patchFact } from './written.ts';
import type { RequirementRow } from '../features/requirements/model.ts';
import type { UserRecord } from '../../shared/records.ts';
import { factChange, findingsChange, sameFact as sameFacts } from './change.ts';
import { appendRows } from './packs.ts';
import { keptFigures, syncOf } from './sync-figures.ts';
import { headFact, packFact } from './heads.ts';
import { readKeptStates, withState, writeHeads, type KeptStates } from './head-state.ts';
import { keptShared, sharedOf } from './shared-rows.ts';
import { phaseEnded } from './phases.ts';
import type {
  HistoryHeadRow,
  KeptHeadRow,
  HistoryPersonRow,
  HistorySharedRow,
  KeptSyncRow,
  PersonFact,
  ScopeFigures,
} from './rows.ts';

/** What changed for the history since the previous snapshot. Pure. */
export interface PeopleChanges {
  rows: Omit<HistoryPersonRow, 'seq'>[];
  put: HistoryHeadRow[];
  gone: number[];
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

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
  sameFact: boolean,
  fact: PersonFact,
  now: readonly string[],
  factOf: (head: HistoryHeadRow) => PersonFact,
): Omit<HistoryPersonRow, 'seq'> | null {
  if (head && sameFact && sameList(head.findings, now)) return null;
  const before = head && !sameFact ? factOf(head) : undefined;
  const change = !head ? factChange(undefined, fact) : before ? factChange(before, fact) : {};
  return { userid, ...change, ...findingsChange(head?.findings ?? [], now) };
}

/** What the people's changes are counted against: the sites the cache holds and the day. */
export interface ChangesContext {
  held: ReadonlySet<number>;
  day: string;
  /** a head's fact, where the caller has it parsed already */
  factOf?: (head: HistoryHeadRow) => PersonFact;
  /** whether a fact is the head's own, read from it (a person due by date alone): the same without comparing */
  isHeadsOwn?: (head: HistoryHeadRow, fact: PersonFact) => boolean;
}

/**
 * The rows to write: a person new, changed, whose findings changed, or gone; the others write nothing. `heads`: the
 * heads of every person the snapshot looked at; each head's next day of a change of findings with the date alone is
 * counted from the snapshot's day (a head is rewritten when only that moved).
 */
export function peopleChanges(
  heads: readonly HistoryHeadRow[],
  facts: ReadonlyMap<number, PersonFact>,
  findings: ReadonlyMap<number, readonly string[]>,
  { held, day, factOf = headFact, isHeadsOwn = () => false }: ChangesContext,
): PeopleChanges {
  const before = new Map(heads.map((h) => [h.userid, h]));
  const out: PeopleChanges = { rows: [], put: [], gone: [] };
  for (const [userid, fact] of facts) {
    const now = [...(findings.get(userid) ?? [])];
    const head = before.get(userid);
    const sameFact = !!head && (isHeadsOwn(head, fact) || sameFacts(factOf(head), fact));
    const row = changedRow(userid, head, sameFact, fact, now, factOf);
    const next = nextFindingsChange(fact, day);
    if (row) out.rows.push(row);
    if (row || head?.next !== next)
      out.put.push({
        userid,
        fact: head && sameFact ? head.fact : packFact(fact),
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
  return row ? sharedOf(row).value : null;
}

/** The day as the snapshot writes it: the figures, the people's changes, the names and requirements when new. */
interface Day {
  figures: ScopeFigures[];
  changes: PeopleChanges;
  /** the heads the changes were counted against: everyone's findings and next day, the facts read by person */
  heads: KeptHeads;
  catalog: string;
  requirements: string;
  /** the last row of the people written the snapshot took (history/touched.ts): those up to it are done */
  taken: number;
  /** the names and requirements are known to be the history's latest (an incremental snapshot checked) */
  sharedKept?: true;
}

/** The heads as read: everyone's findings and next day, and the facts read, by person. */
interface KeptHeads {
  states: KeptStates;
  facts: ReadonlyMap<number, Uint8Array>;
}

/** The heads of some people as a snapshot compares with, and what was read of them. */
function keptHeads(rows: readonly (KeptHeadRow | undefined)[], states: KeptStates) {
  const read = defined(rows);
  const facts = new Map(read.map((row) => [row.userid, row.fact]));
  return { heads: read.map((row) => withState(row, states)), kept: { states, facts } };
}

const HISTORY_TABLES = (db: FieldbookDb) => [
  db.historySyncs,
  db.historyPacks,
  db.historyHeads,
  db.historyHeadState,
  db.historyShared,
  db.historyWritten,
];

/** Writes the day (inside the caller's transaction); returns its sync's seq. */
async function writeDay(db: FieldbookDb, at: string, day: string, written: Day): Promise<number> {
  const seq = (await db.historySyncs.add({ at, day, figures: keptFigures(written.figures) }))!;
  await appendRows(db, written.changes.rows, seq);
  phaseEnded('packs', written.changes.rows.length);
  const { states, facts } = written.heads;
  phaseEnded('heads written', await writeHeads(db, states, facts, written.changes));
  await db.historyWritten.where(':id').belowOrEqual(written.taken).delete();
  phaseEnded('notes cleared');
  if (written.sharedKept) return seq;
  for (const [kind, value] of [
    ['catalog', written.catalog],
    ['requirements', written.requirements],
  ] as const)
    if ((await latestShared(db, kind)) !== value)
      await db.historyShared.add(keptShared({ seq, kind, value }));
  return seq;
}

const sortedRequirements = (rows: readonly RequirementRow[]) =>
  [...rows].sort((a, b) => a.id.localeCompare(b.id));
const heldOf = (catalog: Catalog) => new Set(catalog.s.map(([siteid]) => siteid));

/** The snapshot from the whole cache: every person's facts and findings, every head compared. */
async function fullSnapshot(db: FieldbookDb, at: string, day: string, taken: number): Promise<number> {
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
    const [rows, states] = await Promise.all([db.historyHeads.toArray(), readKeptStates(db)]);
    const { heads, kept } = keptHeads(rows, states);
    const changes = peopleChanges(heads, facts, findings, { held, day });
    return writeDay(db, at, day, {
      figures,
      changes,
      heads: kept,
      catalog: catalogText,
      requirements,
      taken,
    });
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

/** The people looked at by an incremental snapshot: their heads, their facts now and their findings on the day. */
interface Looked {
  heads: HistoryHeadRow[];
  facts: Map<number, PersonFact>;
  findings: Map<number, readonly string[]>;
  /** the heads' facts, each read once */
  was: Map<number, PersonFact>;
}

/** A head's fact, read once for the whole snapshot. */
function wasOf(looked: Pick<Looked, 'was'>, head: HistoryHeadRow): PersonFact {
  const known = looked.was.get(head.userid);
  if (known) return known;
  const fact = headFact(head);
  looked.was.set(head.userid, fact);
  return fact;
}

const defined = <T>(rows: readonly (T | undefined)[]): T[] => rows.filter((r): r is T => r !== undefined);

/** What a person's facts and findings are read with: the requirements, the day and the catalog's course names. */
interface PeopleContext {
  requirements: RequirementRow[];
  day: string;
  courseNames: ReadonlyMap<number, string>;
}

/**
 * The people written since the previous snapshot: their heads (read before), and their facts now patched with what
 * was written (history/written.ts), read from the cache only for those without a head (new, or back) or whose writes
 * this window does not know (history/touched.ts), and their findings.
 */
async function writtenPeople(
  db: FieldbookDb,
  touched: Touched,
  heads: HistoryHeadRow[],
  { requirements, day, courseNames }: PeopleContext,
): Promise<Looked> {
  const userids = [...touched.userids];
  const looked = { was: new Map<number, PersonFact>() };
  const facts = new Map<number, PersonFact>();
  const patched = new Set<number>();
  for (const head of heads) {
    const writes = touched.writes.get(head.userid);
    if (!writes) continue;
    patched.add(head.userid);
    const fact = patchFact(wasOf(looked, head), writes);
    // the entries written keep the name of their course; a fact leaves out those the catalog gives (facts.ts)
    if (fact) facts.set(head.userid, { ...fact, t: withoutCourseNames(fact.t, courseNames) });
  }
  phaseEnded('heads patched', patched.size);
  const unknown = userids.filter((userid) => !patched.has(userid));
  const input = await peopleInput(db, unknown, requirements);
  phaseEnded('cache read', unknown.length);
  const read = factsOf(input, courseNames);
  for (const [userid, fact] of read) facts.set(userid, fact);
  const findings = findingsByPerson(inputOf(facts, EMPTY_CATALOG, requirements), day);
  phaseEnded('findings', facts.size);
  return { heads, facts, findings, ...looked };
}

/**
 * Adds the people due by date and not written (their head's `next` is the day or before): their fact is their head's,
 * their findings are computed from it on the day (all of them at once), without reading the cache; how many.
 */
function addDue(
  looked: Looked,
  due: readonly HistoryHeadRow[],
  requirements: readonly RequirementRow[],
  day: string,
): number {
  const written = new Set(looked.heads.map((h) => h.userid));
  const facts = new Map<number, PersonFact>();
  for (const head of due) {
    if (written.has(head.userid)) continue;
    looked.heads.push(head);
    facts.set(head.userid, wasOf(looked, head));
  }
  const findings = findingsByPerson(inputOf(facts, EMPTY_CATALOG, requirements), day);
  for (const [userid, fact] of facts) {
    looked.facts.set(userid, fact);
    looked.findings.set(userid, findings.get(userid)!);
  }
  return facts.size;
}

/** The figures of the previous snapshot with the people whose head changed counted again. */
function figuresAfter(last: KeptSyncRow, looked: Looked, changes: PeopleChanges): ScopeFigures[] {
  const moved = new Set([...changes.put.map((h) => h.userid), ...changes.gone]);
  const was = looked.heads
    .filter((h) => moved.has(h.userid))
    .map((h) => ({ fact: wasOf(looked, h), findings: h.findings }));
  const now = changes.put.map((h) => ({ fact: looked.facts.get(h.userid)!, findings: h.findings }));
  return adjustFigures(syncOf(last).figures, was, now);
}

/** What happened since the previous snapshot (`last`): the people written (null: not known), up to the row `taken`. */
interface Since {
  last: KeptSyncRow | undefined;
  touched: Touched | null;
  taken: number;
}

/**
 * The snapshot from the people written since the previous one (`touched`) and those whose findings change with
 * the date today (from their heads), the others' figures carried over; null when it cannot be taken so (the notes
 * are not known, the names or requirements changed, the day went back): the snapshot is then a full one. The heads
 * are read (all reads at once) and the day made before its transaction, which then only checks that no other snapshot
 * came in between (their base would not be this one's) and writes: the sync's own writes wait less on it.
 */
async function incrementalSnapshot(
  db: FieldbookDb,
  at: string,
  day: string,
  { last, touched, taken }: Since,
): Promise<number | null> {
  if (!touched || !last || last.day > day) return null;
  const userids = [...touched.userids];
  const [{ catalog, requirements }, touchedHeads, states] = await Promise.all([
    namesNow(db),
    db.historyHeads.bulkGet(userids),
    readKeptStates(db),
  ]);
  const dueHeads = await db.historyHeads.bulkGet(states.dueOn(day));
  const { heads, kept } = keptHeads([...touchedHeads, ...dueHeads], states);
  const due = heads.splice(defined(touchedHeads).length);
  phaseEnded('heads read', heads.length + due.length);
  const [catalogText, requirementsText] = [JSON.stringify(catalog), JSON.stringify(requirements)];
  if ((await latestShared(db, 'catalog')) !== catalogText) return null;
  if ((await latestShared(db, 'requirements')) !== requirementsText) return null;
  phaseEnded('names');
  const people = { requirements, day, courseNames: courseNamesOf(catalog) };
  const looked = await writtenPeople(db, touched, heads, people);
  phaseEnded('due findings', addDue(looked, due, requirements, day));
  const context = {
    held: heldOf(catalog),
    day,
    factOf: (h: HistoryHeadRow) => wasOf(looked, h),
    isHeadsOwn: (h: HistoryHeadRow, fact: PersonFact) => looked.was.get(h.userid) === fact,
  };
  const changes = peopleChanges(looked.heads, looked.facts, looked.findings, context);
  const figures = figuresAfter(last, looked, changes);
  phaseEnded('changes');
  const written = {
    figures,
    changes,
    heads: kept,
    catalog: catalogText,
    requirements: requirementsText,
    taken,
  };
  return db.transaction('rw', HISTORY_TABLES(db), async () => {
    // another snapshot came in between: the heads read and what it carried over are not this one's base
    if ((await db.historySyncs.orderBy('seq').last())?.seq !== last.seq) return null;
    return writeDay(db, at, day, { ...written, sharedKept: true });
  });
}

/**
 * Takes the snapshot of a completed sync that ended `at`, counted for the local day `day`: from the people written
 * since the previous snapshot (history/touched.ts, kept on disk) where that is known, else (or with `full`) from
 * the whole cache. Both give the same day (snapshot.test.ts compares them on random changes).
 */
export async function snapshotHistory(
  db: FieldbookDb,
  at: string,
  day: string,
  options: { full?: boolean } = {},
): Promise<void> {
  const [last, rows] = await Promise.all([
    db.historySyncs.orderBy('seq').last(),
    db.historyWritten.toArray(),
  ]);
  const taken = rows.at(-1)?.id ?? 0;
  const touched = takeTouched(db.memory, last?.seq ?? null, rows);
  phaseEnded('notes', rows.length);
  try {
    const since = { last, touched: options.full ? null : touched, taken };
    const seq = (await incrementalSnapshot(db, at, day, since)) ?? (await fullSnapshot(db, at, day, taken));
    phaseEnded('committed');
    snapshotTaken(db.memory, seq);
  } catch (e) {
    snapshotFailed(db.memory);
    throw e;
  }
}
