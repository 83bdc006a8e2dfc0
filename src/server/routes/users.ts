/** Users and their e-mail addresses. */
import { createHash, randomBytes } from 'node:crypto';
import { ResponseCode } from '../../shared/api/codes.ts';
import { WrapperKey, type WireEmail, type WireUser } from '../../shared/api/wire.ts';
import { bodyObject, nonEmpty, optionalChoice, optionalText, requiredFields, type Body } from '../body.ts';
import {
  USER_COLUMNS,
  apiError,
  callerSites,
  id,
  listPage,
  requireSite,
  requireUser,
  requireWrite,
  single,
  written,
  type ApiContext,
  type Route,
} from '../context.ts';
import { renderEmail, renderUser, type EmailRow, type UserRow } from '../render.ts';
import type { SearchSpec } from '../search.ts';
import { denied, invalid, missing, notUnique } from '../status.ts';

export const USER_STATUSES = ['Active', 'Offline', 'Inactive', 'Expired'] as const;
export const USER_TYPES = ['User', 'Supervisor', 'Administrator'] as const;

const USER_SEARCH: SearchSpec = {
  username: { type: 'text', sql: 'u.username' },
  firstname: { type: 'text', sql: 'u.firstname' },
  lastname: { type: 'text', sql: 'u.lastname' },
  status: { type: 'text', sql: 'u.status' },
  employeeid: { type: 'text', sql: 'u.employeeid' },
  usertype: { type: 'text', sql: 'u.usertype' },
};

const EMAIL_SEARCH: SearchSpec = {
  email: { type: 'text', sql: 'e.email' },
  status: { type: 'text', sql: 'e.status' },
  isprimary: { type: 'bool', sql: 'e.isprimary' },
};

const EMAIL_COLUMNS = 'e.emailid, e.userid, e.email, e.status, e.isprimary';

/** Users with their e-mails: one query for the e-mails of the whole page. */
export function renderUsers(ctx: ApiContext, rows: UserRow[]): WireUser[] {
  const emails = new Map<number, WireEmail[]>();
  if (rows.length) {
    const first = rows[0]!.userid;
    const last = rows[rows.length - 1]!.userid;
    // a dense page reads its id range; a sparse one (a search) only its own ids
    const found =
      last - first < rows.length * 2
        ? ctx.store.all<EmailRow>(
            `SELECT ${EMAIL_COLUMNS} FROM emails e WHERE e.userid BETWEEN ? AND ? ORDER BY e.emailid`,
            first,
            last,
          )
        : ctx.store.all<EmailRow>(
            `SELECT ${EMAIL_COLUMNS} FROM emails e WHERE e.userid IN (SELECT value FROM json_each(?)) ORDER BY e.emailid`,
            JSON.stringify(rows.map((u) => u.userid)),
          );
    for (const e of found) {
      let list = emails.get(e.userid);
      if (!list) emails.set(e.userid, (list = []));
      list.push(renderEmail(ctx.base, e));
    }
  }
  return rows.map((u) => renderUser(ctx.base, u, emails.get(u.userid) ?? []));
}

function listUsers(ctx: ApiContext, siteid?: number): ReturnType<Route['handler']> {
  // `+` keeps SQLite from using the site index for a filter that is rarely selective: the list is read in userid order
  const where = [`+u.siteid IN (${callerSites(ctx)})`];
  const params = [];
  if (siteid !== undefined) {
    requireSite(ctx, siteid, 'read');
    where.push('u.siteid = ?');
    params.push(siteid);
  }
  return listPage<UserRow, WireUser>(
    ctx,
    WrapperKey.users,
    { select: USER_COLUMNS, from: 'users u', where, params, key: 'u.userid' },
    USER_SEARCH,
    (rows) => renderUsers(ctx, rows),
  );
}

function hashPassword(password: string): string {
  const salt = randomBytes(16).toString('base64url');
  return `sha256:${salt}:${createHash('sha256').update(`${salt}:${password}`).digest('base64url')}`;
}

function checkUsername(ctx: ApiContext, username: string, exceptUserid?: number): void {
  if (/\s/.test(username)) throw invalid('username must not contain spaces.');
  const taken = ctx.store.get<{ userid: number }>(
    'SELECT userid FROM users WHERE username = ? COLLATE NOCASE',
    username,
  );
  if (taken && taken.userid !== exceptUserid) throw notUnique('That username is already taken.');
}

interface UserChanges {
  username?: string;
  firstname?: string;
  lastname?: string;
  employeeid?: string;
  status?: string;
}

function userChanges(b: Body): UserChanges {
  const changes: UserChanges = {
    username: optionalText(b, 'username', 100),
    firstname: optionalText(b, 'firstname', 100),
    lastname: optionalText(b, 'lastname', 100),
    employeeid: optionalText(b, 'employeeid', 50),
    status: optionalChoice(b, 'status', USER_STATUSES),
  };
  nonEmpty('username', changes.username);
  nonEmpty('firstname', changes.firstname);
  nonEmpty('lastname', changes.lastname);
  return changes;
}

function updateUser(ctx: ApiContext): ReturnType<Route['handler']> {
  requireWrite(ctx);
  const user = requireUser(ctx, id(ctx, 'userid'), 'write');
  const changes = userChanges(bodyObject(ctx.body));
  const fields = Object.entries(changes).filter(([, v]) => v !== undefined) as [keyof UserChanges, string][];
  if (!fields.length)
    throw apiError(
      ResponseCode.NoValidParameters,
      'No valid parameters: send one of username, firstname, lastname, status, employeeid.',
    );
  if (changes.username !== undefined) checkUsername(ctx, changes.username, user.userid);
  ctx.store.run(
    `UPDATE users SET ${fields.map(([k]) => `${k} = ?`).join(', ')} WHERE userid = ?`,
    ...fields.map(([, v]) => v),
    user.userid,
  );
  return written(ctx, ResponseCode.Updated, 'User updated.', { userid: user.userid });
}

