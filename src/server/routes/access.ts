/**
 * Supervisor access: over profile groups and over application features
 * (modules). Holding any access makes a user a Supervisor; losing the last of
 * it makes a Supervisor a User again (Administrators stay what they are).
 */
import { ResponseCode } from '../../shared/api/codes.ts';
import { WrapperKey, type WireAccessUser, type WireGroup, type WireModule } from '../../shared/api/wire.ts';
import { bodyObject, optionalId } from '../body.ts';
import {
  USER_COLUMNS,
  id,
  listPage,
  requireModuleRead,
  requireSite,
  requireUser,
  requireWrite,
  single,
  written,
  type ApiContext,
  type ApiResult,
  type Route,
} from '../context.ts';
import {
  renderAccessUser,
  renderGroup,
  renderModule,
  type GroupRow,
  type ModuleRow,
  type UserRow,
} from '../render.ts';
import type { SearchSpec } from '../search.ts';
import { denied, invalid, missing, noResults, notUnique } from '../status.ts';
import { GROUP_SELECT } from './sites.ts';

const GROUP_NAME_SEARCH: SearchSpec = { groupname: { type: 'text', sql: 'g.groupname' } };
const MODULE_SEARCH: SearchSpec = {
  modulename: { type: 'text', sql: 'm.moduleName' },
  functionname: { type: 'text', sql: 'm.functionName' },
};
/** A user's own lists search by the user's names too (all or nothing, the user being fixed). */
const USER_GROUP_SEARCH: SearchSpec = {
  firstname: { type: 'text', sql: 'u.firstname' },
  lastname: { type: 'text', sql: 'u.lastname' },
  groupname: { type: 'text', sql: 'g.groupname' },
};
const MODULE_COLUMNS = 'm.accessID, m.moduleName, m.functionName';

/** A group of a site, for reading (901 unknown) or writing (800 unknown). */
function siteGroup(ctx: ApiContext, mode: 'read' | 'write'): GroupRow {
  const siteid = id(ctx, 'siteid');
  requireSite(ctx, siteid, mode);
  const g = ctx.store.get<GroupRow>(
    `SELECT ${GROUP_SELECT} FROM profile_groups g WHERE g.groupid = ? AND g.siteid = ?`,
    id(ctx, 'groupid'),
    siteid,
  );
  if (!g)
    throw mode === 'read'
      ? noResults('No group of that site has that id.')
      : denied('No group of that site with that id is owned by the caller.');
  return g;
}

function siteModule(ctx: ApiContext, mode: 'read' | 'write'): ModuleRow & { siteid: number } {
  const siteid = id(ctx, 'siteid');
  requireSite(ctx, siteid, mode);
  const m = ctx.store.get<ModuleRow>(
    `SELECT ${MODULE_COLUMNS} FROM modules m WHERE m.accessID = ?`,
    id(ctx, 'accessmoduleid'),
  );
  if (!m) throw mode === 'read' ? noResults('No feature has that id.') : denied('No feature with that id.');
  return { ...m, siteid };
}

