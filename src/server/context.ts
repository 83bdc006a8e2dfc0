/**
 * What a route handler gets (the request, the caller, the store) and the
 * helpers every handler uses: list answers with pagination, and the ownership
 * and access-level checks (api-notes.md: GET of an unknown id is 901, a write
 * to an unknown or foreign id is 800).
 */
import { ResponseCode } from '../shared/api/codes.ts';
import type { WrapperKey } from '../shared/api/wire.ts';
import { nextPageUrl, parsePaging } from './paging.ts';
import { searchConditions, type SearchSpec } from './search.ts';
import { ApiError, denied, noResults, statusBody } from './status.ts';
import type { ListQuery, PageRequest, Store } from './store.ts';
import type { Caller } from './tokens.ts';
import type { UserRow } from './render.ts';

export interface ApiContext {
  store: Store;
  /** http://127.0.0.1:PORT/v1 */
  base: string;
  developerUrl: string;
  today: string;
  caller: Caller;
  method: string;
  /** path below /v1, e.g. /users/42 */
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  /** parsed JSON body, undefined when there was none */
  body: unknown;
}

export interface ApiResult {
  status: number;
  body: unknown;
}

export type Mode = 'read' | 'write';

export function id(ctx: ApiContext, name: string): number {
  return Number(ctx.params[name]);
}

export function ok(body: unknown): ApiResult {
  return { status: 200, body };
}

/** A write's status body (701/702/703), with extras such as the new id. */
export function written(
  ctx: ApiContext,
  code: ResponseCode,
  message: string,
  extra: Record<string, unknown> = {},
): ApiResult {
  const body = { ...statusBody(code, message, ctx.developerUrl), ...extra };
  return { status: body.httpcode, body };
}

/** One record in its list wrapper (single GETs other than a credential). */
export function single<T>(key: WrapperKey, item: T | undefined): ApiResult {
  if (item === undefined) throw noResults('No record has that id.');
  return ok({ [key]: [item] });
}

/**
 * A page of a list route: search from `spec`, paging from `startrow`/`limit`,
 * 901 for an empty page, and `pagination.next` when `paged`.
 */
export function listPage<R, W>(
  ctx: ApiContext,
  key: WrapperKey,
  q: ListQuery,
  spec: SearchSpec | null,
  render: (rows: R[]) => W[],
  paged = true,
): ApiResult {
  const page: PageRequest = parsePaging(ctx.query);
  const search = searchConditions(ctx.query, spec);
  const rows = ctx.store.page<R>(
    { ...q, where: [...q.where, ...search.where], params: [...q.params, ...search.params] },
    page,
  );
  if (!rows.length) throw noResults();
  const body: Record<string, unknown> = { [key]: render(rows) };
  if (paged) body.pagination = { next: nextPageUrl(ctx.base, ctx.path, ctx.query, page) };
  return ok(body);
}

// ---- access ----

/** The caller's customer's site ids, as an SQL list of integers. */
export function callerSites(ctx: ApiContext): string {
  const ids = ctx.store.all<{ siteid: number }>(
    'SELECT siteid FROM sites WHERE customerid = ? ORDER BY siteid',
    ctx.caller.customerid,
  );
  return ids.length ? ids.map((s) => s.siteid).join(',') : '-1';
}

/** Unknown: 901 to a read, 800 to a write. Someone else's: 800. */
export function requireOwned(ctx: ApiContext, siteid: number | undefined, mode: Mode): void {
  if (siteid === undefined)
    throw mode === 'read'
      ? noResults('No record has that id.')
      : denied('No record with that id is owned by the caller.');
  const site = ctx.store.get<{ customerid: number }>('SELECT customerid FROM sites WHERE siteid = ?', siteid);
  if (!site || site.customerid !== ctx.caller.customerid) throw denied();
}

export function requireSite(ctx: ApiContext, siteid: number, mode: Mode): void {
  const site = ctx.store.get<{ siteid: number }>('SELECT siteid FROM sites WHERE siteid = ?', siteid);
  requireOwned(ctx, site?.siteid, mode);
}

export const USER_COLUMNS =
  'u.userid, u.siteid, u.username, u.firstname, u.lastname, u.employeeid, u.status, u.usertype';

export function requireUser(ctx: ApiContext, userid: number, mode: Mode): UserRow {
  const user = ctx.store.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.userid = ?`, userid);
  requireOwned(ctx, user?.siteid, mode);
  return user!;
}

/**
 * May this token write? Read-only: never. Feature-limited: only the access of
 * its own feature (`moduleid`). Full and the other customer's token: yes
 * (ownership of the record is checked separately).
 */
export function requireWrite(ctx: ApiContext, moduleid?: number): void {
  const { access, accessmoduleid } = ctx.caller;
  if (access === 'readonly') throw denied('This token is read-only.');
  if (access === 'feature' && moduleid !== accessmoduleid)
    throw denied('This token is limited to one feature and may not change this resource.');
}

/** The feature-limited token reads only its own feature's access lists. */
export function requireModuleRead(ctx: ApiContext, moduleid: number): void {
  if (ctx.caller.access === 'feature' && moduleid !== ctx.caller.accessmoduleid)
    throw denied('This token is limited to another feature.');
}

export function apiError(code: ResponseCode, message: string): ApiError {
  return new ApiError(code, message);
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One route of the API: `path` below /v1 with `:name` parameters (numeric; `:assignmentid` is
 * `<credentialid>-<userid>`).
 */
export interface Route {
  method: Method;
  path: string;
  handler: (ctx: ApiContext) => ApiResult;
}
