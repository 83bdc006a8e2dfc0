/**
 * What the changes since the last sync mean for compliance: who became non-compliant,
 * who is compliant again, and which people the platform removed (their records folded
 * under them). Pure.
 *
 * "Compliant" is the report's: no requirement missing, no credential expired, no
 * training overdue (report/model.ts `nonCompliantFindings`, against the coordinator's
 * requirements). The state before is the cache now with the logged changes undone,
 * newest first, read on the day of the sync before; the state after is the cache now,
 * read today. So a credential that expired meanwhile counts, and a requirement the
 * coordinator set meanwhile is applied to both sides (the question is what the platform
 * changed, not what the coordinator did). Group memberships are not in the change log:
 * they are taken as they are now on both sides.
 */
import type {
  CourseRecord,
  CredentialAssignmentRecord,
  CredentialRecord,
  GroupMemberRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../../shared/records.ts';
import type { ChangeKind } from '../../sync/changes.ts';
import type { RequirementRow } from '../requirements/model.ts';
import { lookups, nonCompliantFindings, type Finding, type ReportInput } from '../report/model.ts';
import type { DatedChange } from './view-model.ts';

/** The records of the people the changes concern, as the cache holds them now. */
export interface ImpactRecords {
  people: readonly UserRecord[];
  memberships: readonly GroupMemberRecord[];
  assignments: readonly CredentialAssignmentRecord[];
  training: readonly TrainingAssignmentRecord[];
  requirements: readonly RequirementRow[];
  credentials: readonly CredentialRecord[];
  courses: readonly CourseRecord[];
}

export interface ImpactOptions {
  /** the day of the sync the period starts from (ISO date): the "before" is read on it */
  sinceDay: string;
  today: string;
  /** the statuses of the people who count (the report's: Active), compared without case */
  statuses: readonly string[];
}

export interface ImpactEntry {
  userid: number;
  firstname: string;
  lastname: string;
  username: string;
  siteid: number;
  /** became non-compliant: what they now miss; compliant again: what they missed before */
  findings: Finding[];
  /** added to the platform since */
  isNew: boolean;
}

export interface ComplianceImpact {
  nonCompliant: ImpactEntry[];
  compliant: ImpactEntry[];
}

/** One person's records in the state being rebuilt. */
interface Standing {
  person: UserRecord;
  assignments: CredentialAssignmentRecord[];
  training: TrainingAssignmentRecord[];
}

const ARROW = ' → ';
/** "old → new" of a logged change: the old side. */
function oldSide(d: string | undefined): string {
  const text = d ?? '';
  const at = text.indexOf(ARROW);
  return at < 0 ? '' : text.slice(0, at);
}

const idIn = (d: string | undefined, word: string): number | null => {
  const match = new RegExp(`\\b${word} (\\d+)`).exec(d ?? '');
  return match ? Number(match[1]) : null;
};

/** The training a logged change names: by its course name, or "course 12" when it had none. */
const namesTraining = (d: string | undefined) => (t: TrainingAssignmentRecord) =>
  t.course_name === d || `course ${t.courseid}` === d;

function undoCredential(s: Standing, change: DatedChange): void {
  const credentialid = idIn(change.d, 'credential');
  if (credentialid === null) return;
  if (change.k === 'credential.added')
    s.assignments = s.assignments.filter((a) => a.credentialid !== credentialid);
  if (change.k === 'credential.removed')
    s.assignments.push({
      ...({} as CredentialAssignmentRecord),
      id: `${credentialid}-${change.u}`,
      credentialid,
      userid: change.u,
      expirationIso: change.e ?? '',
    });
  if (change.k === 'credential.renewed') {
    const before = /: (\d{4}-\d{2}-\d{2})? →/.exec(change.d ?? '')?.[1] ?? '';
    s.assignments = s.assignments.map((a) =>
      a.credentialid === credentialid ? { ...a, expirationIso: before } : a,
    );
  }
}

function undoTraining(s: Standing, change: DatedChange): void {
  if (change.k === 'training.assigned') s.training = s.training.filter((t) => !namesTraining(change.d)(t));
  if (change.k === 'training.completed')
    s.training = s.training.map((t) =>
      namesTraining(change.d)(t) ? { ...t, course_status: 'Not completed' } : t,
    );
  const courseid = idIn(change.d, 'course');
  if (change.k === 'training.removed' && courseid !== null)
    s.training.push({
      ...({} as TrainingAssignmentRecord),
      userid: change.u,
      courseid,
      course_name: '',
      course_status: '',
      dueIso: change.e ?? '',
    });
}

const PERSON_FIELDS: Partial<Record<ChangeKind, 'status' | 'usertype' | 'siteid'>> = {
  'person.status': 'status',
  'person.usertype': 'usertype',
  'person.site': 'siteid',
};

/** The state before one change (changes are undone newest first). */
function undo(s: Standing, change: DatedChange): void {
  const field = PERSON_FIELDS[change.k];
  if (field === 'siteid') s.person = { ...s.person, siteid: Number(oldSide(change.d)) };
  else if (field) s.person = { ...s.person, [field]: oldSide(change.d) };
  else if (change.k.startsWith('credential.')) undoCredential(s, change);
  else if (change.k.startsWith('training.')) undoTraining(s, change);
}

function byPerson<T extends { userid: number }>(items: readonly T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const item of items) out.set(item.userid, [...(out.get(item.userid) ?? []), item]);
  return out;
}

