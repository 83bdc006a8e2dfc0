/**
 * The history's snapshot at the end of a completed sync: the day's figures, the
 * people who (or whose findings) changed since the previous snapshot, and the names
 * and requirements when they changed, all written in one transaction, so a day is
 * there whole or not at all. Read from the cache as the sync left it: changes still
 * in the Outbox are not on the platform yet and are not history.
 */
import type { Table } from 'dexie';
import type { FieldbookDb } from '../db/index.ts';
import type { MemoryPart } from '../db/memory.ts';
import type { ReportInput } from '../features/report/model.ts';
import { catalogOf, courseNamesOf, factsOf, withoutCourseNames, type Catalog } from './facts.ts';
import { adjustFigures, dayFigures, findingsByPerson } from './figures.ts';
import { peopleChanges, type PeopleChanges } from './people-changes.ts';
import { bulkGetInSlices, changesInSlices, findingsInSlices } from './day-slices.ts';
import { yieldToEventLoop } from '../../shared/yield.ts';
import { forEachSliced } from '../../shared/sliced.ts';
import { nextSnapshotFull, snapshotFailed, snapshotTaken, takeTouched, type Touched } from './touched.ts';
import { patchFact } from './written.ts';
import type { RequirementRow } from '../features/requirements/model.ts';
import type { UserRecord } from '../../shared/records.ts';
import { appendRows } from './packs.ts';
import { keptFigures, syncOf } from './sync-figures.ts';
import { headFact } from './heads.ts';
import { readKeptStates, withState, writeHeads, type KeptStates } from './head-state.ts';
import { keptShared, sharedOf } from './shared-rows.ts';
import { phaseEnded } from './phases.ts';
import type {
  HistoryHeadRow,
  KeptHeadRow,
  HistorySharedRow,
  KeptSyncRow,
  PersonFact,
  ScopeFigures,
} from './rows.ts';

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

/** The records of some people, in one read transaction. */
async function peopleRecords(db: FieldbookDb, userids: number[]) {
  const tables = [db.users, db.groupMembers, db.credentialAssignments, db.trainingAssignments];
  const [people, memberships, assignments, training] = await db.transaction('r', tables, () =>
    Promise.all([
      db.users.bulkGet(userids),
      byUser(db.groupMembers, userids),
      byUser(db.credentialAssignments, userids),
      byUser(db.trainingAssignments, userids),
    ]),
  );
  return {
    people: people.filter((p): p is UserRecord => p !== undefined),
    memberships,
    assignments,
    training,
  };
}

const NO_RECORDS = { people: [], memberships: [], assignments: [], training: [] };