/** The user named in a grant's body: required, and a user of the same site. */
function grantee(ctx: ApiContext, siteid: number): UserRow {
  const userid = optionalId(bodyObject(ctx.body), 'userid');
  if (userid === undefined) throw missing(['userid']);
  const user = ctx.store.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.userid = ?`, userid);
  if (!user) throw invalid('userid does not name a user.');
  requireSite(ctx, user.siteid, 'write');
  if (user.siteid !== siteid) throw invalid('That user is not on this site.');
  return user;
}

function promote(ctx: ApiContext, userid: number): void {
  ctx.store.run("UPDATE users SET usertype = 'Supervisor' WHERE userid = ? AND usertype = 'User'", userid);
}

function demoteIfNoAccess(ctx: ApiContext, userid: number): void {
  ctx.store.run(
    `UPDATE users SET usertype = 'User' WHERE userid = ? AND usertype = 'Supervisor'
       AND NOT EXISTS (SELECT 1 FROM group_access WHERE userid = ?)
       AND NOT EXISTS (SELECT 1 FROM module_access WHERE userid = ?)`,
    userid,
    userid,
    userid,
  );
}

function accessUsers(
  ctx: ApiContext,
  from: string,
  where: string[],
  params: number[],
  paged: boolean,
): ApiResult {
  return listPage<UserRow, WireAccessUser>(
    ctx,
    WrapperKey.accessUsers,
    { select: USER_COLUMNS, from, where, params, key: 'u.userid' },
    null,
    (rows) => rows.map((u) => renderAccessUser(ctx.base, u)),
    paged,
  );
}

// ---- groups ----

function listSiteGroups(ctx: ApiContext): ApiResult {
  const siteid = id(ctx, 'siteid');
  requireSite(ctx, siteid, 'read');
  return listPage<GroupRow, WireGroup>(
    ctx,
    WrapperKey.groups,
    {
      select: GROUP_SELECT,
      from: 'profile_groups g',
      where: ['g.siteid = ?'],
      params: [siteid],
      key: 'g.groupid',
    },
    GROUP_NAME_SEARCH,
    (rows) => rows.map((g) => renderGroup(ctx.base, g, 'access')),
  );
}

function grantGroup(ctx: ApiContext): ApiResult {
  requireWrite(ctx);
  const g = siteGroup(ctx, 'write');
  const user = grantee(ctx, g.siteid);
  if (ctx.store.get('SELECT 1 FROM group_access WHERE groupid = ? AND userid = ?', g.groupid, user.userid))
    throw notUnique('That user already has access over that group.');
  ctx.store.run('INSERT INTO group_access VALUES (?, ?)', g.groupid, user.userid);
  promote(ctx, user.userid);
  return written(ctx, ResponseCode.Created, 'Access over the group granted.', {
    groupid: g.groupid,
    userid: user.userid,
  });
}

function revokeGroup(ctx: ApiContext): ApiResult {
  requireWrite(ctx);
  const user = requireUser(ctx, id(ctx, 'userid'), 'write');
  const { changes } = ctx.store.run(
    'DELETE FROM group_access WHERE groupid = ? AND userid = ?',
    id(ctx, 'groupid'),
    user.userid,
  );
  if (!changes) throw denied('That user has no access over a group with that id.');
  demoteIfNoAccess(ctx, user.userid);
  return written(ctx, ResponseCode.Deleted, 'Access over the group revoked.');
}

function listUserGroups(ctx: ApiContext, table: 'group_members' | 'group_access'): ApiResult {
  const user = requireUser(ctx, id(ctx, 'userid'), 'read');
  return listPage<GroupRow, WireGroup>(
    ctx,
    WrapperKey.groups,
    {
      select: GROUP_SELECT,
      from: `${table} x CROSS JOIN profile_groups g CROSS JOIN users u`,
      where: ['x.userid = ?', 'g.groupid = x.groupid', 'u.userid = x.userid'],
      params: [user.userid],
      key: 'x.groupid',
    },
    table === 'group_members' ? USER_GROUP_SEARCH : GROUP_NAME_SEARCH,
    (rows) => rows.map((g) => renderGroup(ctx.base, g, table === 'group_members' ? 'user' : 'access')),
  );
}

// ---- modules ----

function listSiteModules(ctx: ApiContext): ApiResult {
  const siteid = id(ctx, 'siteid');
  requireSite(ctx, siteid, 'read');
  return listPage<ModuleRow, WireModule>(
    ctx,
    WrapperKey.modules,
    { select: MODULE_COLUMNS, from: 'modules m', where: [], params: [], key: 'm.accessID' },
    MODULE_SEARCH,
    (rows) => rows.map((m) => renderModule(ctx.base, siteid, m)),
    false,
  );
}

function getSiteModule(ctx: ApiContext): ApiResult {
  const m = siteModule(ctx, 'read');
  requireModuleRead(ctx, m.accessID);
  return single(WrapperKey.modules, renderModule(ctx.base, m.siteid, m));
}

function listModuleUsers(ctx: ApiContext): ApiResult {
  const m = siteModule(ctx, 'read');
  requireModuleRead(ctx, m.accessID);
  return accessUsers(
    ctx,
    'module_access ma CROSS JOIN users u',
    ['ma.siteid = ?', 'ma.accessID = ?', 'u.userid = ma.userid'],
    [m.siteid, m.accessID],
    false,
  );
}

function grantModule(ctx: ApiContext): ApiResult {
  requireWrite(ctx, id(ctx, 'accessmoduleid'));
  const m = siteModule(ctx, 'write');
  const user = grantee(ctx, m.siteid);
  if (
    ctx.store.get(
      'SELECT 1 FROM module_access WHERE siteid = ? AND accessID = ? AND userid = ?',
      m.siteid,
      m.accessID,
      user.userid,
    )
  ) {
    throw notUnique('That user already has access to that feature.');
  }
  ctx.store.run('INSERT INTO module_access VALUES (?, ?, ?)', m.siteid, m.accessID, user.userid);
  promote(ctx, user.userid);
  return written(ctx, ResponseCode.Created, 'Access to the feature granted.', {
    accessID: m.accessID,
    userid: user.userid,
  });
}

function revokeModule(ctx: ApiContext): ApiResult {
  const accessID = id(ctx, 'accessmoduleid');
  requireWrite(ctx, accessID);
  const user = requireUser(ctx, id(ctx, 'userid'), 'write');
  const { changes } = ctx.store.run(
    'DELETE FROM module_access WHERE siteid = ? AND accessID = ? AND userid = ?',
    user.siteid,
    accessID,
    user.userid,
  );
  if (!changes) throw denied('That user has no access to a feature with that id.');
  demoteIfNoAccess(ctx, user.userid);
  return written(ctx, ResponseCode.Deleted, 'Access to the feature revoked.');
}

function listUserModules(ctx: ApiContext): ApiResult {
  const user = requireUser(ctx, id(ctx, 'userid'), 'read');
  return listPage<ModuleRow, WireModule>(
    ctx,
    WrapperKey.modules,
    {
      select: MODULE_COLUMNS,
      from: 'module_access ma CROSS JOIN modules m',
      where: ['ma.userid = ?', 'ma.siteid = ?', 'm.accessID = ma.accessID'],
      params: [user.userid, user.siteid],
      key: 'ma.accessID',
    },
    MODULE_SEARCH,
    (rows) => rows.map((m) => renderModule(ctx.base, user.siteid, m)),
    false,
  );
}

function getUserModule(ctx: ApiContext): ApiResult {
  const user = requireUser(ctx, id(ctx, 'userid'), 'read');
  const accessID = id(ctx, 'accessmoduleid');
  requireModuleRead(ctx, accessID);
  const m = ctx.store.get<ModuleRow>(
    `SELECT ${MODULE_COLUMNS} FROM module_access ma JOIN modules m ON m.accessID = ma.accessID WHERE ma.userid = ? AND ma.siteid = ? AND ma.accessID = ?`,
    user.userid,
    user.siteid,
    accessID,
  );
  return single(WrapperKey.modules, m && renderModule(ctx.base, user.siteid, m));
}

export const accessRoutes: Route[] = [
  { method: 'GET', path: '/sites/:siteid/access/groups', handler: listSiteGroups },
  {
    method: 'GET',
    path: '/sites/:siteid/access/groups/:groupid',
    handler: (ctx) => single(WrapperKey.groups, renderGroup(ctx.base, siteGroup(ctx, 'read'), 'access')),
  },
  {
    method: 'GET',
    path: '/sites/:siteid/access/groups/:groupid/users',
    handler: (ctx) => {
      const g = siteGroup(ctx, 'read');
      return accessUsers(
        ctx,
        'group_access ga CROSS JOIN users u',
        ['ga.groupid = ?', 'u.userid = ga.userid'],
        [g.groupid],
        true,
      );
    },
  },
  { method: 'POST', path: '/sites/:siteid/access/groups/:groupid/users', handler: grantGroup },
  { method: 'GET', path: '/users/:userid/groups', handler: (ctx) => listUserGroups(ctx, 'group_members') },
  {
    method: 'GET',
    path: '/users/:userid/access/groups',
    handler: (ctx) => listUserGroups(ctx, 'group_access'),
  },
  { method: 'DELETE', path: '/users/:userid/access/groups/:groupid', handler: revokeGroup },
  { method: 'GET', path: '/sites/:siteid/access/modules', handler: listSiteModules },
  { method: 'GET', path: '/sites/:siteid/access/modules/:accessmoduleid', handler: getSiteModule },
  { method: 'GET', path: '/sites/:siteid/access/modules/:accessmoduleid/users', handler: listModuleUsers },
  { method: 'POST', path: '/sites/:siteid/access/modules/:accessmoduleid/users', handler: grantModule },
  { method: 'GET', path: '/users/:userid/access/modules', handler: listUserModules },
  { method: 'GET', path: '/users/:userid/access/modules/:accessmoduleid', handler: getUserModule },
  { method: 'DELETE', path: '/users/:userid/access/modules/:accessmoduleid', handler: revokeModule },
];
