/** Sites, profile categories with their groups and members, and credential categories. */
import {
  WrapperKey,
  type WireCredentialCategory,
  type WireGroup,
  type WireGroupMember,
  type WireProfileCategory,
  type WireSite,
} from '../../shared/api/wire.ts';
import {
  USER_COLUMNS,
  callerSites,
  id,
  listPage,
  requireSite,
  single,
  type ApiContext,
  type ApiResult,
  type Route,
} from '../context.ts';
import {
  renderCredentialCategory,
  renderGroup,
  renderGroupMember,
  renderProfileCategory,
  renderSite,
  type CredentialCategoryRow,
  type GroupRow,
  type ProfileCategoryRow,
  type SiteRow,
  type UserRow,
} from '../render.ts';
import type { SearchSpec } from '../search.ts';
import { noResults } from '../status.ts';
import type { SqlValue } from '../store.ts';

export const GROUP_SELECT = `g.groupid, g.siteid, g.categoryid, g.groupname,
  (SELECT count(*) FROM group_members m WHERE m.groupid = g.groupid) AS usercount,
  (SELECT count(*) FROM group_access a WHERE a.groupid = g.groupid) AS accessusercount`;

const PROFILE_CATEGORY_SELECT =
  'c.categoryid, c.siteid, c.categoryname, (SELECT count(*) FROM profile_groups g WHERE g.categoryid = c.categoryid) AS groupcount';
const CREDENTIAL_CATEGORY_SELECT =
  'c.categoryid, c.siteid, c.categoryname, (SELECT count(*) FROM credentials k WHERE k.categoryid = c.categoryid) AS credentialcount';

const PROFILE_CATEGORY_SEARCH: SearchSpec = {
  categoryname: { type: 'text', sql: 'c.categoryname' },
  before: { type: 'date', sql: 'c.created', op: '<' },
  after: { type: 'date', sql: 'c.created', op: '>' },
};
const CATEGORY_NAME_SEARCH: SearchSpec = { categoryname: { type: 'text', sql: 'c.categoryname' } };
const MEMBER_SEARCH: SearchSpec = {
  firstname: { type: 'text', sql: 'u.firstname' },
  lastname: { type: 'text', sql: 'u.lastname' },
  groupname: { type: 'text', sql: 'g.groupname' },
};

/** Site scope of a list: one site (checked) or all of the caller's. */
function siteScope(ctx: ApiContext, column: string): { where: string[]; params: SqlValue[] } {
  if (ctx.params.siteid === undefined) return { where: [`${column} IN (${callerSites(ctx)})`], params: [] };
  const siteid = id(ctx, 'siteid');
  requireSite(ctx, siteid, 'read');
  return { where: [`${column} = ?`], params: [siteid] };
}

function listSites(ctx: ApiContext): ApiResult {
  return listPage<SiteRow, WireSite>(
    ctx,
    WrapperKey.sites,
    {
      select: 's.siteid, s.sitename, s.loginpage',
      from: 'sites s',
      where: ['s.customerid = ?'],
      params: [ctx.caller.customerid],
      key: 's.siteid',
    },
    null,
    (rows) => rows.map((s) => renderSite(ctx.base, s)),
  );
}

function getSite(ctx: ApiContext): ApiResult {
  const siteid = id(ctx, 'siteid');
  requireSite(ctx, siteid, 'read');
  const s = ctx.store.get<SiteRow>('SELECT siteid, sitename, loginpage FROM sites WHERE siteid = ?', siteid);
  return single(WrapperKey.sites, s && renderSite(ctx.base, s));
}

/** A profile category by id, within the caller's scope (901 unknown, 800 foreign). */
function profileCategory(ctx: ApiContext): ProfileCategoryRow {
  const c = ctx.store.get<ProfileCategoryRow>(
    `SELECT ${PROFILE_CATEGORY_SELECT} FROM profile_categories c WHERE c.categoryid = ?`,
    id(ctx, 'categoryid'),
  );
  if (!c) throw noResults('No profile category has that id.');
  requireSite(ctx, c.siteid, 'read');
  if (ctx.params.siteid !== undefined && c.siteid !== id(ctx, 'siteid')) {
    requireSite(ctx, id(ctx, 'siteid'), 'read');
    throw noResults('That profile category is not on that site.');
  }
  return c;
}

function listProfileCategories(ctx: ApiContext): ApiResult {
  const scope = siteScope(ctx, 'c.siteid');
  return listPage<ProfileCategoryRow, WireProfileCategory>(
    ctx,
    WrapperKey.profileCategories,
    { select: PROFILE_CATEGORY_SELECT, from: 'profile_categories c', ...scope, key: 'c.categoryid' },
    PROFILE_CATEGORY_SEARCH,
    (rows) => rows.map((c) => renderProfileCategory(ctx.base, c)),
  );
}

