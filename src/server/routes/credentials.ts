/**
 * Credentials and credential assignments. An assignment's id is
 * `<credentialid>-<userid>`. A credential's active/inactive user counts follow
 * its holders' status (Active and Offline users count as active).
 */
import { ResponseCode } from '../../shared/api/codes.ts';
import { WrapperKey, type WireCredential, type WireCredentialAssignment } from '../../shared/api/wire.ts';
import { bodyObject, optionalDate, optionalId, optionalText, type Body } from '../body.ts';
import {
  apiError,
  callerSites,
  id,
  listPage,
  ok,
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
  renderCredential,
  renderCredentialAssignment,
  type CredentialAssignmentRow,
  type CredentialRow,
} from '../render.ts';
import { dateRange, type SearchSpec } from '../search.ts';
import { denied, invalid, missing, noResults, notUnique } from '../status.ts';
import { credentialCategory } from './sites.ts';

const ACTIVE_STATUSES = "('Active', 'Offline')";
/** How many people hold the credential among those whose status meets `statusTest` (a condition on u.status). */
const holderCount = (statusTest: string) =>
  `(SELECT count(*) FROM credential_assignments a JOIN users u ON u.userid = a.userid
    WHERE a.credentialid = k.credentialid AND u.status ${statusTest})`;
const ACTIVE_HOLDERS = holderCount(`IN ${ACTIVE_STATUSES}`);
const INACTIVE_HOLDERS = holderCount(`NOT IN ${ACTIVE_STATUSES}`);
const CREDENTIAL_SELECT = `k.credentialid, k.categoryid, c.categoryname, k.credentialname, k.description,
  k.requiredstartdate, k.requiredexpirationdate, k.requiredcredentialnum,
  ${ACTIVE_HOLDERS} AS activeusercount,
  ${INACTIVE_HOLDERS} AS inactiveusercount`;
const CREDENTIAL_FROM = 'credentials k CROSS JOIN credential_categories c';
const ASSIGNMENT_SELECT =
  'a.credentialid, a.userid, a.startdate, a.expirationdate, a.credentialnumber, a.status, a.attachmentcount, a.notes, u.firstname, u.lastname';

const CREDENTIAL_SEARCH: SearchSpec = { credentialname: { type: 'text', sql: 'k.credentialname' } };
const ASSIGNMENT_SEARCH: SearchSpec = {
  startdate: { type: 'date', sql: 'a.startdate' },
  expirationdate: { type: 'date', sql: 'a.expirationdate' },
  // due dates of a credential are its expiration dates
  duedatestart: dateRange('duedate', 'a.expirationdate').duedatestart!,
  duedateend: dateRange('duedate', 'a.expirationdate').duedateend!,
  credentialnumber: { type: 'text', sql: 'a.credentialnumber' },
  notes: { type: 'text', sql: 'a.notes' },
  status: { type: 'text', sql: 'a.status' },
  firstname: { type: 'text', sql: 'u.firstname' },
  lastname: { type: 'text', sql: 'u.lastname' },
  attachmentcount: { type: 'int', sql: 'a.attachmentcount' },
};

/** A credential with its site, for reading (901 unknown) or writing (800 unknown). */
function credential(ctx: ApiContext, mode: 'read' | 'write'): CredentialRow & { siteid: number } {
  const k = ctx.store.get<CredentialRow & { siteid: number }>(
    `SELECT ${CREDENTIAL_SELECT}, c.siteid FROM ${CREDENTIAL_FROM} WHERE k.credentialid = ? AND c.categoryid = k.categoryid`,
    id(ctx, 'credentialid'),
  );
  if (!k)
    throw mode === 'read'
      ? noResults('No credential has that id.')
      : denied('No credential with that id is owned by the caller.');
  requireSite(ctx, k.siteid, mode);
  return k;
}

function listCredentials(ctx: ApiContext, where: string[], params: number[]): ApiResult {
  return listPage<CredentialRow, WireCredential>(
    ctx,
    WrapperKey.credentials,
    {
      select: CREDENTIAL_SELECT,
      from: CREDENTIAL_FROM,
      where: ['c.categoryid = k.categoryid', ...where],
      params,
      key: 'k.credentialid',
    },
    CREDENTIAL_SEARCH,
    (rows) => rows.map((k) => renderCredential(ctx.base, k)),
  );
}

