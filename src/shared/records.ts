/**
 * Cache records: what the sync engine (main) hands to the renderer and what the
 * renderer stores in IndexedDB. Built from validated wire objects by the pure
 * `normalize` functions below; the wire value of every date is kept and its
 * ISO form (`…Iso`) stored beside it. Folded search keys live on the
 * records the views search.
 *
 * Sites and users keep the wire fields the schemas do not know in `extra` (a
 * coordinator may need what a customer's platform adds to a person); the other
 * records keep only the fields the views use, and drop the rest.
 */
import type { Parsed } from './api/wire.ts';
import { toIsoDate } from './dates.ts';
import { fold, searchWords } from './search-text.ts';
import { credentialAssignmentKey, moduleKey } from './keys.ts';

export const COLLECTIONS = [
  'sites',
  'users',
  'emails',
  'profileCategories',
  'groups',
  'groupMembers',
  'groupAccess',
  'modules',
  'moduleAccess',
  'credentialCategories',
  'credentials',
  'credentialAssignments',
  'courses',
  'trainingAssignments',
] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

type Extra = Record<string, unknown>;

export interface SiteRecord {
  siteid: number;
  sitename: string;
  loginpage: string;
  extra?: Extra;
}

export interface UserRecord {
  userid: number;
  siteid: number;
  username: string;
  firstname: string;
  lastname: string;
  employeeid: string;
  status: string;
  usertype: string;
  /** folded words of the names, username and employee id, for word-prefix search (search-text.ts) */
  searchKeys: string[];
  /** folded "last, first" for sorting (userSortName) */
  sortName: string;
  extra?: Extra;
  /** set when the record was read back from the platform after a replay (not by a sync): when */
  refreshedAt?: string;
}

export interface EmailRecord {
  emailid: number;
  userid: number;
  email: string;
  status: string;
  isprimary: boolean | null;
  /**
   * It came with a users list item (that list carries this user's e-mails): a
   * later read of the user's item that does not list it removes it
   * (renderer/sync/emails.ts). E-mails read one user at a time have none.
   */
  fromList?: true;
}

export interface ProfileCategoryRecord {
  categoryid: number;
  siteid: number;
  categoryname: string;
  groupcount: number;
}

export interface GroupRecord {
  groupid: number;
  siteid: number;
  categoryid: number;
  groupname: string;
  usercount: number;
  accessusercount: number;
}

/** `${groupid}-${userid}`: a user who is a member of a profile group. */
export interface GroupMemberRecord {
  id: string;
  groupid: number;
  userid: number;
}

/** `${groupid}-${userid}`: a supervisor holding access over a group. */
export interface GroupAccessRecord {
  id: string;
  groupid: number;
  userid: number;
  siteid: number;
}

export interface ModuleRecord {
  /** `${siteid}-${accessID}` */
  id: string;
  accessID: number;
  siteid: number;
  moduleName: string;
  functionName: string;
}

/** `${siteid}-${accessID}-${userid}`: a user given access to a feature. */
export interface ModuleAccessRecord {
  id: string;
  accessID: number;
  siteid: number;
  userid: number;
}

export interface CredentialCategoryRecord {
  categoryid: number;
  siteid: number;
  categoryname: string;
  credentialcount: number;
}

export interface CredentialRecord {
  credentialid: number;
  credentialname: string;
  description: string;
  categoryid: number;
  categoryname: string;
  requiredstartdate: boolean;
  requiredexpirationdate: boolean;
  requiredcredentialnum: boolean;
  requirements: string;
  activeusercount: number;
  inactiveusercount: number;
}

/** Primary key `${credentialid}-${userid}`, the API's own assignment id. */
export interface CredentialAssignmentRecord {
  id: string;
  credentialid: number;
  userid: number;
  startdate: string;
  startIso: string;
  expirationdate: string;
  expirationIso: string;
  credentialnumber: string;
  status: string;
  attachmentcount: number;
  notes: string;
}

export interface CourseRecord {
  courseid: number;
  siteid: number;
  coursename: string;
  coursetype: number | null;
  status: string;
}

export interface TrainingAssignmentRecord {
  transcriptid: number;
  userid: number;
  courseid: number;
  siteid: number;
  course_name: string;
  course_type: number | null;
  course_status: string;
  assignment_method: string;
  start_date: string;
  start_time: string;
  startIso: string;
  due_date: string;
  due_time: string;
  dueIso: string;
  assignment_created_date: string;
  createdIso: string;
}

