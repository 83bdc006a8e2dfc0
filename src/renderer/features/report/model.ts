/**
 * The compliance report of a site or a group, from the cache. Pure.
 *
 * People are grouped by the groups of one profile category (a person in two of
 * its groups appears in both, and the row says so); each person is one row
 * listing their findings, most urgent first: credentials held that expired or
 * expire within the "soon" window, training overdue or due soon, and, when the
 * coordinator has set requirements (features/requirements), what is required
 * and not held ("Missing"). Without requirements there is no Missing at all.
 */
import type {
  CourseRecord,
  CredentialAssignmentRecord,
  CredentialRecord,
  GroupMemberRecord,
  GroupRecord,
  ProfileCategoryRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../../shared/records.ts';
import { addDaysIso } from '../../../shared/dates.ts';
import { trainingState } from '../../app/compliance.ts';
import { personStandings, requiredOf, type RequirementRow } from '../requirements/model.ts';
import { NOT_ON_THIS_LAPTOP as NOT_HERE } from '../../app/words.ts';

import { FINDING_TYPES, type FindingType } from './finding-types.ts';

export { FINDING_TYPES, type FindingType };
/** The findings that make a person not compliant (the others are warnings). */
export const NON_COMPLIANT: readonly FindingType[] = ['Missing', 'Expired', 'Training overdue'];

export interface ReportInput {
  people: readonly UserRecord[];
  memberships: readonly GroupMemberRecord[];
  groups: readonly GroupRecord[];
  categories: readonly ProfileCategoryRecord[];
  credentials: readonly CredentialRecord[];
  courses: readonly CourseRecord[];
  assignments: readonly CredentialAssignmentRecord[];
  training: readonly TrainingAssignmentRecord[];
  requirements: readonly RequirementRow[];
}

export interface ReportOptions {
  today: string;
  soonDays: number;
  /** the profile category whose groups make the sections; null: everyone in one section */
  categoryid: number | null;
  /** the people's statuses included ("Active"), compared without case */
  statuses: readonly string[];
  findingTypes: readonly FindingType[];
}

export interface Finding {
  type: FindingType;
  /** the credential's or course's name */
  item: string;
  /** "credential:5", "course:7" */
  itemKey: string;
  /** the expiration or due date (ISO), '' for a missing one */
  date: string;
}

export interface ReportRow {
  userid: number;
  person: string;
  employeeid: string;
  findings: Finding[];
  compliant: boolean;
  /** the other groups of the same category this person is in (their row there too) */
  alsoIn: string[];
}

export interface ReportSection {
  group: string;
  rows: ReportRow[];
  compliant: number;
}

export const nameOf = (u: Pick<UserRecord, 'lastname' | 'firstname' | 'username'>) =>
  `${u.lastname}, ${u.firstname}`.replace(/^, |, $/g, '') || u.username;

const URGENCY: Record<FindingType, number> = {
  Missing: 0,
  Expired: 1,
  'Training overdue': 2,
  'Expires soon': 3,
  'Training due soon': 4,
};

/** Most urgent first: missing, expired, overdue (longest ago first), then what comes soon (soonest first). */
export function byUrgency(a: Finding, b: Finding): number {
  return URGENCY[a.type] - URGENCY[b.type] || a.date.localeCompare(b.date) || a.item.localeCompare(b.item);
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const list = out.get(key(item));
    if (list) list.push(item);
    else out.set(key(item), [item]);
  }
  return out;
}

/** The latest expiration of each credential a person holds ('' when one never expires). */
export function bestExpirations(
  held: readonly Pick<CredentialAssignmentRecord, 'credentialid' | 'expirationIso'>[],
): Map<number, string> {
  const best = new Map<number, string>();
  for (const a of held) {
    const known = best.get(a.credentialid);
    if (known === '') continue;
    if (known === undefined || !a.expirationIso || a.expirationIso > known)
      best.set(a.credentialid, a.expirationIso);
  }
  return best;
}

export interface ReportLookups {
  credentialName: (id: number) => string;
  courseName: (id: number) => string;
  groupsOf: Map<number, GroupMemberRecord[]>;
  heldBy: Map<number, CredentialAssignmentRecord[]>;
  trainingOf: Map<number, TrainingAssignmentRecord[]>;
}

export function lookups(input: ReportInput): ReportLookups {
  const credentials = new Map(input.credentials.map((c) => [c.credentialid, c.credentialname]));
  const courses = new Map(input.courses.map((c) => [c.courseid, c.coursename]));
  return {
    credentialName: (id) => credentials.get(id) ?? NOT_HERE.credential,
    courseName: (id) => courses.get(id) ?? NOT_HERE.course,
    groupsOf: groupBy(input.memberships, (m) => m.userid),
    heldBy: groupBy(input.assignments, (a) => a.userid),
    trainingOf: groupBy(input.training, (t) => t.userid),
  };
}