function createUser(ctx: ApiContext): ReturnType<Route['handler']> {
  requireWrite(ctx);
  const siteid = id(ctx, 'siteid');
  requireSite(ctx, siteid, 'write');
  const b = bodyObject(ctx.body);
  requiredFields(b, ['username', 'firstname', 'lastname']);
  const fields = userChanges(b);
  const password = optionalText(b, 'password', 200);
  if (password !== undefined && password.length < 8) throw invalid('password must be at least 8 characters.');
  const usertype = optionalChoice(b, 'usertype', USER_TYPES) ?? 'User';
  checkUsername(ctx, fields.username!);
  const { lastId } = ctx.store.run(
    'INSERT INTO users (siteid, username, firstname, lastname, employeeid, status, usertype, password) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    siteid,
    fields.username!,
    fields.firstname!,
    fields.lastname!,
    fields.employeeid ?? '',
    fields.status ?? 'Offline',
    usertype,
    password === undefined ? '' : hashPassword(password),
  );
  return written(ctx, ResponseCode.Created, 'User created.', { userid: lastId });
}

function getUser(ctx: ApiContext): ReturnType<Route['handler']> {
  const user = requireUser(ctx, id(ctx, 'userid'), 'read');
  return single(WrapperKey.users, renderUsers(ctx, [user])[0]);
}

function listEmails(ctx: ApiContext): ReturnType<Route['handler']> {
  const user = requireUser(ctx, id(ctx, 'userid'), 'read');
  return listPage<EmailRow, WireEmail>(
    ctx,
    WrapperKey.emails,
    {
      select: EMAIL_COLUMNS,
      from: 'emails e',
      where: ['e.userid = ?'],
      params: [user.userid],
      key: 'e.emailid',
    },
    EMAIL_SEARCH,
    (rows) => rows.map((e) => renderEmail(ctx.base, e)),
  );
}

function getEmail(ctx: ApiContext): ReturnType<Route['handler']> {
  const user = requireUser(ctx, id(ctx, 'userid'), 'read');
  const e = ctx.store.get<EmailRow>(
    `SELECT ${EMAIL_COLUMNS} FROM emails e WHERE e.emailid = ? AND e.userid = ?`,
    id(ctx, 'emailid'),
    user.userid,
  );
  return single(WrapperKey.emails, e && renderEmail(ctx.base, e));
}

const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

function addEmail(ctx: ApiContext): ReturnType<Route['handler']> {
  requireWrite(ctx);
  const user = requireUser(ctx, id(ctx, 'userid'), 'write');
  const b = bodyObject(ctx.body);
  const email = optionalText(b, 'email', 320);
  if (!email) throw missing(['email']);
  if (!EMAIL_PATTERN.test(email)) throw invalid('email is not a valid e-mail address.');
  if (ctx.store.get('SELECT emailid FROM emails WHERE email = ? COLLATE NOCASE', email))
    throw notUnique('That e-mail address is already in use.');
  const hasPrimary =
    ctx.store.get('SELECT emailid FROM emails WHERE userid = ? AND isprimary = 1', user.userid) !== undefined;
  const primary = b.isprimary === true || b.isprimary === 1 || b.isprimary === 'true' || !hasPrimary;
  if (primary) ctx.store.run('UPDATE emails SET isprimary = 0 WHERE userid = ?', user.userid);
  const { lastId } = ctx.store.run(
    'INSERT INTO emails (userid, email, status, isprimary) VALUES (?, ?, ?, ?)',
    user.userid,
    email,
    'Active',
    primary ? 1 : 0,
  );
  return written(ctx, ResponseCode.Created, 'E-mail address added.', { emailid: lastId });
}

function removeEmail(ctx: ApiContext): ReturnType<Route['handler']> {
  requireWrite(ctx);
  const user = requireUser(ctx, id(ctx, 'userid'), 'write');
  const e = ctx.store.get<EmailRow>(
    `SELECT ${EMAIL_COLUMNS} FROM emails e WHERE e.emailid = ? AND e.userid = ?`,
    id(ctx, 'emailid'),
    user.userid,
  );
  if (!e) throw denied('No e-mail address with that id is owned by the caller.');
  ctx.store.run('DELETE FROM emails WHERE emailid = ?', e.emailid);
  if (e.isprimary === 1) {
    // the oldest remaining address becomes the primary one
    ctx.store.run(
      'UPDATE emails SET isprimary = 1 WHERE emailid = (SELECT min(emailid) FROM emails WHERE userid = ?)',
      user.userid,
    );
  }
  return written(ctx, ResponseCode.Deleted, 'E-mail address removed.');
}

export const userRoutes: Route[] = [
  { method: 'GET', path: '/users', handler: (ctx) => listUsers(ctx) },
  { method: 'GET', path: '/sites/users', handler: (ctx) => listUsers(ctx) },
  { method: 'GET', path: '/sites/:siteid/users', handler: (ctx) => listUsers(ctx, id(ctx, 'siteid')) },
  { method: 'POST', path: '/sites/:siteid/users', handler: createUser },
  { method: 'GET', path: '/users/:userid', handler: getUser },
  { method: 'PUT', path: '/users/:userid', handler: updateUser },
  { method: 'GET', path: '/users/:userid/emails', handler: listEmails },
  { method: 'POST', path: '/users/:userid/emails', handler: addEmail },
  { method: 'GET', path: '/users/:userid/emails/:emailid', handler: getEmail },
  { method: 'DELETE', path: '/users/:userid/emails/:emailid', handler: removeEmail },
];