function listCategoryCredentials(ctx: ApiContext): ApiResult {
  const c = credentialCategory(ctx);
  return listCredentials(ctx, ['k.categoryid = ?'], [c.categoryid]);
}

function listAssignments(ctx: ApiContext, by: 'user' | 'credential'): ApiResult {
  const [where, param, key] =
    by === 'user'
      ? ['a.userid = ?', requireUser(ctx, id(ctx, 'userid'), 'read').userid, 'a.credentialid']
      : ['a.credentialid = ?', credential(ctx, 'read').credentialid, 'a.userid'];
  return listPage<CredentialAssignmentRow, WireCredentialAssignment>(
    ctx,
    WrapperKey.credentialAssignments,
    {
      select: ASSIGNMENT_SELECT,
      from: 'credential_assignments a CROSS JOIN users u',
      where: [where, 'u.userid = a.userid'],
      params: [param],
      key,
    },
    ASSIGNMENT_SEARCH,
    (rows) => rows.map((a) => renderCredentialAssignment(ctx.base, a, by === 'credential')),
  );
}

/** The assignment named by the path, with its credential; the id must belong to the credential of the path. */
function assignment(
  ctx: ApiContext,
  mode: 'read' | 'write',
): CredentialAssignmentRow & { credential: CredentialRow } {
  const k = credential(ctx, mode);
  const [cid, uid] = ctx.params.assignmentid!.split('-').map(Number) as [number, number];
  const a =
    cid !== k.credentialid
      ? undefined
      : ctx.store.get<CredentialAssignmentRow>(
          `SELECT ${ASSIGNMENT_SELECT} FROM credential_assignments a JOIN users u ON u.userid = a.userid WHERE a.credentialid = ? AND a.userid = ?`,
          cid,
          uid,
        );
  if (!a)
    throw mode === 'read'
      ? noResults('No assignment has that id.')
      : denied('No assignment with that id is owned by the caller.');
  return { ...a, credential: k };
}

interface AssignmentFields {
  startdate?: string;
  expirationdate?: string;
  credentialnumber?: string;
  notes?: string;
  status?: string;
}

function assignmentFields(b: Body): AssignmentFields {
  const status = optionalText(b, 'status', 50);
  if (status === '') throw invalid('status must not be empty.');
  return {
    startdate: optionalDate(b, 'startdate'),
    expirationdate: optionalDate(b, 'expirationdate'),
    credentialnumber: optionalText(b, 'credentialnumber', 100),
    notes: optionalText(b, 'notes', 2000),
    status: status?.toLowerCase(),
  };
}

/** The credential's required fields must be present (1000 on create) and never cleared (1001 on update). */
function checkAssignment(k: CredentialRow, merged: AssignmentFields, creating: boolean): void {
  const required: [keyof AssignmentFields, number][] = [
    ['startdate', k.requiredstartdate],
    ['expirationdate', k.requiredexpirationdate],
    ['credentialnumber', k.requiredcredentialnum],
  ];
  const absent = required.filter(([name, flag]) => flag === 1 && !merged[name]).map(([name]) => name);
  if (absent.length) {
    if (creating) throw missing(absent);
    throw invalid(`This credential requires ${absent.join(', ')}.`);
  }
  if (merged.startdate && merged.expirationdate && merged.expirationdate < merged.startdate) {
    throw invalid('expirationdate must not be before startdate.');
  }
}

