/**
 * Database rows -> wire objects, typed with the shared wire types. Links are
 * absolute URLs to this server, in the shape each resource uses (an object, an
 * array of single-key objects, or a singular `link`). Pure.
 */
import { isoToLongDate, isoToWireDate } from '../shared/dates.ts';
import type {
  WireAccessUser,
  WireCourse,
  WireCredential,
  WireCredentialAssignment,
  WireCredentialCategory,
  WireEmail,
  WireGroup,
  WireGroupMember,
  WireModule,
  WireProfileCategory,
  WireSite,
  WireTrainingAssignment,
  WireUser,
} from '../shared/api/wire.ts';

export interface SiteRow {
  siteid: number;
  sitename: string;
  loginpage: string;
}
export interface UserRow {
  userid: number;
  siteid: number;
  username: string;
  firstname: string;
  lastname: string;
  employeeid: string;
  status: string;
  usertype: string;
}
export interface EmailRow {
  emailid: number;
  userid: number;
  email: string;
  status: string;
  isprimary: number;
}
export interface ProfileCategoryRow {
  categoryid: number;
  siteid: number;
  categoryname: string;
  groupcount: number;
}
export interface GroupRow {
  groupid: number;
  siteid: number;
  categoryid: number;
  groupname: string;
  usercount: number;
  accessusercount: number;
}
export interface ModuleRow {
  accessID: number;
  moduleName: string;
  functionName: string;
}
export interface CredentialCategoryRow {
  categoryid: number;
  siteid: number;
  categoryname: string;
  credentialcount: number;
}
export interface CredentialRow {
  credentialid: number;
  categoryid: number;
  categoryname: string;
  credentialname: string;
  description: string;
  requiredstartdate: number;
  requiredexpirationdate: number;
  requiredcredentialnum: number;
  activeusercount: number;
  inactiveusercount: number;
}
export interface CredentialAssignmentRow {
  credentialid: number;
  userid: number;
  startdate: string;
  expirationdate: string;
  credentialnumber: string;
  status: string;
  attachmentcount: number;
  notes: string;
  firstname?: string;
  lastname?: string;
}
export interface CourseRow {
  courseid: number;
  siteid: number;
  coursename: string;
  coursetype: number;
  status: string;
}
export interface TrainingRow {
  transcriptid: number;
  userid: number;
  courseid: number;
  employeeid: string;
  firstname: string;
  lastname: string;
  coursename: string;
  coursetype: number;
  course_status: string;
  assignment_method: string;
  start_date: string;
  start_minute: number;
  due_date: string;
  due_minute: number;
  created_date: string;
  created_minute: number;
}

export function renderSite(base: string, s: SiteRow): WireSite {
  const self = `${base}/sites/${s.siteid}`;
  return {
    siteid: s.siteid,
    sitename: s.sitename,
    loginpage: s.loginpage,
    links: [
      { resourcelink: self },
      { profilecategories: `${self}/categories/profile` },
      { credentialcategories: `${self}/categories/credential` },
      { credentials: `${base}/credentials` },
      { users: `${self}/users` },
      { access: `${self}/access/groups` },
    ],
  };
}

export function renderEmail(base: string, e: EmailRow): WireEmail {
  return {
    emailid: e.emailid,
    email: e.email,
    status: e.status,
    isprimary: e.isprimary === 1,
    link: `${base}/users/${e.userid}/emails/${e.emailid}`,
  };
}

export function renderUser(base: string, u: UserRow, emails: WireEmail[]): WireUser {
  const self = `${base}/users/${u.userid}`;
  return {
    userid: u.userid,
    siteid: u.siteid,
    username: u.username,
    firstname: u.firstname,
    lastname: u.lastname,
    employeeid: u.employeeid,
    status: u.status,
    usertype: u.usertype,
    email: emails,
    links: {
      resourcelink: self,
      credentials: `${self}/credentials`,
      'access/modules': `${self}/access/modules`,
      groups: `${self}/groups`,
      'access/groups': `${self}/access/groups`,
    },
  };
}

export function renderGroupMember(base: string, u: UserRow): WireGroupMember {
  return {
    links: { resourcelink: `${base}/users/${u.userid}` },
    firstname: u.firstname,
    lastname: u.lastname,
    employeeid: u.employeeid,
    username: u.username,
    userid: u.userid,
  };
}

export function renderAccessUser(base: string, u: UserRow): WireAccessUser {
  return {
    userid: u.userid,
    username: u.username,
    firstname: u.firstname,
    lastname: u.lastname,
    links: { resourcelink: `${base}/users/${u.userid}` },
  };
}

export function renderProfileCategory(base: string, c: ProfileCategoryRow): WireProfileCategory {
  const self = `${base}/sites/${c.siteid}/categories/profile/${c.categoryid}`;
  return {
    categoryid: c.categoryid,
    siteid: c.siteid,
    categoryname: c.categoryname,
    groupcount: c.groupcount,
    links: [{ resourcelink: self }, { groups: `${self}/groups` }],
  };
}

/**
 * A group as supervisors are given access over it (`users` = who holds access),
 * as a category lists it (`users` = its members), or as a user's own group
 * (no accessusercount, only resourcelink).
 */
export function renderGroup(base: string, g: GroupRow, as: 'access' | 'category' | 'user'): WireGroup {
  const self = `${base}/sites/${g.siteid}/access/groups/${g.groupid}`;
  const common = {
    groupid: g.groupid,
    siteid: g.siteid,
    categoryid: g.categoryid,
    groupname: g.groupname,
    usercount: g.usercount,
  };
  if (as === 'user') return { ...common, links: { resourcelink: self } };
  const users =
    as === 'access'
      ? `${self}/users`
      : `${base}/sites/${g.siteid}/categories/profile/${g.categoryid}/groups/${g.groupid}/users`;
  return { ...common, accessusercount: g.accessusercount, links: { users, resourcelink: self } };
}