export interface CollectionRecordMap {
  sites: SiteRecord;
  users: UserRecord;
  emails: EmailRecord;
  profileCategories: ProfileCategoryRecord;
  groups: GroupRecord;
  groupMembers: GroupMemberRecord;
  groupAccess: GroupAccessRecord;
  modules: ModuleRecord;
  moduleAccess: ModuleAccessRecord;
  credentialCategories: CredentialCategoryRecord;
  credentials: CredentialRecord;
  credentialAssignments: CredentialAssignmentRecord;
  courses: CourseRecord;
  trainingAssignments: TrainingAssignmentRecord;
}
export type AnyRecord = CollectionRecordMap[CollectionName];

/** The primary key field of each collection's records (Dexie schema and page de-duplication). */
export const PRIMARY_KEY = {
  sites: 'siteid',
  users: 'userid',
  emails: 'emailid',
  profileCategories: 'categoryid',
  groups: 'groupid',
  groupMembers: 'id',
  groupAccess: 'id',
  modules: 'id',
  moduleAccess: 'id',
  credentialCategories: 'categoryid',
  credentials: 'credentialid',
  credentialAssignments: 'id',
  courses: 'courseid',
  trainingAssignments: 'transcriptid',
} as const satisfies { [K in CollectionName]: keyof CollectionRecordMap[K] & string };

export function recordKey<K extends CollectionName>(
  collection: K,
  record: CollectionRecordMap[K],
): string | number {
  const field: string = PRIMARY_KEY[collection];
  return (record as unknown as Record<string, string | number>)[field]!;
}

// ---- normalisers: validated wire object -> cache record ----

const KNOWN = new Set<string>();
function extraOf(obj: Record<string, unknown>, known: readonly string[]): Extra | undefined {
  let out: Extra | undefined;
  for (const key of Object.keys(obj)) {
    if (known.includes(key) || KNOWN.has(key)) continue;
    (out ??= {})[key] = obj[key];
  }
  return out;
}

export function lower(s: string): string {
  return s.trim().toLocaleLowerCase('en-US');
}

/**
 * The folded words of the user's names, username and employee id (see
 * search-text.ts), each stored once: a query matches when each of its words
 * starts one of these, in any order.
 */
export function userSearchKeys(u: {
  firstname: string;
  lastname: string;
  username: string;
  employeeid: string;
}): string[] {
  const keys = new Set<string>();
  for (const text of [u.firstname, u.lastname, u.username, u.employeeid]) {
    for (const word of searchWords(text)) keys.add(word);
  }
  return [...keys];
}

/** "last, first", folded (search-text.ts), so the name order puts Núñez among the N's: the users' sort key. */
export function userSortName(u: { firstname: string; lastname: string }): string {
  return `${fold(u.lastname.trim())}, ${fold(u.firstname.trim())}`;
}

const USER_FIELDS = [
  'userid',
  'siteid',
  'username',
  'firstname',
  'lastname',
  'employeeid',
  'status',
  'usertype',
  'email',
  'links',
] as const;

export function normalizeUser(u: Parsed<'user'>): UserRecord {
  const rec: UserRecord = {
    userid: u.userid,
    siteid: u.siteid,
    username: u.username,
    firstname: u.firstname,
    lastname: u.lastname,
    employeeid: u.employeeid,
    status: u.status,
    usertype: u.usertype,
    searchKeys: userSearchKeys(u),
    sortName: userSortName(u),
  };
  const extra = extraOf(u, USER_FIELDS);
  if (extra) rec.extra = extra;
  return rec;
}

/** E-mails carried on a user list item (objects only; bare strings have no id to key them by). */
export function emailsOfUser(u: Parsed<'user'>): EmailRecord[] {
  const out: EmailRecord[] = [];
  for (const e of u.email) {
    if (typeof e === 'string') continue;
    out.push({ ...normalizeEmail(e, u.userid), fromList: true });
  }
  return out;
}

/**
 * The ids of the e-mails a user item lists: a complete read of that user's
 * e-mails. Null when it lists a bare address (no id to compare a cached
 * e-mail with): nothing is removed on its word.
 */
export function listedEmailIds(u: Parsed<'user'>): number[] | null {
  const ids: number[] = [];
  for (const e of u.email) {
    if (typeof e === 'string') return null;
    ids.push(e.emailid);
  }
  return ids;
}

export function normalizeEmail(e: Parsed<'email'>, userid: number): EmailRecord {
  const p = e.isprimary;
  return {
    emailid: e.emailid,
    userid,
    email: e.email,
    status: e.status,
    isprimary: p === undefined ? null : p === true || p === 1 || p === 'true' || p === '1',
  };
}