function listCategoryGroups(ctx: ApiContext): ApiResult {
  const c = profileCategory(ctx);
  return listPage<GroupRow, WireGroup>(
    ctx,
    WrapperKey.groups,
    {
      select: GROUP_SELECT,
      from: 'profile_groups g',
      where: ['g.categoryid = ?'],
      params: [c.categoryid],
      key: 'g.groupid',
    },
    { groupname: { type: 'text', sql: 'g.groupname' } },
    (rows) => rows.map((g) => renderGroup(ctx.base, g, 'category')),
  );
}

function listGroupMembers(ctx: ApiContext): ApiResult {
  const c = profileCategory(ctx);
  const g = ctx.store.get<{ groupid: number }>(
    'SELECT groupid FROM profile_groups WHERE groupid = ? AND categoryid = ?',
    id(ctx, 'groupid'),
    c.categoryid,
  );
  if (!g) throw noResults('No group of that category has that id.');
  return listPage<UserRow, WireGroupMember>(
    ctx,
    WrapperKey.groupMembers,
    {
      select: USER_COLUMNS,
      from: 'group_members gm CROSS JOIN users u CROSS JOIN profile_groups g',
      where: ['gm.groupid = ?', 'u.userid = gm.userid', 'g.groupid = gm.groupid'],
      params: [g.groupid],
      key: 'gm.userid',
    },
    MEMBER_SEARCH,
    (rows) => rows.map((u) => renderGroupMember(ctx.base, u)),
  );
}

export function credentialCategory(ctx: ApiContext): CredentialCategoryRow {
  const c = ctx.store.get<CredentialCategoryRow>(
    `SELECT ${CREDENTIAL_CATEGORY_SELECT} FROM credential_categories c WHERE c.categoryid = ?`,
    id(ctx, 'categoryid'),
  );
  if (!c) throw noResults('No credential category has that id.');
  requireSite(ctx, c.siteid, 'read');
  if (ctx.params.siteid !== undefined && c.siteid !== id(ctx, 'siteid')) {
    requireSite(ctx, id(ctx, 'siteid'), 'read');
    throw noResults('That credential category is not on that site.');
  }
  return c;
}

function listCredentialCategories(ctx: ApiContext): ApiResult {
  const scope = siteScope(ctx, 'c.siteid');
  return listPage<CredentialCategoryRow, WireCredentialCategory>(
    ctx,
    WrapperKey.credentialCategories,
    { select: CREDENTIAL_CATEGORY_SELECT, from: 'credential_categories c', ...scope, key: 'c.categoryid' },
    CATEGORY_NAME_SEARCH,
    (rows) => rows.map((c) => renderCredentialCategory(ctx.base, c)),
  );
}

export const siteRoutes: Route[] = [
  { method: 'GET', path: '/sites', handler: listSites },
  { method: 'GET', path: '/sites/:siteid', handler: getSite },
  { method: 'GET', path: '/sites/categories/profile', handler: listProfileCategories },
  { method: 'GET', path: '/sites/:siteid/categories/profile', handler: listProfileCategories },
  {
    method: 'GET',
    path: '/sites/categories/profile/:categoryid',
    handler: (ctx) =>
      single(WrapperKey.profileCategories, renderProfileCategory(ctx.base, profileCategory(ctx))),
  },
  {
    method: 'GET',
    path: '/sites/:siteid/categories/profile/:categoryid',
    handler: (ctx) =>
      single(WrapperKey.profileCategories, renderProfileCategory(ctx.base, profileCategory(ctx))),
  },
  { method: 'GET', path: '/sites/categories/profile/:categoryid/groups', handler: listCategoryGroups },
  {
    method: 'GET',
    path: '/sites/:siteid/categories/profile/:categoryid/groups',
    handler: listCategoryGroups,
  },
  {
    method: 'GET',
    path: '/sites/categories/profile/:categoryid/groups/:groupid/users',
    handler: listGroupMembers,
  },
  {
    method: 'GET',
    path: '/sites/:siteid/categories/profile/:categoryid/groups/:groupid/users',
    handler: listGroupMembers,
  },
  { method: 'GET', path: '/sites/categories/credential', handler: listCredentialCategories },
  { method: 'GET', path: '/sites/:siteid/categories/credential', handler: listCredentialCategories },
  {
    method: 'GET',
    path: '/sites/categories/credential/:categoryid',
    handler: (ctx) =>
      single(WrapperKey.credentialCategories, renderCredentialCategory(ctx.base, credentialCategory(ctx))),
  },
  {
    method: 'GET',
    path: '/sites/:siteid/categories/credential/:categoryid',
    handler: (ctx) =>
      single(WrapperKey.credentialCategories, renderCredentialCategory(ctx.base, credentialCategory(ctx))),
  },
];
