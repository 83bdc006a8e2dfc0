/**
 * The effective state the views show: cached records with the ops still in
 * the outbox applied, each touched record marked as pending. Pure: the views
 * (or usePendingOps) supply the records and the ops.
 */
import type { OutboxOp, OutboxStatus } from '../../shared/outbox.ts';
import type {
  CredentialAssignmentRecord,
  EmailRecord,
  GroupAccessRecord,
  ModuleAccessRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../shared/records.ts';
import { userSearchKeys, userSortName } from '../../shared/records.ts';
import { toIsoDate } from '../../shared/dates.ts';
import { credentialAssignmentKey, groupUserKey, moduleAccessKey } from '../../shared/keys.ts';

export interface PendingInfo {
  /** what the queued ops do to this record overall */
  change: 'create' | 'update' | 'delete';
  opIds: string[];
  /** the most pressing status among them: a conflict or a refusal shows before "pending" */
  status: OutboxStatus;
  /** the fields queued updates set on this record (people), so a later edit can say it reverses one */
  fields?: string[];
}

export type WithPending<T> = T & { pending?: PendingInfo };

const STATUS_WEIGHT: Record<OutboxStatus, number> = {
  done: 0,
  pending: 1,
  sending: 2,
  failed: 3,
  'needs-review': 4,
  conflict: 5,
};

/**
 * Ops still to be applied on the server, in queue order. An op bound to a
 * person created offline (userid filled in when the create is sent) gets the
 * stand-in id of that person, so the grant or e-mail shows on their record.
 */
export function unsentOps(ops: readonly OutboxOp[]): OutboxOp[] {
  const byId = new Map(ops.map((op) => [op.id, op]));
  return ops
    .filter((op) => op.status !== 'done')
    .sort(inQueueOrder)
    .map((op) => boundToCreated(op, byId));
}

/** Queue order (`seq`). */
export const inQueueOrder = (a: OutboxOp, b: OutboxOp): number => a.seq - b.seq;

/** The op with the id of the person it is bound to (the stand-in id until their create is sent), or the op itself. */
export function boundToCreated(op: OutboxOp, byId: ReadonlyMap<string, OutboxOp>): OutboxOp {
  const binding = op.bindings?.find((b) => b.field === 'userid');
  const from = binding ? byId.get(binding.fromOp) : undefined;
  if (!from || !('userid' in op.op)) return op;
  const userid =
    from.status === 'done' && typeof from.createdId === 'number' ? from.createdId : tempUserId(from);
  return op.op.userid === userid ? op : { ...op, op: { ...op.op, userid } as OutboxOp['op'] };
}

function mark<T>(
  record: WithPending<T>,
  op: OutboxOp,
  change: PendingInfo['change'],
  fields: readonly string[] = [],
): WithPending<T> {
  const prev = record.pending;
  const status = prev && STATUS_WEIGHT[prev.status] >= STATUS_WEIGHT[op.status] ? prev.status : op.status;
  const merged: PendingInfo['change'] =
    change === 'delete' ? 'delete' : prev?.change === 'create' ? 'create' : change;
  const allFields = [...new Set([...(prev?.fields ?? []), ...fields])];
  return {
    ...record,
    pending: {
      change: merged,
      opIds: [...(prev?.opIds ?? []), op.id],
      status,
      ...(allFields.length > 0 ? { fields: allFields } : {}),
    },
  };
}

/** A stand-in id for a user created offline (negative, so it never meets a real one). */
export function tempUserId(op: OutboxOp): number {
  return -Math.max(1, Math.trunc(op.seq));
}

/** Ops applied to people one at a time, in queue order (unsent, bound): `add` each, then `result`. */
export interface Applier<T> {
  add(op: OutboxOp): void;
  result(): WithPending<T>[];
}

export function usersApplier(users: readonly UserRecord[]): Applier<UserRecord> {
  const byId = new Map<number, WithPending<UserRecord>>(users.map((u) => [u.userid, u]));
  const add = (op: OutboxOp) => {
    const spec = op.op;
    if (spec.kind === 'user.create') {
      const f = spec.fields;
      const created: UserRecord = {
        userid: tempUserId(op),
        siteid: spec.siteid,
        username: f.username,
        firstname: f.firstname,
        lastname: f.lastname,
        employeeid: f.employeeid ?? '',
        status: f.status ?? 'Active',
        usertype: 'User',
        searchKeys: userSearchKeys({ ...f, employeeid: f.employeeid ?? '' }),
        sortName: userSortName(f),
      };
      byId.set(created.userid, mark<UserRecord>(created, op, 'create'));
    } else if (spec.kind === 'user.update') {
      const current = byId.get(spec.userid);
      if (!current) return;
      const next = { ...current, ...spec.changes };
      byId.set(
        spec.userid,
        mark(
          { ...next, searchKeys: userSearchKeys(next), sortName: userSortName(next) },
          op,
          'update',
          Object.keys(spec.changes),
        ),
      );
    }
  };
  return { add, result: () => [...byId.values()] };
}

export function applyPendingToUsers(
  users: readonly UserRecord[],
  ops: readonly OutboxOp[],
): WithPending<UserRecord>[] {
  const applier = usersApplier(users);
  for (const op of unsentOps(ops)) applier.add(op);
  return applier.result();
}

export function applyPendingToCredentialAssignments(
  assignments: readonly CredentialAssignmentRecord[],
  ops: readonly OutboxOp[],
): WithPending<CredentialAssignmentRecord>[] {
  const byId = new Map<string, WithPending<CredentialAssignmentRecord>>(assignments.map((a) => [a.id, a]));
  for (const op of unsentOps(ops)) {
    const spec = op.op;
    if (
      spec.kind !== 'credentialAssignment.create' &&
      spec.kind !== 'credentialAssignment.update' &&
      spec.kind !== 'credentialAssignment.delete'
    )
      continue;
    const id = credentialAssignmentKey(spec.credentialid, spec.userid);
    const current = byId.get(id);
    if (spec.kind === 'credentialAssignment.delete') {
      if (current) byId.set(id, mark(current, op, 'delete'));
      continue;
    }
    const fields = spec.kind === 'credentialAssignment.create' ? spec.fields : spec.changes;
    if (!current && spec.kind === 'credentialAssignment.update') continue;
    const start: CredentialAssignmentRecord = current ?? {
      id,
      credentialid: spec.credentialid,
      userid: spec.userid,
      startdate: '',
      startIso: '',
      expirationdate: '',
      expirationIso: '',
      credentialnumber: '',
      status: 'active',
      attachmentcount: 0,
      notes: '',
    };
    const next = { ...start, ...fields };
    next.startIso = toIsoDate(next.startdate);
    next.expirationIso = toIsoDate(next.expirationdate);
    byId.set(id, mark(next, op, current ? 'update' : 'create'));
  }
  return [...byId.values()];
}

export function applyPendingToTrainingAssignments(
  assignments: readonly TrainingAssignmentRecord[],
  ops: readonly OutboxOp[],
): WithPending<TrainingAssignmentRecord>[] {
  const byId = new Map<number, WithPending<TrainingAssignmentRecord>>(
    assignments.map((t) => [t.transcriptid, t]),
  );
  for (const op of unsentOps(ops)) {
    const spec = op.op;
    if (spec.kind === 'trainingAssignment.update' || spec.kind === 'trainingAssignment.delete') {
      const current = byId.get(spec.transcriptid);
      if (!current) continue;
      if (spec.kind === 'trainingAssignment.delete') {
        byId.set(spec.transcriptid, mark(current, op, 'delete'));
        continue;
      }
      const c = spec.changes;
      const next = { ...current };
      if (c.duedate !== undefined) Object.assign(next, { due_date: c.duedate, dueIso: toIsoDate(c.duedate) });
      if (c.startdate !== undefined)
        Object.assign(next, { start_date: c.startdate, startIso: toIsoDate(c.startdate) });
      if (c.coursestatus !== undefined) next.course_status = c.coursestatus;
      byId.set(spec.transcriptid, mark(next, op, 'update'));
    } else if (spec.kind === 'trainingAssignment.create') {
      const f = spec.fields;
      const created: TrainingAssignmentRecord = {
        transcriptid: -Math.max(1, Math.trunc(op.seq)),
        userid: spec.userid,
        courseid: spec.courseid,
        siteid: 0,
        course_name: '',
        course_type: null,
        course_status: 'active',
        assignment_method: f.assignmentmethod ?? '',
        start_date: f.startdate ?? '',
        start_time: '',
        startIso: toIsoDate(f.startdate),
        due_date: f.duedate ?? '',
        due_time: '',
        dueIso: toIsoDate(f.duedate),
        assignment_created_date: '',
        createdIso: '',
      };
      byId.set(created.transcriptid, mark(created, op, 'create'));
    }
  }
  return [...byId.values()];
}

/** Access grants (group or feature): a grant adds a pending record, a revoke marks one as going. */
export function applyPendingToGroupAccess(
  grants: readonly GroupAccessRecord[],
  ops: readonly OutboxOp[],
): WithPending<GroupAccessRecord>[] {
  const byId = new Map<string, WithPending<GroupAccessRecord>>(grants.map((g) => [g.id, g]));
  for (const op of unsentOps(ops)) {
    const spec = op.op;
    if (spec.kind !== 'groupAccess.grant' && spec.kind !== 'groupAccess.revoke') continue;
    const id = groupUserKey(spec.groupid, spec.userid);
    const current = byId.get(id);
    if (spec.kind === 'groupAccess.revoke') {
      if (current) byId.set(id, mark(current, op, 'delete'));
    } else {
      byId.set(
        id,
        mark(
          current ?? { id, groupid: spec.groupid, userid: spec.userid, siteid: spec.siteid },
          op,
          current ? 'update' : 'create',
        ),
      );
    }
  }
  return [...byId.values()];
}

export function applyPendingToModuleAccess(
  grants: readonly ModuleAccessRecord[],
  ops: readonly OutboxOp[],
): WithPending<ModuleAccessRecord>[] {
  const byId = new Map<string, WithPending<ModuleAccessRecord>>(grants.map((g) => [g.id, g]));
  for (const op of unsentOps(ops)) {
    const spec = op.op;
    if (spec.kind !== 'moduleAccess.grant' && spec.kind !== 'moduleAccess.revoke') continue;
    const id = moduleAccessKey(spec.siteid, spec.accessID, spec.userid);
    const current = byId.get(id);
    if (spec.kind === 'moduleAccess.revoke') {
      if (current) byId.set(id, mark(current, op, 'delete'));
    } else {
      byId.set(
        id,
        mark(
          current ?? { id, accessID: spec.accessID, siteid: spec.siteid, userid: spec.userid },
          op,
          current ? 'update' : 'create',
        ),
      );
    }
  }
  return [...byId.values()];
}

export function emailsApplier(emails: readonly EmailRecord[]): Applier<EmailRecord> {
  const byId = new Map<number, WithPending<EmailRecord>>(emails.map((e) => [e.emailid, e]));
  const add = (op: OutboxOp) => {
    const spec = op.op;
    if (spec.kind === 'email.remove') {
      const current = byId.get(spec.emailid);
      if (current) byId.set(spec.emailid, mark(current, op, 'delete'));
    } else if (spec.kind === 'email.add') {
      const created: EmailRecord = {
        emailid: -Math.max(1, Math.trunc(op.seq)),
        userid: spec.userid,
        email: spec.email,
        status: 'Active',
        isprimary: null,
      };
      byId.set(created.emailid, mark(created, op, 'create'));
    }
  };
  return { add, result: () => [...byId.values()] };
}

/** A user's e-mails with their pending adds and removals. */
export function applyPendingToEmails(
  emails: readonly EmailRecord[],
  ops: readonly OutboxOp[],
): WithPending<EmailRecord>[] {
  const applier = emailsApplier(emails);
  for (const op of unsentOps(ops)) applier.add(op);
  return applier.result();
}
