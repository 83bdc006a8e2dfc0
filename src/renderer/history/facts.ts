/**
 * The cache's records as the history keeps them, and back. Pure. A person's fact
 * holds exactly what the compliance report reads of them (features/report/model.ts),
 * so a report rebuilt from facts is the report the cache gave that day; the fields
 * the report never reads come back empty.
 */
import type {
  CourseRecord,
  CredentialAssignmentRecord,
  CredentialRecord,
  GroupMemberRecord,
  GroupRecord,
  ProfileCategoryRecord,
  SiteRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../shared/records.ts';
import type { ReportInput } from '../features/report/model.ts';
import type { RequirementRow } from '../features/requirements/model.ts';
import type { PersonFact } from './rows.ts';
import { groupUserKey } from '../../shared/keys.ts';

/** The records a fact is made of: every person of the cache with their groups, credentials and training. */
export interface PeopleRecords {
  people: readonly UserRecord[];
  memberships: readonly Pick<GroupMemberRecord, 'groupid' | 'userid'>[];
  assignments: readonly Pick<
    CredentialAssignmentRecord,
    'id' | 'userid' | 'credentialid' | 'startIso' | 'expirationIso'
  >[];
  training: readonly Pick<
    TrainingAssignmentRecord,
    'transcriptid' | 'userid' | 'courseid' | 'course_name' | 'course_status' | 'dueIso'
  >[];
}

/** The names the report shows: sites, profile categories, groups, credentials, courses. */
export interface Catalog {
  s: [number, string][];
  pc: [number, number, string][];
  g: [number, number, number, string][];
  k: [number, number, string][];
  co: [number, number, string][];
}

export interface CatalogRecords {
  sites: readonly Pick<SiteRecord, 'siteid' | 'sitename'>[];
  categories: readonly Pick<ProfileCategoryRecord, 'categoryid' | 'siteid' | 'categoryname'>[];
  groups: readonly Pick<GroupRecord, 'groupid' | 'siteid' | 'categoryid' | 'groupname'>[];
  credentials: readonly Pick<CredentialRecord, 'credentialid' | 'categoryid' | 'credentialname'>[];
  courses: readonly Pick<CourseRecord, 'courseid' | 'siteid' | 'coursename'>[];
}

/** A training assignment's course name, '' where the catalog gives the same (or it has none). */
const ownCourseName = (
  t: Pick<TrainingAssignmentRecord, 'courseid' | 'course_name'>,
  courseNames: ReadonlyMap<number, string>,
) => (courseNames.get(t.courseid) === t.course_name ? '' : t.course_name);

const byNumber = <T extends readonly unknown[]>(a: T, b: T) => Number(a[0]) - Number(b[0]);

const NO_NAMES: ReadonlyMap<number, string> = new Map();

/** A person's own fields as their fact keeps them. */
export const userEntry = (p: PeopleRecords['people'][number]): PersonFact['u'] => [
  p.siteid,
  p.username,
  p.firstname,
  p.lastname,
  p.employeeid,
  p.status,
  p.usertype,
];

/** A group membership as a fact keeps it. */
export const membershipEntry = (m: PeopleRecords['memberships'][number]): PersonFact['g'][number] =>
  m.groupid;

/** A credential assignment as a fact keeps it (its id first). */
export const assignmentEntry = (a: PeopleRecords['assignments'][number]): PersonFact['c'][number] => [
  a.id,
  a.credentialid,
  a.startIso,
  a.expirationIso,
];

/**
 * A training assignment as a fact keeps it (its transcript id first), its course's name only where `courseNames`
 * (the catalog's, `courseNamesOf`) does not give it: the report shows the catalog's name for one without
 * (features/report/model.ts), so a rebuilt day is the same, and the names are not kept once a person and again at
 * every change of their training.
 */
export const trainingEntry = (
  t: PeopleRecords['training'][number],
  courseNames: ReadonlyMap<number, string> = NO_NAMES,
): PersonFact['t'][number] => [
  t.transcriptid,
  t.courseid,
  ownCourseName(t, courseNames),
  t.course_status,
  t.dueIso,
];

/** Training entries made with their course's name, the names `courseNames` gives left out, as factsOf leaves them. */
export const withoutCourseNames = (
  t: readonly PersonFact['t'][number][],
  courseNames: ReadonlyMap<number, string>,
): PersonFact['t'] =>
  t.map(([transcriptid, courseid, course_name, status, due]) => [
    transcriptid,
    courseid,
    ownCourseName({ courseid, course_name }, courseNames),
    status,
    due,
  ]);

/** Puts a fact's lists in their stable order, so an unchanged person gives the same text. */
export function sortFact(fact: PersonFact): PersonFact {
  fact.g.sort((a, b) => a - b);
  fact.c.sort((a, b) => a[0].localeCompare(b[0]));
  fact.t.sort(byNumber);
  return fact;
}

/** The courses' names the catalog gives, by courseid: a training assignment's fact leaves them out. */
export const courseNamesOf = (catalog: Catalog): Map<number, string> =>
  new Map(catalog.co.map(([courseid, , name]) => [courseid, name]));

/**
 * Each person's fact, by userid; everything in a stable order, so an unchanged person gives the same text; course
 * names as `trainingEntry` keeps them.
 */
export function factsOf(
  records: PeopleRecords,
  courseNames: ReadonlyMap<number, string> = NO_NAMES,
): Map<number, PersonFact> {
  const facts = new Map<number, PersonFact>();
  for (const p of records.people) facts.set(p.userid, { u: userEntry(p), g: [], c: [], t: [] });
  for (const m of records.memberships) facts.get(m.userid)?.g.push(membershipEntry(m));
  for (const a of records.assignments) facts.get(a.userid)?.c.push(assignmentEntry(a));
  for (const t of records.training) facts.get(t.userid)?.t.push(trainingEntry(t, courseNames));
  for (const fact of facts.values()) sortFact(fact);
  return facts;
}

export function catalogOf(records: CatalogRecords): Catalog {
  return {
    s: records.sites.map((s): [number, string] => [s.siteid, s.sitename]).sort(byNumber),
    pc: records.categories
      .map((c): [number, number, string] => [c.categoryid, c.siteid, c.categoryname])
      .sort(byNumber),
    g: records.groups
      .map((g): [number, number, number, string] => [g.groupid, g.siteid, g.categoryid, g.groupname])
      .sort(byNumber),
    k: records.credentials
      .map((k): [number, number, string] => [k.credentialid, k.categoryid, k.credentialname])
      .sort(byNumber),
    co: records.courses
      .map((c): [number, number, string] => [c.courseid, c.siteid, c.coursename])
      .sort(byNumber),
  };
}

export const EMPTY_CATALOG: Catalog = { s: [], pc: [], g: [], k: [], co: [] };

function userOf(userid: number, fact: PersonFact): UserRecord {
  const [siteid, username, firstname, lastname, employeeid, status, usertype] = fact.u;
  return {
    userid,
    siteid,
    username,
    firstname,
    lastname,
    employeeid,
    status,
    usertype,
    searchKeys: [],
    sortName: '',
  };
}

function assignmentOf(userid: number, [id, credentialid, startIso, expirationIso]: PersonFact['c'][number]) {
  return {
    id,
    userid,
    credentialid,
    startIso,
    expirationIso,
    startdate: '',
    expirationdate: '',
    credentialnumber: '',
    status: '',
    attachmentcount: 0,
    notes: '',
  } satisfies CredentialAssignmentRecord;
}

function trainingOf(
  userid: number,
  fact: PersonFact,
  [transcriptid, courseid, name, status, due]: PersonFact['t'][number],
) {
  return {
    transcriptid,
    userid,
    courseid,
    siteid: fact.u[0],
    course_name: name,
    course_status: status,
    dueIso: due,
    course_type: null,
    assignment_method: '',
    start_date: '',
    start_time: '',
    startIso: '',
    due_date: '',
    due_time: '',
    assignment_created_date: '',
    createdIso: '',
  } satisfies TrainingAssignmentRecord;
}

function catalogRecords(
  catalog: Catalog,
): Pick<ReportInput, 'groups' | 'categories' | 'credentials' | 'courses'> {
  return {
    categories: catalog.pc.map(([categoryid, siteid, categoryname]) => ({
      categoryid,
      siteid,
      categoryname,
      groupcount: 0,
    })),
    groups: catalog.g.map(([groupid, siteid, categoryid, groupname]) => ({
      groupid,
      siteid,
      categoryid,
      groupname,
      usercount: 0,
      accessusercount: 0,
    })),
    credentials: catalog.k.map(([credentialid, categoryid, credentialname]) => ({
      credentialid,
      credentialname,
      categoryid,
      description: '',
      categoryname: '',
      requiredstartdate: false,
      requiredexpirationdate: false,
      requiredcredentialnum: false,
      requirements: '',
      activeusercount: 0,
      inactiveusercount: 0,
    })),
    courses: catalog.co.map(([courseid, siteid, coursename]) => ({
      courseid,
      siteid,
      coursename,
      coursetype: null,
      status: '',
    })),
  };
}

/** The report's input from facts (the people `keep` lets through), the names and the requirements. */
export function inputOf(
  facts: ReadonlyMap<number, PersonFact>,
  catalog: Catalog,
  requirements: readonly RequirementRow[],
  keep: (userid: number, fact: PersonFact) => boolean = () => true,
): ReportInput {
  const people: UserRecord[] = [];
  const memberships: GroupMemberRecord[] = [];
  const assignments: CredentialAssignmentRecord[] = [];
  const training: TrainingAssignmentRecord[] = [];
  for (const [userid, fact] of facts) {
    if (!keep(userid, fact)) continue;
    people.push(userOf(userid, fact));
    for (const groupid of fact.g) memberships.push({ id: groupUserKey(groupid, userid), groupid, userid });
    for (const c of fact.c) assignments.push(assignmentOf(userid, c));
    for (const t of fact.t) training.push(trainingOf(userid, fact, t));
  }
  return { people, memberships, assignments, training, requirements, ...catalogRecords(catalog) };
}
