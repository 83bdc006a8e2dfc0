/**
 * Every table of the client's cache and of the reference server in one comparable
 * shape: per table, each record's key → its compared fields joined as one string.
 * The server's side is read with SQL from its own storage (what the token can see:
 * our customer's sites), never from what the client was told; the cache's side from
 * its rows as IndexedDB holds them (read by the test, in Node or in the browser).
 */
import type { RunningServer } from '../index.ts';
import { OUR_CUSTOMER } from '../datasets.ts';

export type Tables = Record<string, Map<string, string>>;

export type Row = Record<string, unknown>;

const row = (values: readonly unknown[]): string =>
  values.map((v) => (v === null || v === undefined ? '∅' : String(v))).join(' | ');

const ALL_OUR_SITES = `(SELECT siteid FROM sites WHERE customerid = ${OUR_CUSTOMER})`;

/**
 * table → [SQL, the key of a row, the compared fields of a row], over the sites
 * of `OUR_SITES` (every site of our customer, or those a profile keeps).
 */
function serverSql(OUR_SITES: string): Record<string, [string, (r: Row) => string, (r: Row) => unknown[]]> {
  const OUR_USERS = `(SELECT userid FROM users WHERE siteid IN ${OUR_SITES})`;
  return {
    sites: [
      `SELECT siteid, sitename FROM sites WHERE siteid IN ${OUR_SITES}`,
      (r) => String(r.siteid),
      (r) => [r.sitename],
    ],
    users: [
      `SELECT * FROM users WHERE siteid IN ${OUR_SITES}`,
      (r) => String(r.userid),
      (r) => [r.siteid, r.username, r.firstname, r.lastname, r.employeeid, r.status, r.usertype],
    ],
    emails: [
      `SELECT * FROM emails WHERE userid IN ${OUR_USERS}`,
      (r) => String(r.emailid),
      (r) => [r.userid, r.email, r.status, r.isprimary === 1],
    ],
    profileCategories: [
      `SELECT * FROM profile_categories WHERE siteid IN ${OUR_SITES}`,
      (r) => String(r.categoryid),
      (r) => [r.siteid, r.categoryname],
    ],
    groups: [
      `SELECT * FROM profile_groups WHERE siteid IN ${OUR_SITES}`,
      (r) => String(r.groupid),
      (r) => [r.siteid, r.categoryid, r.groupname],
    ],
    groupMembers: [
      `SELECT * FROM group_members WHERE userid IN ${OUR_USERS}`,
      (r) => `${r.groupid}-${r.userid}`,
      () => [],
    ],
    groupAccess: [
      `SELECT * FROM group_access WHERE userid IN ${OUR_USERS}`,
      (r) => `${r.groupid}-${r.userid}`,
      () => [],
    ],
    modules: [
      `SELECT s.siteid, m.* FROM modules m, sites s WHERE s.siteid IN ${OUR_SITES}`,
      (r) => `${r.siteid}-${r.accessID}`,
      (r) => [r.moduleName, r.functionName],
    ],
    moduleAccess: [
      `SELECT * FROM module_access WHERE userid IN ${OUR_USERS}`,
      (r) => `${r.siteid}-${r.accessID}-${r.userid}`,
      () => [],
    ],
    credentialCategories: [
      `SELECT * FROM credential_categories WHERE siteid IN ${OUR_SITES}`,
      (r) => String(r.categoryid),
      (r) => [r.siteid, r.categoryname],
    ],
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
    courses: [
      `SELECT * FROM courses WHERE siteid IN ${OUR_SITES}`,
      (r) => String(r.courseid),
      (r) => [r.siteid, r.coursename, r.status],
    ],
    trainingAssignments: [
      `SELECT * FROM training_assignments WHERE userid IN ${OUR_USERS}`,
      (r) => String(r.transcriptid),
      (r) => [r.userid, r.courseid, r.siteid, r.course_status, r.assignment_method, r.start_date, r.due_date],
    ],
  };
}

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
  credentialAssignments: (r) => [
    r.startIso,
    r.expirationIso,
    r.credentialnumber,
    r.status,
    r.notes,
    r.attachmentcount,
  ],
  courses: (r) => [r.siteid, r.coursename, r.status],
  trainingAssignments: (r) => [
    r.userid,
    r.courseid,
    r.siteid,
    r.course_status,
    r.assignment_method,
    r.startIso,
    r.dueIso,
  ],
};

const CACHE_KEY: Record<string, string> = {
  sites: 'siteid',
  users: 'userid',
  emails: 'emailid',
  profileCategories: 'categoryid',
  groups: 'groupid',
  credentialCategories: 'categoryid',
  credentials: 'credentialid',
  courses: 'courseid',
  trainingAssignments: 'transcriptid',
};

/**
 * The server's tables, as the token sees them; with `siteids`, only those sites' records (a profile keeping some
 * sites).
 */
export function serverTables(server: Pick<RunningServer, 'query'>, siteids?: readonly number[]): Tables {
  const tables: Tables = {};
  const kept = siteids?.map((id) => Number(id)).join(',');
  const sites = siteids
    ? `(SELECT siteid FROM sites WHERE customerid = ${OUR_CUSTOMER} AND siteid IN (${kept}))`
    : ALL_OUR_SITES;
  for (const [table, [sql, key, fields]] of Object.entries(serverSql(sites))) {
    tables[table] = new Map(server.query<Row>(sql).map((r) => [key(r), row(fields(r))]));
  }
  return tables;
}

/** The cache's tables, as read from IndexedDB (object store name → its rows), in the comparable shape. */
export function cacheTables(rowsByTable: Readonly<Record<string, readonly Row[]>>): Tables {
  const tables: Tables = {};
  for (const [table, fields] of Object.entries(CACHE_FIELDS)) {
    const key = CACHE_KEY[table] ?? 'id';
    tables[table] = new Map((rowsByTable[table] ?? []).map((r) => [String(r[key]), row(fields(r))]));
  }
  return tables;
}

/** The object stores a comparison reads. */
export const COMPARED_TABLES: readonly string[] = Object.keys(CACHE_FIELDS);

/** Differences between the cache and the server, as readable lines (empty when equal). */
export function differences(cache: Tables, server: Tables): string[] {
  const lines: string[] = [];
  for (const [table, rows] of Object.entries(server)) {
    const cached = cache[table] ?? new Map<string, string>();
    for (const [key, value] of rows) {
      const mine = cached.get(key);
      if (mine === undefined) lines.push(`${table} ${key}: on the server, not in the cache`);
      else if (mine !== value) lines.push(`${table} ${key}: cache ${mine} ≠ server ${value}`);
    }
    for (const key of cached.keys())
      if (!rows.has(key)) lines.push(`${table} ${key}: in the cache, not on the server`);
  }
  return lines;
}

/**
 * The differences as a short report: how many per table, and the first few of each (one kind does not hide another).
 */
export function summariseDifferences(lines: readonly string[]): { summary: string; shown: string[] } {
  const perTable = new Map<string, number>();
  for (const line of lines) {
    const table = line.slice(0, line.indexOf(' '));
    perTable.set(table, (perTable.get(table) ?? 0) + 1);
  }
  const shown = [...perTable.keys()].flatMap((table) =>
    lines.filter((line) => line.startsWith(`${table} `)).slice(0, 5),
  );
  return {
    summary: `${lines.length} differences: ${[...perTable].map(([t, n]) => `${t} ${n}`).join(', ')}`,
    shown,
  };
}
