/**
 * SQLite schema of the reference server. Dates are stored as ISO `YYYY-MM-DD`
 * ('' when unset) and formatted to the wire formats on the way out; times of
 * day as minutes after midnight. Ids are global across sites, as the API's
 * site-less routes (`/users/{userid}`) require.
 */
export const SCHEMA_VERSION = '1';

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sites (
  siteid INTEGER PRIMARY KEY, customerid INTEGER NOT NULL, sitename TEXT NOT NULL, loginpage TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users (
  userid INTEGER PRIMARY KEY, siteid INTEGER NOT NULL, username TEXT NOT NULL, firstname TEXT NOT NULL,
  lastname TEXT NOT NULL, employeeid TEXT NOT NULL, status TEXT NOT NULL, usertype TEXT NOT NULL,
  password TEXT NOT NULL DEFAULT '');
CREATE UNIQUE INDEX IF NOT EXISTS users_username ON users(username COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS users_site ON users(siteid);
CREATE TABLE IF NOT EXISTS emails (
  emailid INTEGER PRIMARY KEY, userid INTEGER NOT NULL, email TEXT NOT NULL, status TEXT NOT NULL,
  isprimary INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS emails_user ON emails(userid);
CREATE UNIQUE INDEX IF NOT EXISTS emails_address ON emails(email COLLATE NOCASE);
CREATE TABLE IF NOT EXISTS profile_categories (
  categoryid INTEGER PRIMARY KEY, siteid INTEGER NOT NULL, categoryname TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS profile_groups (
  groupid INTEGER PRIMARY KEY, siteid INTEGER NOT NULL, categoryid INTEGER NOT NULL, groupname TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS profile_groups_category ON profile_groups(categoryid);
CREATE INDEX IF NOT EXISTS profile_groups_site ON profile_groups(siteid);
CREATE TABLE IF NOT EXISTS group_members (
  groupid INTEGER NOT NULL, userid INTEGER NOT NULL, PRIMARY KEY (groupid, userid)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS group_members_user ON group_members(userid, groupid);
CREATE TABLE IF NOT EXISTS group_access (
  groupid INTEGER NOT NULL, userid INTEGER NOT NULL, PRIMARY KEY (groupid, userid)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS group_access_user ON group_access(userid, groupid);
CREATE TABLE IF NOT EXISTS modules (
  accessID INTEGER PRIMARY KEY, moduleName TEXT NOT NULL, functionName TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS module_access (
  siteid INTEGER NOT NULL, accessID INTEGER NOT NULL, userid INTEGER NOT NULL,
  PRIMARY KEY (siteid, accessID, userid)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS module_access_user ON module_access(userid, accessID);
CREATE TABLE IF NOT EXISTS credential_categories (
  categoryid INTEGER PRIMARY KEY, siteid INTEGER NOT NULL, categoryname TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS credentials (
  credentialid INTEGER PRIMARY KEY, categoryid INTEGER NOT NULL, credentialname TEXT NOT NULL,
  description TEXT NOT NULL, requiredstartdate INTEGER NOT NULL, requiredexpirationdate INTEGER NOT NULL,
  requiredcredentialnum INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS credentials_category ON credentials(categoryid);
CREATE TABLE IF NOT EXISTS credential_assignments (
  credentialid INTEGER NOT NULL, userid INTEGER NOT NULL, startdate TEXT NOT NULL, expirationdate TEXT NOT NULL,
  credentialnumber TEXT NOT NULL, status TEXT NOT NULL, attachmentcount INTEGER NOT NULL, notes TEXT NOT NULL,
  PRIMARY KEY (credentialid, userid)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS credential_assignments_user ON credential_assignments(userid, credentialid);
CREATE TABLE IF NOT EXISTS courses (
  courseid INTEGER PRIMARY KEY, siteid INTEGER NOT NULL, coursename TEXT NOT NULL, coursetype INTEGER NOT NULL,
  status TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS courses_site ON courses(siteid);
CREATE TABLE IF NOT EXISTS training_assignments (
  transcriptid INTEGER PRIMARY KEY, userid INTEGER NOT NULL, courseid INTEGER NOT NULL, siteid INTEGER NOT NULL,
  course_status TEXT NOT NULL, assignment_method TEXT NOT NULL, start_date TEXT NOT NULL, start_minute INTEGER NOT NULL,
  due_date TEXT NOT NULL, due_minute INTEGER NOT NULL, created_date TEXT NOT NULL, created_minute INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS training_site ON training_assignments(siteid);
CREATE INDEX IF NOT EXISTS training_course ON training_assignments(courseid);
CREATE UNIQUE INDEX IF NOT EXISTS training_user_course ON training_assignments(userid, courseid);
`;

/** Tables emptied by a reset, children first. */
export const DATA_TABLES = [
  'training_assignments',
  'courses',
  'credential_assignments',
  'credentials',
  'credential_categories',
  'module_access',
  'modules',
  'group_access',
  'group_members',
  'profile_groups',
  'profile_categories',
  'emails',
  'users',
  'sites',
  'meta',
];
