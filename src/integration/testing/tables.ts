/**
 * Every table of the cache and of the reference server in one comparable shape:
 * per table, each record's key → its compared fields joined as one string. The
 * server's side is read with SQL from its own storage (what the token can see: our
 * customer's sites), never from what the client was told.
 */
import type { RunningServer } from '../../server/index.ts';
import { OUR_CUSTOMER } from '../../server/datasets.ts';
import type { FieldbookDb } from '../../renderer/db/index.ts';

export type Tables = Record<string, Map<string, string>>;

type Row = Record<string, unknown>;

const row = (values: readonly unknown[]): string => values.map((v) => (v === null || v === undefined ? '∅' : String(v))).join(' | ');

const OUR_SITES = `(SELECT siteid FROM sites WHERE customerid = ${OUR_CUSTOMER})`;
const OUR_USERS = `(SELECT userid FROM users WHERE siteid IN ${OUR_SITES})`;

/** table → [SQL, the key of a row, the compared fields of a row] */
const SERVER_SQL: Record<string, [string, (r: Row) => string, (r: Row) => unknown[]]> = {
  sites: [`SELECT siteid, sitename FROM sites WHERE siteid IN ${OUR_SITES}`, (r) => String(r.siteid), (r) => [r.sitename]],
  users: [
    `SELECT * FROM users WHERE siteid IN ${OUR_SITES}`,
    (r) => String(r.userid),
    (r) => [r.siteid, r.username, r.firstname, r.lastname, r.employeeid, r.status, r.usertype],
  ],
  emails: [`SELECT * FROM emails WHERE userid IN ${OUR_USERS}`, (r) => String(r.emailid), (r) => [r.userid, r.email, r.status, r.isprimary === 1]],
  profileCategories: [`SELECT * FROM profile_categories WHERE siteid IN ${OUR_SITES}`, (r) => String(r.categoryid), (r) => [r.siteid, r.categoryname]],
  groups: [`SELECT * FROM profile_groups WHERE siteid IN ${OUR_SITES}`, (r) => String(r.groupid), (r) => [r.siteid, r.categoryid, r.groupname]],
  groupMembers: [`SELECT * FROM group_members WHERE userid IN ${OUR_USERS}`, (r) => `${r.groupid}-${r.userid}`, () => []],
  groupAccess: [`SELECT * FROM group_access WHERE userid IN ${OUR_USERS}`, (r) => `${r.groupid}-${r.userid}`, () => []],
  modules: [`SELECT s.siteid, m.* FROM modules m, sites s WHERE s.siteid IN ${OUR_SITES}`, (r) => `${r.siteid}-${r.accessID}`, (r) => [r.moduleName, r.functionName]],
  moduleAccess: [`SELECT * FROM module_access WHERE userid IN ${OUR_USERS}`, (r) => `${r.siteid}-${r.accessID}-${r.userid}`, () => []],
  credentialCategories: [`SELECT * FROM credential_categories WHERE siteid IN ${OUR_SITES}`, (r) => String(r.categoryid), (r) => [r.siteid, r.categoryname]],
  credentials: [
    `SELECT k.* FROM credentials k JOIN credential_categories c ON c.categoryid = k.categoryid WHERE c.siteid IN ${OUR_SITES}`,
    (r) => String(r.credentialid),
    (r) => [r.categoryid, r.credentialname],
  ],
  credentialAssignments: [
    `SELECT * FROM credential_assignments WHERE userid IN ${OUR_USERS}`,
    (r) => `${r.credentialid}-${r.userid}`,
    (r) => [r.startdate, r.expirationdate, r.credentialnumber, r.status, r.notes, r.attachmentcount],
  ],
  courses: [`SELECT * FROM courses WHERE siteid IN ${OUR_SITES}`, (r) => String(r.courseid), (r) => [r.siteid, r.coursename, r.status]],
  trainingAssignments: [
    `SELECT * FROM training_assignments WHERE userid IN ${OUR_USERS}`,
    (r) => String(r.transcriptid),
    (r) => [r.userid, r.courseid, r.siteid, r.course_status, r.assignment_method, r.start_date, r.due_date],
  ],
};

/** The cache's compared fields, in SERVER_SQL's order (dates as their normalised ISO form). */
const CACHE_FIELDS: Record<string, (r: Row) => unknown[]> = {
  sites: (r) => [r.sitename],
  users: (r) => [r.siteid, r.username, r.firstname, r.lastname, r.employeeid, r.status, r.usertype],
  emails: (r) => [r.userid, r.email, r.status, r.isprimary],
  profileCategories: (r) => [r.siteid, r.categoryname],
  groups: (r) => [r.siteid, r.categoryid, r.groupname],
  groupMembers: () => [],
  groupAccess: () => [],
  modules: (r) => [r.moduleName, r.functionName],
  moduleAccess: () => [],
  credentialCategories: (r) => [r.siteid, r.categoryname],
  credentials: (r) => [r.categoryid, r.credentialname],
  credentialAssignments: (r) => [r.startIso, r.expirationIso, r.credentialnumber, r.status, r.notes, r.attachmentcount],
  courses: (r) => [r.siteid, r.coursename, r.status],
  trainingAssignments: (r) => [r.userid, r.courseid, r.siteid, r.course_status, r.assignment_method, r.startIso, r.dueIso],
};

const CACHE_KEY: Record<string, string> = {
  sites: 'siteid', users: 'userid', emails: 'emailid', profileCategories: 'categoryid', groups: 'groupid', credentialCategories: 'categoryid',
  credentials: 'credentialid', courses: 'courseid', trainingAssignments: 'transcriptid',
};

export function serverTables(server: RunningServer): Tables {
  const tables: Tables = {};
  for (const [table, [sql, key, fields]] of Object.entries(SERVER_SQL)) {
    tables[table] = new Map(server.query<Row>(sql).map((r) => [key(r), row(fields(r))]));
  }
  return tables;
}

export async function cacheTables(db: FieldbookDb): Promise<Tables> {
  const tables: Tables = {};
  for (const [table, fields] of Object.entries(CACHE_FIELDS)) {
    const rows = (await db.table(table).toArray()) as Row[];
    const key = CACHE_KEY[table] ?? 'id';
    tables[table] = new Map(rows.map((r) => [String(r[key]), row(fields(r))]));
  }
  return tables;
}