export function renderModule(base: string, siteid: number, m: ModuleRow): WireModule {
  const self = `${base}/sites/${siteid}/access/modules/${m.accessID}`;
  return {
    accessID: m.accessID,
    moduleName: m.moduleName,
    functionName: m.functionName,
    links: { users: `${self}/users`, resourcelink: self },
  };
}

export function renderCredentialCategory(base: string, c: CredentialCategoryRow): WireCredentialCategory {
  const self = `${base}/sites/${c.siteid}/categories/credential/${c.categoryid}`;
  return {
    categoryid: c.categoryid,
    siteid: c.siteid,
    categoryname: c.categoryname,
    credentialcount: c.credentialcount,
    links: [{ credentials: `${self}/credentials` }, { resourcelink: self }],
  };
}

/** "Start date and expiration date required": the human summary of a credential's required fields. */
export function requirementsText(start: number, expiration: number, num: number): string {
  const parts = [
    start ? 'start date' : '',
    expiration ? 'expiration date' : '',
    num ? 'credential number' : '',
  ].filter(Boolean);
  if (!parts.length) return 'Nothing required';
  const list =
    parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `${list[0]!.toUpperCase()}${list.slice(1)} required`;
}

export function renderCredential(base: string, c: CredentialRow): WireCredential {
  const self = `${base}/credentials/${c.credentialid}`;
  return {
    credentialid: c.credentialid,
    credentialname: c.credentialname,
    description: c.description,
    categoryid: c.categoryid,
    categoryname: c.categoryname,
    requiredstartdate: c.requiredstartdate,
    requiredexpirationdate: c.requiredexpirationdate,
    requiredcredentialnum: c.requiredcredentialnum,
    requirements: requirementsText(c.requiredstartdate, c.requiredexpirationdate, c.requiredcredentialnum),
    activeusercount: c.activeusercount,
    inactiveusercount: c.inactiveusercount,
    link: [{ assignments: `${self}/assignments` }, { resourcelink: self }],
  };
}

/** With `withUser`, the per-credential list's extra userid, firstname and lastname. */
export function renderCredentialAssignment(
  base: string,
  a: CredentialAssignmentRow,
  withUser: boolean,
): WireCredentialAssignment {
  const user = withUser ? { userid: a.userid, firstname: a.firstname ?? '', lastname: a.lastname ?? '' } : {};
  return {
    credentialid: a.credentialid,
    ...user,
    startdate: isoToWireDate(a.startdate),
    expirationdate: isoToWireDate(a.expirationdate),
    credentialnumber: a.credentialnumber,
    status: a.status,
    attachmentcount: a.attachmentcount,
    notes: a.notes,
    link: `${base}/credentials/${a.credentialid}/assignments/${a.credentialid}-${a.userid}`,
  };
}

export function renderCourse(base: string, c: CourseRow): WireCourse {
  const self = `${base}/sites/${c.siteid}/course/${c.courseid}`;
  return {
    courseid: c.courseid,
    siteid: c.siteid,
    coursename: c.coursename,
    coursetype: c.coursetype,
    status: c.status,
    links: { resourcelink: self, trainingassignments: `${self}/trainingassignments` },
  };
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Minutes after midnight as `HH:MM:SS` (24 h). */
export function clock24(minute: number): string {
  return `${pad2(Math.floor(minute / 60))}:${pad2(minute % 60)}:00`;
}

/** Minutes after midnight as `HH:MM AM/PM`. */
export function clock12(minute: number): string {
  const h = Math.floor(minute / 60);
  return `${pad2(h % 12 === 0 ? 12 : h % 12)}:${pad2(minute % 60)} ${h < 12 ? 'AM' : 'PM'}`;
}

// Pages of training assignments repeat a few hundred dates and times: format each once.
const CLOCK24 = Array.from({ length: 24 * 60 }, (_, m) => clock24(m));
const CLOCK12 = Array.from({ length: 24 * 60 }, (_, m) => clock12(m));
const LONG_DAY = new Map<string, string>();

function longDate(iso: string, minute: number): string {
  if (!iso) return '';
  let day = LONG_DAY.get(iso);
  if (day === undefined) {
    day = isoToLongDate(iso, '').trimEnd();
    if (LONG_DAY.size > 50_000) LONG_DAY.clear();
    LONG_DAY.set(iso, day);
  }
  return day ? `${day} ${CLOCK24[minute] ?? clock24(minute)}` : '';
}

function time12(iso: string, minute: number): string {
  return iso ? (CLOCK12[minute] ?? clock12(minute)) : '';
}

/** "integer as shown"; an employee id that is not a number travels as it is. */
function employeeNumber(employeeid: string): number | string {
  const n = Number(employeeid);
  return employeeid !== '' && Number.isSafeInteger(n) && String(n) === employeeid ? n : employeeid;
}

export function renderTrainingAssignment(t: TrainingRow): WireTrainingAssignment {
  return {
    transcriptid: t.transcriptid,
    userid: t.userid,
    courseid: t.courseid,
    employeeid: employeeNumber(t.employeeid),
    firstname: t.firstname,
    lastname: t.lastname,
    course_name: t.coursename,
    course_type: t.coursetype,
    course_status: t.course_status,
    assignment_method: t.assignment_method,
    start_date: longDate(t.start_date, t.start_minute),
    start_time: time12(t.start_date, t.start_minute),
    due_date: longDate(t.due_date, t.due_minute),
    due_time: time12(t.due_date, t.due_minute),
    assignment_created_date: longDate(t.created_date, t.created_minute),
  };
}