export function normalizeSite(s: Parsed<'site'>): SiteRecord {
  const rec: SiteRecord = { siteid: s.siteid, sitename: s.sitename, loginpage: s.loginpage };
  const extra = extraOf(s, ['siteid', 'sitename', 'loginpage', 'links']);
  if (extra) rec.extra = extra;
  return rec;
}

export function normalizeProfileCategory(c: Parsed<'profileCategory'>): ProfileCategoryRecord {
  return {
    categoryid: c.categoryid,
    siteid: c.siteid,
    categoryname: c.categoryname,
    groupcount: c.groupcount,
  };
}

export function normalizeGroup(g: Parsed<'group'>, siteid: number): GroupRecord {
  return {
    groupid: g.groupid,
    siteid: g.siteid ?? siteid,
    categoryid: g.categoryid ?? 0,
    groupname: g.groupname,
    usercount: g.usercount,
    accessusercount: g.accessusercount ?? 0,
  };
}

export function normalizeModule(m: Parsed<'module'>, siteid: number): ModuleRecord {
  return {
    id: moduleKey(siteid, m.accessID),
    accessID: m.accessID,
    siteid,
    moduleName: m.moduleName,
    functionName: m.functionName,
  };
}

export function normalizeCredentialCategory(
  c: Parsed<'credentialCategory'>,
  siteid: number,
): CredentialCategoryRecord {
  return {
    categoryid: c.categoryid,
    siteid: c.siteid ?? siteid,
    categoryname: c.categoryname,
    credentialcount: c.credentialcount,
  };
}

export function normalizeCredential(c: Parsed<'credential'>): CredentialRecord {
  return {
    credentialid: c.credentialid,
    credentialname: c.credentialname,
    description: c.description,
    categoryid: c.categoryid ?? 0,
    categoryname: c.categoryname,
    requiredstartdate: c.requiredstartdate === 1,
    requiredexpirationdate: c.requiredexpirationdate === 1,
    requiredcredentialnum: c.requiredcredentialnum === 1,
    requirements: c.requirements,
    activeusercount: c.activeusercount,
    inactiveusercount: c.inactiveusercount,
  };
}

/** The `<credentialid>-<userid>` segment at the end of an assignment link. */
export function assignmentIdFromLink(link: string): { credentialid: number; userid: number } | null {
  const m = /(\d+)-(\d+)\/?(?:[?#].*)?$/.exec(link);
  return m ? { credentialid: Number(m[1]), userid: Number(m[2]) } : null;
}

/** Null when the assignment names no user (neither `userid` nor a parseable link): such a row cannot be keyed. */
export function normalizeCredentialAssignment(
  a: Parsed<'credentialAssignment'>,
  userid?: number,
): CredentialAssignmentRecord | null {
  const uid = a.userid ?? userid ?? assignmentIdFromLink(a.link)?.userid;
  if (uid === undefined) return null;
  return {
    id: credentialAssignmentKey(a.credentialid, uid),
    credentialid: a.credentialid,
    userid: uid,
    startdate: a.startdate,
    startIso: toIsoDate(a.startdate),
    expirationdate: a.expirationdate,
    expirationIso: toIsoDate(a.expirationdate),
    credentialnumber: a.credentialnumber,
    status: a.status,
    attachmentcount: a.attachmentcount,
    notes: a.notes,
  };
}

export function normalizeCourse(c: Parsed<'course'>, siteid: number): CourseRecord {
  return {
    courseid: c.courseid,
    siteid: c.siteid ?? siteid,
    coursename: c.coursename,
    coursetype: c.coursetype ?? null,
    status: c.status,
  };
}

export function normalizeTrainingAssignment(
  t: Parsed<'trainingAssignment'>,
  siteid: number,
): TrainingAssignmentRecord {
  return {
    transcriptid: t.transcriptid,
    userid: t.userid,
    courseid: t.courseid,
    siteid,
    course_name: t.course_name,
    course_type: t.course_type ?? null,
    course_status: t.course_status,
    assignment_method: t.assignment_method,
    start_date: t.start_date,
    start_time: t.start_time,
    startIso: toIsoDate(t.start_date),
    due_date: t.due_date,
    due_time: t.due_time,
    dueIso: toIsoDate(t.due_date),
    assignment_created_date: t.assignment_created_date,
    createdIso: toIsoDate(t.assignment_created_date),
  };
}