function createAssignment(ctx: ApiContext): ApiResult {
  requireWrite(ctx);
  const k = credential(ctx, 'write');
  const b = bodyObject(ctx.body);
  const userid = optionalId(b, 'userid');
  if (userid === undefined) throw missing(['userid']);
  const user = ctx.store.get<{ siteid: number }>('SELECT siteid FROM users WHERE userid = ?', userid);
  if (!user) throw invalid('userid does not name a user.');
  requireSite(ctx, user.siteid, 'write');
  if (user.siteid !== k.siteid) throw invalid("That user is not on the credential's site.");
  const f = assignmentFields(b);
  checkAssignment(k, f, true);
  if (
    ctx.store.get(
      'SELECT 1 FROM credential_assignments WHERE credentialid = ? AND userid = ?',
      k.credentialid,
      userid,
    )
  ) {
    throw notUnique('That user already holds that credential.');
  }
  ctx.store.run(
    'INSERT INTO credential_assignments VALUES (?, ?, ?, ?, ?, ?, 0, ?)',
    k.credentialid,
    userid,
    f.startdate ?? '',
    f.expirationdate ?? '',
    f.credentialnumber ?? '',
    f.status ?? 'active',
    f.notes ?? '',
  );
  return written(ctx, ResponseCode.Created, 'Credential assigned.', {
    assignmentid: `${k.credentialid}-${userid}`,
  });
}

function updateAssignment(ctx: ApiContext): ApiResult {
  requireWrite(ctx);
  const a = assignment(ctx, 'write');
  const f = assignmentFields(bodyObject(ctx.body));
  const changes = Object.entries(f).filter(([, v]) => v !== undefined) as [keyof AssignmentFields, string][];
  if (!changes.length)
    throw apiError(
      ResponseCode.NoValidParameters,
      'No valid parameters: send one of startdate, expirationdate, credentialnumber, notes, status.',
    );
  checkAssignment(a.credential, { ...a, ...Object.fromEntries(changes) }, false);
  ctx.store.run(
    `UPDATE credential_assignments SET ${changes.map(([name]) => `${name} = ?`).join(', ')} WHERE credentialid = ? AND userid = ?`,
    ...changes.map(([, v]) => v),
    a.credentialid,
    a.userid,
  );
  return written(ctx, ResponseCode.Updated, 'Credential assignment updated.', {
    assignmentid: `${a.credentialid}-${a.userid}`,
  });
}

function deleteAssignment(ctx: ApiContext): ApiResult {
  requireWrite(ctx);
  const a = assignment(ctx, 'write');
  // attachments cannot be removed through the API, and must go first
  if (a.attachmentcount > 0)
    throw apiError(ResponseCode.DependentsFirst, 'This assignment has attachments: remove them first.');
  ctx.store.run(
    'DELETE FROM credential_assignments WHERE credentialid = ? AND userid = ?',
    a.credentialid,
    a.userid,
  );
  return written(ctx, ResponseCode.Deleted, 'Credential assignment removed.');
}

export const credentialRoutes: Route[] = [
  {
    method: 'GET',
    path: '/credentials',
    handler: (ctx) => listCredentials(ctx, [`c.siteid IN (${callerSites(ctx)})`], []),
  },
  {
    method: 'GET',
    path: '/credentials/:credentialid',
    handler: (ctx) => ok(renderCredential(ctx.base, credential(ctx, 'read'))),
  },
  {
    method: 'GET',
    path: '/sites/categories/credential/:categoryid/credentials',
    handler: listCategoryCredentials,
  },
  {
    method: 'GET',
    path: '/sites/:siteid/categories/credential/:categoryid/credentials',
    handler: listCategoryCredentials,
  },
  { method: 'GET', path: '/users/:userid/credentials', handler: (ctx) => listAssignments(ctx, 'user') },
  {
    method: 'GET',
    path: '/credentials/:credentialid/assignments',
    handler: (ctx) => listAssignments(ctx, 'credential'),
  },
  { method: 'POST', path: '/credentials/:credentialid/assignments', handler: createAssignment },
  {
    method: 'GET',
    path: '/credentials/:credentialid/assignments/:assignmentid',
    handler: (ctx) =>
      single(
        WrapperKey.credentialAssignments,
        renderCredentialAssignment(ctx.base, assignment(ctx, 'read'), true),
      ),
  },
  { method: 'PUT', path: '/credentials/:credentialid/assignments/:assignmentid', handler: updateAssignment },
  {
    method: 'DELETE',
    path: '/credentials/:credentialid/assignments/:assignmentid',
    handler: deleteAssignment,
  },
];