/** The records of some people, as the report reads them (their names are not needed: findings are compared by key). */
async function peopleInput(
  db: FieldbookDb,
  userids: number[],
  requirements: RequirementRow[],
): Promise<ReportInput> {
  const records = userids.length === 0 ? NO_RECORDS : await peopleRecords(db, userids);
  return { ...records, requirements, categories: [], groups: [], credentials: [], courses: [] };
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
 * The people written since the previous snapshot: their heads (read before), and their facts now, patched with what
 * was written (history/written.ts) or, for those without a head (new, or back) or whose writes this window does not
 * know (history/touched.ts), as read from the cache while the sync's writes waited (`readFrom`, `read`); and their
 * findings.
 */
async function writtenPeople(
  touched: Touched,
  heads: HistoryHeadRow[],
  { readFrom, read }: Pick<Taken, 'readFrom' | 'read'>,
  { requirements, day, courseNames }: PeopleContext,
): Promise<Looked> {
  const looked = { was: new Map<number, PersonFact>() };
  const facts = new Map<number, PersonFact>();
  await forEachSliced(heads.length, (i) => {
    const head = heads[i]!;
    const writes = touched.writes.get(head.userid);
    if (!writes || readFrom.has(head.userid)) return;
    const fact = patchFact(wasOf(looked, head), writes);
    // the entries written keep the name of their course; a fact leaves out those the catalog gives (facts.ts)
    if (fact) facts.set(head.userid, { ...fact, t: withoutCourseNames(fact.t, courseNames) });
  });
  phaseEnded('heads patched', facts.size);
  for (const [userid, fact] of read) facts.set(userid, fact);
  const findings = await findingsInSlices(facts, requirements, day);
  phaseEnded('findings', facts.size);
  return { heads, facts, findings, ...looked };
}

/**
 * Adds the people due by date and not written (their head's `next` is the day or before): their fact is their head's,
 * their findings are computed from it on the day, without reading the cache; how many.
 */
async function addDue(
  looked: Looked,
  due: readonly HistoryHeadRow[],
  requirements: readonly RequirementRow[],
  day: string,
): Promise<number> {
  const written = new Set(looked.heads.map((h) => h.userid));
  const facts = new Map<number, PersonFact>();
  await forEachSliced(due.length, (i) => {
    const head = due[i]!;
    if (written.has(head.userid)) return;
    looked.heads.push(head);
    facts.set(head.userid, wasOf(looked, head));
  });
  const findings = await findingsInSlices(facts, requirements, day);
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
 * What an incremental snapshot takes of the cache while the sync's writes wait: the names and requirements (the
 * history's latest: else the snapshot is a full one), and the facts of the people written who have no head (new, or
 * back) or whose writes this window does not know (`readFrom`: read from the cache, `read`: those found there). The
 * rest of the day is made from the history's own tables and this window's notes of what was written.
 */
interface Taken {
  last: KeptSyncRow;
  touched: Touched;
  taken: number;
  catalog: Catalog;
  requirements: RequirementRow[];
  catalogText: string;
  requirementsText: string;
  /** everyone's findings and next day, which also says who has a head */
  states: KeptStates;
  readFrom: ReadonlySet<number>;
  read: ReadonlyMap<number, PersonFact>;
}

/**
 * The cache's names and requirements now, the history's latest ones, and everyone's findings record, which says who
 * has a head (one record of some 0.5 MB on `l`: reading it took a third of the time of the heads' 20,000 keys).
 */
async function namesAndHeads(db: FieldbookDb) {
  const [{ catalog, requirements }, catalogKept, requirementsKept, states] = await Promise.all([
    namesNow(db),
    latestShared(db, 'catalog'),
    latestShared(db, 'requirements'),
    readKeptStates(db),
  ]);
  const [catalogText, requirementsText] = [JSON.stringify(catalog), JSON.stringify(requirements)];
  const kept = catalogKept === catalogText && requirementsKept === requirementsText;
  return { catalog, requirements, catalogText, requirementsText, kept, states };
}

type Names = Awaited<ReturnType<typeof namesAndHeads>>;

/** The inputs of an incremental snapshot, read while the sync's writes wait; null: the snapshot is a full one. */
async function takeIncremental(
  db: FieldbookDb,
  day: string,
  since: Since,
  names: Names,
): Promise<Taken | null> {
  const { last, touched, taken } = since;
  if (!touched || !last || last.day > day || !names.kept) return null;
  const { catalog, requirements, catalogText, requirementsText, states } = names;
  const readFrom = new Set([...touched.userids].filter((u) => !touched.writes.has(u) || !states.has(u)));
  const input = await peopleInput(db, [...readFrom], requirements);
  const read = factsOf(input, courseNamesOf(catalog));
  phaseEnded('cache read', readFrom.size);
  const texts = { catalogText, requirementsText };
  return { last, touched, taken, catalog, requirements, ...texts, states, readFrom, read };
}

/**
 * The heads of the people written and of those due by date (`due`), read from the history alone; null when a
 * person written and not read from the cache has no head (another window's snapshot came in between since the
 * findings record was read, or the history lost a head): the day is then not written.
 */
async function headsRead(db: FieldbookDb, t: Taken, day: string) {
  const { states } = t;
  const userids = [...t.touched.userids];
  const [touchedHeads, dueHeads] = await Promise.all([
    bulkGetInSlices(db.historyHeads, userids),
    bulkGetInSlices(db.historyHeads, states.dueOn(day)),
  ]);
  if (userids.some((userid, i) => !touchedHeads[i] && !t.readFrom.has(userid))) return null;
  const { heads, kept } = keptHeads([...touchedHeads, ...dueHeads], states);
  const due = heads.splice(defined(touchedHeads).length);
  phaseEnded('heads read', heads.length + due.length);
  return { heads, due, kept };
}

/**
 * The day of an incremental snapshot, from what it took while the sync's writes waited (`t`) and the history's own
 * tables: the people written and those whose findings change with the date today (from their heads), the others'
 * figures carried over. Its transaction first checks that no other snapshot came in between (their base would not
 * be this one's): null if one did, and nothing written.
 */
async function writeIncremental(db: FieldbookDb, at: string, day: string, t: Taken): Promise<number | null> {
  const read = await headsRead(db, t, day);
  if (!read) return null;
  const { heads, due, kept } = read;
  const people = { requirements: t.requirements, day, courseNames: courseNamesOf(t.catalog) };
  const looked = await writtenPeople(t.touched, heads, t, people);
  phaseEnded('due findings', await addDue(looked, due, t.requirements, day));
  const context = {
    held: heldOf(t.catalog),
    day,
    factOf: (h: HistoryHeadRow) => wasOf(looked, h),
    isHeadsOwn: (h: HistoryHeadRow, fact: PersonFact) => looked.was.get(h.userid) === fact,
  };
  const changes = await changesInSlices(looked.heads, looked.facts, looked.findings, context);
  phaseEnded('changes');
  await yieldToEventLoop();
  const figures = figuresAfter(t.last, looked, changes);
  phaseEnded('figures');
  const texts = { catalog: t.catalogText, requirements: t.requirementsText };
  const written = { figures, changes, heads: kept, ...texts, taken: t.taken, sharedKept: true as const };
  return db.transaction('rw', HISTORY_TABLES(db), async () => {
    if ((await db.historySyncs.orderBy('seq').last())?.seq !== t.last.seq) return null;
    return writeDay(db, at, day, written);
  });
}

/** The snapshot of each profile's database being written: the next one starts after it (history/snapshot.ts). */
const WRITING: MemoryPart<{ last: Promise<void> }> = { make: () => ({ last: Promise.resolve() }) };

/** A snapshot whose inputs are taken: `written` settles once its day is committed, or failed. */
export interface StartedSnapshot {
  written: Promise<void>;
}

/** The notes of the people written since the previous snapshot (history/touched.ts), taken. */
async function sinceLast(db: FieldbookDb, full: boolean): Promise<Since> {
  const [last, rows] = await Promise.all([
    db.historySyncs.orderBy('seq').last(),
    db.historyWritten.toArray(),
  ]);
  const taken = rows.at(-1)?.id ?? 0;
  const touched = takeTouched(db.memory, last?.seq ?? null, rows);
  return { last, touched: full ? null : touched, taken };
}

/**
 * Said when step two cannot use what step one read. The cache is not read again then: a next sync may be writing it,
 * and its pages would be counted in this day. The people written stay noted on disk, and the next snapshot is a full
 * one: the heads or the figures it would carry over are not those step one read.
 */
export const DAY_LEFT_TO_NEXT =
  "The history's day was not written: the history changed while the day was being made (another window of this " +
  "profile?). The next sync's day reads everyone again.";

/** The day written, or failed (the next snapshot then reads the people written from the cache). */
async function finish(db: FieldbookDb, at: string, day: string, t: Taken): Promise<void> {
  // the sync's next writes go on first: the day is made after, a few people at a time
  await yieldToEventLoop();
  try {
    const seq = await writeIncremental(db, at, day, t);
    if (seq === null) {
      await nextSnapshotFull(db.historyWritten, db.memory);
      throw new Error(DAY_LEFT_TO_NEXT);
    }
    phaseEnded('committed');
    snapshotTaken(db.memory, seq);
  } catch (e) {
    snapshotFailed(db.memory);
    throw e;
  }
}

/** The snapshot's two steps: what it reads of the cache (`take`), then its day made and written. */
async function takeThenWrite(db: FieldbookDb, at: string, day: string, full: boolean) {
  let t: Taken | null;
  try {
    const [since, names] = await Promise.all([sinceLast(db, full), namesAndHeads(db)]);
    phaseEnded('notes and names', since.touched?.userids.size);
    t = await takeIncremental(db, day, since, names);
    if (!t) {
      const seq = await fullSnapshot(db, at, day, since.taken);
      phaseEnded('committed');
      snapshotTaken(db.memory, seq);
      return { written: Promise.resolve() };
    }
  } catch (e) {
    snapshotFailed(db.memory);
    throw e;
  }
  phaseEnded('taken');
  return { written: finish(db, at, day, t) };
}

/**
 * Starts the snapshot of a completed sync that ended `at`, counted for the local day `day`, once the previous one of
 * this window is written: resolves once it has read what it needs of the cache, so the sync's next writes may go on;
 * its `written` settles once the day is committed. From the people written since the previous snapshot
 * (history/touched.ts, kept on disk) where that is known; else (or with `full`) from the whole cache, read and
 * written before it resolves. Both give the same day (snapshot.test.ts compares them on random changes).
 */
export async function startSnapshot(
  db: FieldbookDb,
  at: string,
  day: string,
  options: { full?: boolean } = {},
): Promise<StartedSnapshot> {
  const writing = db.memory.part(WRITING);
  const before = writing.last;
  let settled = () => {};
  writing.last = new Promise<void>((resolve) => (settled = resolve));
  await before;
  const started = await takeThenWrite(db, at, day, options.full === true).catch((e: unknown) => {
    settled();
    throw e;
  });
  void started.written.then(settled, settled);
  return started;
}

/** The snapshot taken and its day written (see startSnapshot). */
export async function snapshotHistory(
  db: FieldbookDb,
  at: string,
  day: string,
  options: { full?: boolean } = {},
): Promise<void> {
  const started = await startSnapshot(db, at, day, options);
  await started.written;
}

/** Settles once the snapshot this window is writing, if any, is written or failed. */
export const snapshotWritten = (db: FieldbookDb): Promise<void> => db.memory.part(WRITING).last;
