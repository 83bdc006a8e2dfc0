/**
 * The history benchmark, page side: days of ordinary change written into a cache (the full cache of a copied
 * profile, or a sample of its people copied into a database of their own), each followed by the renderer's own
 * snapshot (`startSnapshot`, as a completed sync takes it), timed twice: while the sync's next writes wait on it,
 * and until its day is committed; and the size of the history tables.
 */
import Dexie from 'dexie';
import type {
  CredentialAssignmentRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../src/shared/records.ts';
import { addDaysIso, isoToLongDate, isoToWireDate } from '../../src/shared/dates.ts';
import { credentialAssignmentKey, groupUserKey } from '../../src/shared/keys.ts';
import { DB_NAME_PREFIX, openFieldbookDb, type FieldbookDb } from '../../src/renderer/db/index.ts';
import { startSnapshot } from '../../src/renderer/history/snapshot.ts';
import { PHASE_MARK } from '../../src/renderer/history/phases.ts';
import { requirementRow } from '../../src/renderer/features/requirements/model.ts';
import {
  chance,
  completedOn,
  COMPLETE_FROM_DAYS_BEFORE,
  COMPLETE_UNTIL_DAYS_AFTER,
  countOnDay,
  dayRates,
  jsonBytes,
  renewalOn,
  RENEW_FROM_DAYS_BEFORE,
  RENEW_UNTIL_DAYS_AFTER,
  type DayRates,
} from '../history-lib.ts';
import type {
  HistoryCache,
  HistoryDay,
  HistoryDayChanges,
  HistoryPhase,
  HistorySize,
  LongTask,
} from '../page-api.ts';
import { openCache } from './cache.ts';

const HISTORY_TABLES = [
  'historySyncs',
  'historyPacks',
  'historyHeads',
  'historyHeadState',
  'historyShared',
] as const;
const SAMPLE_DB = `${DB_NAME_PREFIX}bench-history-sample`;

interface Sim {
  db: FieldbookDb;
  rates: DayRates;
  userids: number[];
  siteOf: Map<number, number>;
  coursesBySite: Map<number, Course[]>;
  nextUserid: number;
  nextTranscriptid: number;
}

let sim: Sim | null = null;
let source: FieldbookDb | null = null;

const current = (): Sim => {
  if (!sim) throw new Error('historyOpen first');
  return sim;
};

/** Every `every`-th person of the cache (in id order), with their groups, credentials and training, and every name. */
async function copySample(from: FieldbookDb, every: number): Promise<FieldbookDb> {
  await Dexie.delete(SAMPLE_DB);
  const to = openFieldbookDb(SAMPLE_DB);
  const people = (await from.users.toArray()).filter((_, i) => i % every === 0);
  const kept = new Set(people.map((p) => p.userid));
  const mine = <T extends { userid: number }>(rows: T[]) => rows.filter((r) => kept.has(r.userid));
  await to.users.bulkPut(people);
  await to.groupMembers.bulkPut(mine(await from.groupMembers.toArray()));
  await to.credentialAssignments.bulkPut(mine(await from.credentialAssignments.toArray()));
  await to.trainingAssignments.bulkPut(mine(await from.trainingAssignments.toArray()));
  for (const table of ['sites', 'profileCategories', 'groups', 'credentials', 'courses', 'requirements'])
    await to.table(table).bulkPut(await from.table(table).toArray());
  return to;
}

async function clearHistory(db: FieldbookDb): Promise<void> {
  await db.transaction(
    'rw',
    [...HISTORY_TABLES].map((t) => db.table(t)),
    async () => {
      for (const t of HISTORY_TABLES) await db.table(t).clear();
    },
  );
}

/**
 * Opens the cache to simulate on, its history emptied: the whole cache (`every` null), or every `every`-th person
 * in a copy of their own.
 */
export async function historyOpen(every: number | null): Promise<HistoryCache> {
  source ??= await openCache();
  const db = every === null ? source : await copySample(source, every);
  await clearHistory(db);
  const people = await db.users.toArray();
  const courses = await db.courses.toArray();
  const coursesBySite: Sim['coursesBySite'] = new Map();
  for (const c of courses) coursesBySite.set(c.siteid, [...(coursesBySite.get(c.siteid) ?? []), c]);
  const training = await db.trainingAssignments.count();
  const lastTranscript = (await db.trainingAssignments.orderBy(':id').lastKey()) as number | undefined;
  sim = {
    db,
    rates: dayRates(people.length, training),
    userids: people.map((p) => p.userid),
    siteOf: new Map(people.map((p) => [p.userid, p.siteid])),
    coursesBySite,
    nextUserid: Math.max(0, ...people.map((p) => p.userid)) + 1,
    nextTranscriptid: (lastTranscript ?? 0) + 1,
  };
  return {
    people: people.length,
    active: people.filter((p) => p.status === 'Active').length,
    sites: new Set(people.map((p) => p.siteid)).size,
    credentialAssignments: await db.credentialAssignments.count(),
    training,
    perDay: sim.rates,
  };
}

/** Credentials renewed in place on `day`: the same assignment, new dates. */
async function renew(s: Sim, day: string): Promise<number> {
  const due = await s.db.credentialAssignments
    .where('expirationIso')
    .between(addDaysIso(day, -RENEW_UNTIL_DAYS_AFTER), addDaysIso(day, RENEW_FROM_DAYS_BEFORE), true, true)
    .toArray();
  const renewed: CredentialAssignmentRecord[] = [];
  for (const a of due) {
    const dates = renewalOn(a, day);
    if (!dates) continue;
    const wire = {
      startdate: isoToWireDate(dates.startIso),
      expirationdate: isoToWireDate(dates.expirationIso),
    };
    renewed.push({ ...a, ...dates, ...wire });
  }
  await s.db.credentialAssignments.bulkPut(renewed);
  return renewed.length;
}

/** Open training completed on `day`. */
async function complete(s: Sim, day: string): Promise<number> {
  const open = await s.db.trainingAssignments
    .where('openDueIso')
    .between(
      addDaysIso(day, -COMPLETE_UNTIL_DAYS_AFTER),
      addDaysIso(day, COMPLETE_FROM_DAYS_BEFORE),
      true,
      true,
    )
    .toArray();
  const done = open.filter((t) => completedOn(t, day)).map((t) => ({ ...t, course_status: 'completed' }));
  await s.db.trainingAssignments.bulkPut(done);
  return done.length;
}

type Course = { courseid: number; coursename: string };

function trainingRecord(s: Sim, userid: number, course: Course, day: string, due: string) {
  return {
    transcriptid: s.nextTranscriptid++,
    userid,
    courseid: course.courseid,
    siteid: s.siteOf.get(userid) ?? 0,
    course_name: course.coursename,
    course_type: null,
    course_status: 'active',
    assignment_method: 'Assigned',
    start_date: isoToLongDate(day),
    start_time: '08:00',
    startIso: day,
    due_date: isoToLongDate(due),
    due_time: '08:00',
    dueIso: due,
    assignment_created_date: isoToLongDate(day),
    createdIso: day,
  } satisfies TrainingAssignmentRecord;
}

/** New training assigned on `day` (the dataset's pace), to people and courses of their site picked by the dice. */
async function assignTraining(s: Sim, index: number, day: string): Promise<number> {
  const rows: TrainingAssignmentRecord[] = [];
  for (let i = 0; i < countOnDay(s.rates.training, index); i++) {
    const userid = s.userids[Math.floor(chance(`${day}|${i}`, 'trainee') * s.userids.length)]!;
    const courses = s.coursesBySite.get(s.siteOf.get(userid) ?? 0) ?? [];
    if (!courses.length) continue;
    const course = courses[Math.floor(chance(`${day}|${i}`, 'course') * courses.length)]!;
    const due = addDaysIso(day, 7 + Math.floor(chance(`${day}|${i}`, 'due') * 174));
    rows.push(trainingRecord(s, userid, course, day, due));
  }
  await s.db.trainingAssignments.bulkAdd(rows);
  return rows.length;
}

/** A new hire on `day`: a colleague's groups and credentials (new, valid a year), active. */
async function hire(s: Sim, day: string, i: number): Promise<void> {
  const template = s.userids[Math.floor(chance(`${day}|${i}`, 'hire') * s.userids.length)]!;
  const colleague = (await s.db.users.get(template))!;
  const userid = s.nextUserid++;
  const person: UserRecord = {
    ...colleague,
    userid,
    username: `hire.${userid}`,
    employeeid: '',
    status: 'Active',
  };
  const groups = await s.db.groupMembers.where('userid').equals(template).toArray();
  const held = await s.db.credentialAssignments.where('userid').equals(template).toArray();
  await s.db.users.add(person);
  await s.db.groupMembers.bulkAdd(groups.map((g) => ({ ...g, id: groupUserKey(g.groupid, userid), userid })));
  const expires = addDaysIso(day, 365);
  await s.db.credentialAssignments.bulkAdd(
    held.map((a) => ({
      ...a,
      id: credentialAssignmentKey(a.credentialid, userid),
      userid,
      ...{ startIso: day, expirationIso: expires },
      ...{ startdate: isoToWireDate(day), expirationdate: isoToWireDate(expires) },
    })),
  );
  s.userids.push(userid);
  s.siteOf.set(userid, person.siteid);
}

/** A leaver on `day`: the next active person from the dice's pick becomes inactive (the platform keeps them). */
async function leave(s: Sim, day: string, i: number): Promise<boolean> {
  const from = Math.floor(chance(`${day}|${i}`, 'leaver') * s.userids.length);
  for (let k = 0; k < s.userids.length; k++) {
    const person = await s.db.users.get(s.userids[(from + k) % s.userids.length]!);
    if (person?.status !== 'Active') continue;
    await s.db.users.put({ ...person, status: 'Inactive' });
    return true;
  }
  return false;
}

/** A requirement added: the first a site's credential, the next a group's course. */
async function addRequirement(s: Sim): Promise<string> {
  const held = await s.db.requirements.count();
  const firstPerson = (await s.db.users.get(s.userids[0]!))!;
  if (held % 2 === 0) {
    const credential = (await s.db.credentials.orderBy(':id').first())!;
    const row = requirementRow(`site:${firstPerson.siteid}`, `credential:${credential.credentialid}`);
    await s.db.requirements.put(row);
    return row.id;
  }
  const member = (await s.db.groupMembers.where('userid').equals(firstPerson.userid).first())!;
  const course = (s.coursesBySite.get(firstPerson.siteid) ?? [])[0]!;
  const row = requirementRow(`group:${member.groupid}`, `course:${course.courseid}`);
  await s.db.requirements.put(row);
  return row.id;
}

async function applyDay(
  s: Sim,
  index: number,
  day: string,
  requirement: boolean,
): Promise<HistoryDayChanges> {
  const changes: HistoryDayChanges = {
    renewed: await renew(s, day),
    completed: await complete(s, day),
    assigned: await assignTraining(s, index, day),
    hired: countOnDay(s.rates.hires, index),
    left: 0,
    requirement: requirement ? await addRequirement(s) : null,
  };
  for (let i = 0; i < changes.hired; i++) await hire(s, day, i);
  for (let i = 0; i < countOnDay(s.rates.leavers, index); i++) if (await leave(s, day, i)) changes.left += 1;
  return changes;
}

const phaseMarks = () =>
  performance.getEntriesByType('mark').filter((m): m is PerformanceMark => m.name.startsWith(PHASE_MARK));

/** The snapshot's phases, each from the previous mark (the first from `started`). */
function phasesSince(started: number): HistoryPhase[] {
  let from = started;
  return phaseMarks()
    .sort((a, b) => a.startTime - b.startTime)
    .map((mark) => {
      const ms = mark.startTime - from;
      from = mark.startTime;
      const phase = mark.name.slice(PHASE_MARK.length);
      return typeof mark.detail === 'number' ? { phase, ms, count: mark.detail } : { phase, ms };
    });
}

/**
 * Day `index` of the simulation (`day`): its changes written to the cache as a sync would have, then the snapshot
 * the completed sync takes, timed alone.
 */
export async function historyDay(index: number, day: string, requirement: boolean): Promise<HistoryDay> {
  const s = current();
  const changes = index === 0 && !requirement ? null : await applyDay(s, index, day, requirement);
  for (const mark of phaseMarks()) performance.clearMarks(mark.name);
  const started = performance.now();
  const tasks = watchLongTasks(started);
  const snapshot = await startSnapshot(s.db, `${day}T07:00:00.000Z`, day);
  const held = performance.now() - started;
  await snapshot.written;
  const ms = performance.now() - started;
  return { ms, held, longTasks: await tasks.stop(), changes, phases: phasesSince(started) };
}

/** The long tasks (Long Tasks API) of the window from `from` until `stop`. */
function watchLongTasks(from: number): { stop: () => Promise<LongTask[]> } {
  const seen: LongTask[] = [];
  const take = (entries: PerformanceEntryList) =>
    entries.forEach((e) => seen.push({ at: e.startTime - from, ms: e.duration }));
  const observer = new PerformanceObserver((list) => take(list.getEntries()));
  observer.observe({ type: 'longtask' });
  const stop = async () => {
    // a task's entry is given after it ended: let the one that ended last be reported
    await new Promise((resolve) => setTimeout(resolve, 0));
    take(observer.takeRecords());
    observer.disconnect();
    return seen;
  };
  return { stop };
}

/** The history tables' rows and their size as JSON text (UTF-8), by table. */
export async function historySize(): Promise<HistorySize> {
  const { db } = current();
  const out: HistorySize = {};
  for (const t of HISTORY_TABLES) {
    let rows = 0;
    let bytes = 0;
    await db.table(t).each((row: unknown) => {
      rows += 1;
      bytes += jsonBytes(row);
    });
    out[t] = { rows, bytes };
  }
  return out;
}

export async function historyClose(): Promise<void> {
  const s = sim;
  sim = null;
  if (s && s.db !== source) {
    s.db.close();
    await Dexie.delete(SAMPLE_DB);
  }
}
