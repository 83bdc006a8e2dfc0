/**
 * A bulk action on a selection becomes a preview before anything is queued:
 * the ops to queue, the no-ops (already in that state) and the ops that cannot
 * work (a token that may not write them, a missing required date), which are
 * not queued. Pure.
 */
import type {
  CredentialAssignmentRecord,
  CredentialRecord,
  GroupRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../../shared/records.ts';
import { toIsoDate } from '../../../shared/dates.ts';
import { formatDate } from '../../app/format.ts';
import { isTrainingDone } from '../../app/compliance.ts';
import type { OpDraft } from '../../../shared/replay-queue/queue.ts';
import type { OpKind, TokenAccess } from '../../../shared/ipc.ts';
import { writeRefusal } from '../../../shared/access.ts';
import { credentialAssignmentDeleteDraft, trainingDeleteDraft } from './single-edit.ts';
import {
  courseOfUserKey,
  credentialAssignmentKey,
  groupUserKey,
  moduleAccessKey,
} from '../../../shared/keys.ts';

export type BulkAction =
  | { type: 'status'; status: string }
  | { type: 'groupAccess'; grant: boolean; group: GroupRecord }
  | { type: 'moduleAccess'; grant: boolean; accessID: number; moduleName: string }
  | {
      type: 'credential';
      credential: CredentialRecord;
      startdate: string;
      expirationdate: string;
      credentialnumber: string;
      notes: string;
    }
  /** new dates for everyone, and each person's new number (by user id; none or empty keeps the number held) */
  | {
      type: 'renew';
      credential: CredentialRecord;
      startdate: string;
      expirationdate: string;
      numbers: ReadonlyMap<number, string>;
    }
  | { type: 'training'; courseid: number; courseName: string; duedate: string }
  | { type: 'credentialRemove'; credential: CredentialRecord }
  | { type: 'trainingRemove'; courseid: number; courseName: string };

export interface BulkContext {
  /** the token's access level: what it may not write is refused (shared/access.ts) */
  access: TokenAccess;
  /** `${groupid}-${userid}` of access grants held (effective state) */
  groupAccess: ReadonlySet<string>;
  /** `${siteid}-${accessID}-${userid}` */
  moduleAccess: ReadonlySet<string>;
  /** `${credentialid}-${userid}` -> the assignment held (effective state: pending edits applied) */
  credentialsHeld: ReadonlyMap<string, CredentialAssignmentRecord>;
  /** `${userid}-${courseid}` -> the assignment */
  trainingHeld: ReadonlyMap<string, TrainingAssignmentRecord>;
}

export interface PreviewLine {
  user: UserRecord;
  reason: string;
}

/** A holder a renewal is about, in the order of the selection (the rows of the number column). */
export interface RenewalRow {
  user: UserRecord;
  held: CredentialAssignmentRecord;
}

export interface BulkPreview {
  /** what the action itself lacks or gets wrong, for everyone ("Enter the new expiration date."): nothing is queued */
  problems: string[];
  drafts: OpDraft[];
  /** who each draft is for, same order as drafts */
  changes: PreviewLine[];
  noops: PreviewLine[];
  refused: PreviewLine[];
  /** a renewal's holders, who get a number each */
  renewals: RenewalRow[];
}

const who = (u: UserRecord) => `${u.firstname} ${u.lastname}`.trim() || u.username;

/**
 * What the credential requires that the person would still lack: the form's value, or for a
 * renewal the one they already hold (a renewal with only a new expiration date keeps their start date).
 */
function missingRequired(
  action: Extract<BulkAction, { type: 'credential' }>,
  held: CredentialAssignmentRecord | undefined,
): string[] {
  const c = action.credential;
  const missing: string[] = [];
  if (c.requiredstartdate && !action.startdate && !held?.startIso)
    missing.push(`${c.credentialname} requires a start date.`);
  if (c.requiredexpirationdate && !action.expirationdate && !held?.expirationIso)
    missing.push(`${c.credentialname} requires an expiration date.`);
  if (c.requiredcredentialnum && !action.credentialnumber.trim() && !held?.credentialnumber)
    missing.push(`${c.credentialname} requires a credential number.`);
  return missing;
}

/**
 * Problems with the action itself, for everyone (a renewal's missing date, an unreadable date, dates in the wrong
 * order).
 */
export function actionProblems(action: BulkAction): string[] {
  const problems: string[] = [];
  if (action.type === 'renew' && !action.expirationdate) problems.push('Enter the new expiration date.');
  if (action.type === 'credential' || action.type === 'renew') {
    if (action.startdate && !toIsoDate(action.startdate))
      problems.push(`"${action.startdate}" is not a date.`);
    if (action.expirationdate && !toIsoDate(action.expirationdate))
      problems.push(`"${action.expirationdate}" is not a date.`);
    if (
      action.startdate &&
      action.expirationdate &&
      toIsoDate(action.expirationdate) < toIsoDate(action.startdate)
    )
      problems.push('The expiration date is before the start date.');
  }
  if (action.type === 'training' && action.duedate && !toIsoDate(action.duedate))
    problems.push(`"${action.duedate}" is not a date.`);
  if (action.type === 'status' && !action.status) problems.push('Choose a status.');
  return problems;
}

/** The kind of operation an action queues. */
export function opKindOfAction(action: BulkAction): OpKind {
  switch (action.type) {
    case 'status':
      return 'user.update';
    case 'groupAccess':
      return action.grant ? 'groupAccess.grant' : 'groupAccess.revoke';
    case 'moduleAccess':
      return action.grant ? 'moduleAccess.grant' : 'moduleAccess.revoke';
    case 'credential':
      return 'credentialAssignment.create';
    case 'renew':
      return 'credentialAssignment.update';
    case 'training':
      return 'trainingAssignment.create';
    case 'credentialRemove':
      return 'credentialAssignment.delete';
    case 'trainingRemove':
      return 'trainingAssignment.delete';
  }
}

export function previewBulk(users: readonly UserRecord[], action: BulkAction, ctx: BulkContext): BulkPreview {
  const refusal = writeRefusal(ctx.access, opKindOfAction(action));
  // a refused token is said per person; what the form lacks is said once, and nothing is planned
  const problems = refusal ? [] : actionProblems(action);
  const preview: BulkPreview = { problems, drafts: [], changes: [], noops: [], refused: [], renewals: [] };
  if (problems.length > 0) return preview;
  for (const user of users) {
    if (refusal) {
      preview.refused.push({ user, reason: refusal });
      continue;
    }
    if (user.userid < 0) {
      preview.refused.push({
        user,
        reason: 'This user is still waiting to be created; edit them once the creation is sent.',
      });
      continue;
    }
    if (action.type === 'renew') {
      const held = ctx.credentialsHeld.get(
        credentialAssignmentKey(action.credential.credentialid, user.userid),
      );
      if (held) preview.renewals.push({ user, held });
    }
    const planned = planFor(user, action, ctx);
    if ('noop' in planned) preview.noops.push({ user, reason: planned.noop });
    else if ('refused' in planned) preview.refused.push({ user, reason: planned.refused });
    else {
      preview.drafts.push(planned.draft);
      preview.changes.push({ user, reason: planned.draft.summary });
    }
  }
  return preview;
}

type Planned = { draft: OpDraft } | { noop: string } | { refused: string };

type ActionOf<T extends BulkAction['type']> = Extract<BulkAction, { type: T }>;
type Planner<T extends BulkAction['type']> = (
  name: string,
  user: UserRecord,
  action: ActionOf<T>,
  ctx: BulkContext,
) => Planned;

function planStatus(name: string, user: UserRecord, action: ActionOf<'status'>): Planned {
  if (user.status.toLowerCase() === action.status.toLowerCase()) return { noop: `already ${user.status}` };
  return {
    draft: {
      op: { kind: 'user.update', userid: user.userid, changes: { status: action.status } },
      base: { status: user.status },
      summary: `${name}: status ${user.status} → ${action.status}`,
    },
  };
}

function planGroupAccess(
  name: string,
  user: UserRecord,
  action: ActionOf<'groupAccess'>,
  ctx: BulkContext,
): Planned {
  const g = action.group;
  if (g.siteid !== user.siteid) return { refused: `${g.groupname} belongs to another site.` };
  const held = ctx.groupAccess.has(groupUserKey(g.groupid, user.userid));
  if (held === action.grant)
    return {
      noop: action.grant ? `already has access over ${g.groupname}` : `has no access over ${g.groupname}`,
    };
  const kind = action.grant ? 'groupAccess.grant' : 'groupAccess.revoke';
  return {
    draft: {
      op: { kind, siteid: g.siteid, groupid: g.groupid, userid: user.userid },
      summary: `${name}: ${action.grant ? 'grant' : 'revoke'} access over ${g.groupname}`,
    },
  };
}

function planModuleAccess(
  name: string,
  user: UserRecord,
  action: ActionOf<'moduleAccess'>,
  ctx: BulkContext,
): Planned {
  const held = ctx.moduleAccess.has(moduleAccessKey(user.siteid, action.accessID, user.userid));
  if (held === action.grant)
    return {
      noop: action.grant ? `already has ${action.moduleName}` : `does not have ${action.moduleName}`,
    };
  const kind = action.grant ? 'moduleAccess.grant' : 'moduleAccess.revoke';
  return {
    draft: {
      op: { kind, siteid: user.siteid, accessID: action.accessID, userid: user.userid },
      summary: `${name}: ${action.grant ? 'grant' : 'revoke'} ${action.moduleName}`,
    },
  };
}

function planCredential(
  name: string,
  user: UserRecord,
  action: ActionOf<'credential'>,
  ctx: BulkContext,
): Planned {
  const c = action.credential;
  const held = ctx.credentialsHeld.get(credentialAssignmentKey(c.credentialid, user.userid));
  const missing = missingRequired(action, held);
  if (missing.length > 0) return { refused: missing.join(' ') };
  if (held) return renewal(name, user, c, held, action);
  const fields = {
    ...(action.startdate ? { startdate: action.startdate } : {}),
    ...(action.expirationdate ? { expirationdate: action.expirationdate } : {}),
    ...(action.credentialnumber.trim() ? { credentialnumber: action.credentialnumber.trim() } : {}),
    ...(action.notes.trim() ? { notes: action.notes.trim() } : {}),
  };
  const dates = span(toIsoDate(action.startdate), toIsoDate(action.expirationdate));
  return {
    draft: {
      op: {
        kind: 'credentialAssignment.create',
        credentialid: c.credentialid,
        userid: user.userid,
        fields,
      },
      summary: `${name}: assign ${c.credentialname}${dates}`,
    },
  };
}

function planRenew(name: string, user: UserRecord, action: ActionOf<'renew'>, ctx: BulkContext): Planned {
  const c = action.credential;
  const held = ctx.credentialsHeld.get(credentialAssignmentKey(c.credentialid, user.userid));
  if (!held) return { refused: `does not hold ${c.credentialname} (use Assign a credential)` };
  const credentialnumber = action.numbers.get(user.userid) ?? '';
  const missing = missingRequired({ ...action, type: 'credential', credentialnumber, notes: '' }, held);
  if (missing.length > 0) return { refused: missing.join(' ') };
  return renewal(name, user, c, held, {
    startdate: action.startdate,
    expirationdate: action.expirationdate,
    credentialnumber,
    notes: '',
  });
}

function planCredentialRemove(
  name: string,
  user: UserRecord,
  action: ActionOf<'credentialRemove'>,
  ctx: BulkContext,
): Planned {
  const c = action.credential;
  const held = ctx.credentialsHeld.get(credentialAssignmentKey(c.credentialid, user.userid));
  if (!held) return { noop: `does not hold ${c.credentialname}` };
  if (isBeingCreated(held))
    return { refused: `${c.credentialname} is still waiting to be sent: undo it in the Outbox instead.` };
  // with its before-image (dates, number, notes): an undo after apply re-creates it
  return {
    draft: {
      ...credentialAssignmentDeleteDraft(held, name),
      summary: `${name}: remove ${c.credentialname}${span(held.startIso, held.expirationIso)}`,
    },
  };
}

function planTraining(
  name: string,
  user: UserRecord,
  action: ActionOf<'training'>,
  ctx: BulkContext,
): Planned {
  const held = ctx.trainingHeld.get(courseOfUserKey(user.userid, action.courseid));
  if (held) {
    // a completed course is done: a new due date would make it look assigned again
    if (isTrainingDone(held)) return { noop: `already completed ${action.courseName}` };
    const due = toIsoDate(action.duedate);
    if (!due || due === held.dueIso)
      return {
        noop: `already assigned ${action.courseName}${held.dueIso ? `, due ${formatDate(held.dueIso)}` : ''}`,
      };
    if (held.transcriptid < 0)
      return {
        refused: `${action.courseName} is still waiting to be sent: edit it in the Outbox instead.`,
      };
    return {
      draft: {
        op: {
          kind: 'trainingAssignment.update',
          transcriptid: held.transcriptid,
          changes: { duedate: action.duedate },
        },
        base: { duedate: held.due_date },
        summary: `${name}: ${action.courseName} due ${formatDate(held.dueIso)} → ${formatDate(due)}`,
      },
    };
  }
  const fields = action.duedate ? { duedate: action.duedate } : {};
  const due = action.duedate ? `, due ${formatDate(toIsoDate(action.duedate))}` : '';
  return {
    draft: {
      op: { kind: 'trainingAssignment.create', userid: user.userid, courseid: action.courseid, fields },
      summary: `${name}: assign ${action.courseName}${due}`,
    },
  };
}

function planTrainingRemove(
  name: string,
  user: UserRecord,
  action: ActionOf<'trainingRemove'>,
  ctx: BulkContext,
): Planned {
  const held = ctx.trainingHeld.get(courseOfUserKey(user.userid, action.courseid));
  if (!held) return { noop: `not assigned ${action.courseName}` };
  if (held.transcriptid < 0)
    return {
      refused: `${action.courseName} is still waiting to be sent: undo it in the Outbox instead.`,
    };
  return {
    draft: {
      ...trainingDeleteDraft(held, name),
      summary: `${name}: remove ${action.courseName}${held.dueIso ? ` (due ${formatDate(held.dueIso)})` : ''}`,
    },
  };
}

/** Per action, what it plans for one person (an action without its planner is a type error). */
const PLANNERS = {
  status: planStatus,
  groupAccess: planGroupAccess,
  moduleAccess: planModuleAccess,
  credential: planCredential,
  renew: planRenew,
  credentialRemove: planCredentialRemove,
  training: planTraining,
  trainingRemove: planTrainingRemove,
} satisfies { [T in BulkAction['type']]: Planner<T> };

function planFor(user: UserRecord, action: BulkAction, ctx: BulkContext): Planned {
  // the table pairs each action with its own planner, which the compiler cannot follow through the union
  const plan = PLANNERS[action.type] as Planner<BulkAction['type']>;
  return plan(who(user), user, action, ctx);
}

/** " (Nov 2, 2026 – Nov 2, 2027)", or nothing without dates. */
function span(startIso: string, expirationIso: string): string {
  if (!startIso && !expirationIso) return '';
  const start = startIso ? formatDate(startIso) : 'no start';
  const expiry = expirationIso ? formatDate(expirationIso) : 'no expiry';
  return ` (${start} – ${expiry})`;
}

function isBeingCreated(held: CredentialAssignmentRecord): boolean {
  return (held as { pendingChange?: string }).pendingChange === 'create';
}

/**
 * A credential already held, with new dates or number: an update of only what
 * differs (the preview shows before → after); nothing when all is already so.
 */
type RenewalFields = Pick<
  Extract<BulkAction, { type: 'credential' }>,
  'startdate' | 'expirationdate' | 'credentialnumber' | 'notes'
>;

function renewal(
  name: string,
  user: UserRecord,
  c: CredentialRecord,
  held: CredentialAssignmentRecord,
  action: RenewalFields,
): Planned {
  if (isBeingCreated(held))
    return { refused: `${c.credentialname} is still waiting to be sent: edit it in the Outbox instead.` };
  const changes: { startdate?: string; expirationdate?: string; credentialnumber?: string; notes?: string } =
    {};
  const base: Record<string, string> = {};
  const said: string[] = [];
  const start = toIsoDate(action.startdate);
  const expiry = toIsoDate(action.expirationdate);
  if (start && start !== held.startIso) {
    changes.startdate = action.startdate;
    base['startdate'] = held.startdate;
    said.push(`start ${formatDate(held.startIso)} → ${formatDate(start)}`);
  }
  if (expiry && expiry !== held.expirationIso) {
    changes.expirationdate = action.expirationdate;
    base['expirationdate'] = held.expirationdate;
    said.push(`expires ${formatDate(held.expirationIso)} → ${formatDate(expiry)}`);
  }
  const number = action.credentialnumber.trim();
  if (number && number !== held.credentialnumber) {
    changes.credentialnumber = number;
    base['credentialnumber'] = held.credentialnumber;
    said.push(`number ${held.credentialnumber || '—'} → ${number}`);
  }
  const notes = action.notes.trim();
  if (notes && notes !== held.notes) {
    changes.notes = notes;
    base['notes'] = held.notes;
    said.push('new notes');
  }
  if (said.length === 0)
    return { noop: `already holds ${c.credentialname}${span(held.startIso, held.expirationIso)}` };
  return {
    draft: {
      op: { kind: 'credentialAssignment.update', credentialid: c.credentialid, userid: user.userid, changes },
      base,
      summary: `${name}: renew ${c.credentialname}, ${said.join(', ')}`,
    },
  };
}