/** Everything to report about one person, whatever the finding types chosen. */
export function findingsOf(
  person: UserRecord,
  input: ReportInput,
  look: ReportLookups,
  options: Pick<ReportOptions, 'today' | 'soonDays'>,
): Finding[] {
  const { today, soonDays } = options;
  const found: Finding[] = [];
  for (const [credentialid, date] of bestExpirations(look.heldBy.get(person.userid) ?? [])) {
    if (!date || date > addDaysIso(today, soonDays)) continue;
    found.push({
      type: date < today ? 'Expired' : 'Expires soon',
      item: look.credentialName(credentialid),
      itemKey: `credential:${credentialid}`,
      date,
    });
  }
  const training = look.trainingOf.get(person.userid) ?? [];
  for (const t of training) {
    const state = trainingState(t, today, soonDays);
    if (state === 'overdue' || state === 'due-soon')
      found.push({
        type: state === 'overdue' ? 'Training overdue' : 'Training due soon',
        item: t.course_name || look.courseName(t.courseid),
        itemKey: `course:${t.courseid}`,
        date: t.dueIso,
      });
  }
  if (input.requirements.length > 0) {
    const groupids = (look.groupsOf.get(person.userid) ?? []).map((m) => m.groupid);
    const required = requiredOf(person, groupids, input.requirements);
    for (const standing of personStandings(required, look.heldBy.get(person.userid) ?? [], training, today)) {
      if (standing.state !== 'missing') continue;
      const { item } = standing;
      const name =
        item.kind === 'credential' ? look.credentialName(item.credentialid) : look.courseName(item.courseid);
      found.push({
        type: 'Missing',
        item: name,
        itemKey: item.kind === 'credential' ? `credential:${item.credentialid}` : `course:${item.courseid}`,
        date: '',
      });
    }
  }
  return found.sort(byUrgency);
}

/**
 * What makes a person not compliant on a day (missing, expired, overdue): none means compliant, as the report
 * counts.
 */
export function nonCompliantFindings(
  person: UserRecord,
  input: ReportInput,
  look: ReportLookups,
  today: string,
): Finding[] {
  return findingsOf(person, input, look, { today, soonDays: 0 }).filter((f) =>
    NON_COMPLIANT.includes(f.type),
  );
}

/** The people the report covers: those of the chosen statuses, by name. */
export function peopleInScope(people: readonly UserRecord[], statuses: readonly string[]): UserRecord[] {
  const wanted = new Set(statuses.map((s) => s.trim().toLowerCase()));
  return people
    .filter((p) => wanted.has(p.status.trim().toLowerCase()))
    .sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
}

/** One section per group of the category (by name), then the people in none of them. */
export function sectionsOf(
  people: readonly UserRecord[],
  rowOf: (p: UserRecord, alsoIn: string[]) => ReportRow,
  input: ReportInput,
  look: ReportLookups,
  categoryid: number | null,
): ReportSection[] {
  const category = input.categories.find((c) => c.categoryid === categoryid);
  const section = (group: string, rows: ReportRow[]): ReportSection => ({
    group,
    rows,
    compliant: rows.filter((r) => r.compliant).length,
  });
  if (!category)
    return [
      section(
        'Everyone',
        people.map((p) => rowOf(p, [])),
      ),
    ];
  const groups = input.groups
    .filter((g) => g.categoryid === category.categoryid)
    .sort((a, b) => a.groupname.localeCompare(b.groupname));
  const groupName = new Map(groups.map((g) => [g.groupid, g.groupname]));
  const sections = new Map(groups.map((g) => [g.groupid, [] as ReportRow[]]));
  const outside: ReportRow[] = [];
  for (const person of people) {
    const mine = [
      ...new Set(
        (look.groupsOf.get(person.userid) ?? []).map((m) => m.groupid).filter((g) => groupName.has(g)),
      ),
    ];
    if (mine.length === 0) outside.push(rowOf(person, []));
    for (const groupid of mine)
      sections.get(groupid)!.push(
        rowOf(
          person,
          mine.filter((g) => g !== groupid).map((g) => groupName.get(g)!),
        ),
      );
  }
  const out = groups
    .map((g) => section(g.groupname, sections.get(g.groupid)!))
    .filter((s) => s.rows.length > 0);
  if (outside.length > 0) out.push(section(`Not in any ${category.categoryname} group`, outside));
  return out;
}