/** The report's input for a set of standings (the catalogue and requirements as they are now). */
function inputOf(standings: readonly Standing[], records: ImpactRecords): ReportInput {
  return {
    people: standings.map((s) => s.person),
    memberships: records.memberships,
    groups: [],
    categories: [],
    credentials: records.credentials,
    courses: records.courses,
    assignments: standings.flatMap((s) => s.assignments),
    training: standings.flatMap((s) => s.training),
    requirements: records.requirements,
  };
}

/** Each person's standing now, and before the changes (absent when added since). */
function standings(
  changes: readonly DatedChange[],
  records: ImpactRecords,
): { now: Standing[]; before: Standing[]; added: Set<number> } {
  const assignments = byPerson(records.assignments);
  const training = byPerson(records.training);
  const now = records.people.map((person) => ({
    person,
    assignments: assignments.get(person.userid) ?? [],
    training: training.get(person.userid) ?? [],
  }));
  const added = new Set(changes.filter((c) => c.k === 'person.added').map((c) => c.u));
  const before = new Map(
    now
      .filter((s) => !added.has(s.person.userid))
      .map((s) => [s.person.userid, { ...s, assignments: [...s.assignments], training: [...s.training] }]),
  );
  for (const change of changes) {
    const standing = before.get(change.u);
    if (standing) undo(standing, change);
  }
  return { now, before: [...before.values()], added };
}

/** What is not met for each person counted (of the chosen statuses), on a day. */
function unmet(
  list: readonly Standing[],
  records: ImpactRecords,
  statuses: ReadonlySet<string>,
  day: string,
): Map<number, Finding[]> {
  const input = inputOf(list, records);
  const look = lookups(input);
  const out = new Map<number, Finding[]>();
  for (const { person } of list)
    if (statuses.has(person.status.trim().toLowerCase()))
      out.set(person.userid, nonCompliantFindings(person, input, look, day));
  return out;
}

const entryOf = (person: UserRecord, findings: Finding[], isNew: boolean): ImpactEntry => ({
  userid: person.userid,
  firstname: person.firstname,
  lastname: person.lastname,
  username: person.username,
  siteid: person.siteid,
  findings,
  isNew,
});

/**
 * Who became non-compliant and who is compliant again over the changes of a period
 * (`changes` newest first, as changesSince gives them), by name.
 */
export function complianceImpact(
  changes: readonly DatedChange[],
  records: ImpactRecords,
  options: ImpactOptions,
): ComplianceImpact {
  const statuses = new Set(options.statuses.map((s) => s.trim().toLowerCase()));
  const { now, before, added } = standings(changes, records);
  const after = unmet(now, records, statuses, options.today);
  const was = unmet(before, records, statuses, options.sinceDay);
  const out: ComplianceImpact = { nonCompliant: [], compliant: [] };
  for (const { person } of now) {
    const [missedNow, missedBefore] = [after.get(person.userid), was.get(person.userid)];
    if (missedNow === undefined) continue;
    if (missedNow.length > 0 && !missedBefore?.length)
      out.nonCompliant.push(entryOf(person, missedNow, added.has(person.userid)));
    if (missedNow.length === 0 && missedBefore?.length)
      out.compliant.push(entryOf(person, missedBefore, false));
  }
  const byName = (a: ImpactEntry, b: ImpactEntry) =>
    `${a.lastname} ${a.firstname}`.localeCompare(`${b.lastname} ${b.firstname}`);
  out.nonCompliant.sort(byName);
  out.compliant.sort(byName);
  return out;
}

/** A person the platform removed, with the records that went with them. */
export interface RemovedPerson {
  userid: number;
  name: string;
  siteid: number | undefined;
  credentials: number;
  trainings: number;
  access: number;
}

const FOLDED: Partial<Record<ChangeKind, 'credentials' | 'trainings' | 'access'>> = {
  'credential.removed': 'credentials',
  'training.removed': 'trainings',
  'access.revoked': 'access',
};

/**
 * The records of a removed person folded under them: their removal is one change, not
 * one per credential. `rest` keeps every other change, in order.
 */
export function foldRemovals(changes: readonly DatedChange[]): {
  rest: DatedChange[];
  removed: Map<number, RemovedPerson>;
} {
  const removed = new Map<number, RemovedPerson>();
  for (const c of changes)
    if (c.k === 'person.removed' && !removed.has(c.u))
      removed.set(c.u, {
        userid: c.u,
        name: c.d ?? '',
        siteid: c.s,
        credentials: 0,
        trainings: 0,
        access: 0,
      });
  const rest: DatedChange[] = [];
  for (const c of changes) {
    const person = removed.get(c.u);
    const folded = FOLDED[c.k];
    if (person && folded) person[folded] += 1;
    else rest.push(c);
  }
  return { rest, removed };
}
