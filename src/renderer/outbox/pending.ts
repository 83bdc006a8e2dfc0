/**
 * The effective state the views show: cached records with the ops still in
 * the outbox applied, each touched record marked as pending. What each kind
 * does to its record is its definition's `overlay` (src/shared/op-kinds/); here,
 * the ops of one collection applied in order and the marks merged. Pure: the
 * views supply the records and the ops.
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
import { definitionOf } from '../../shared/op-kinds.ts';
import {
  COLLECTION_KEY,
  type CollectionRecord,
  type EffectiveCollection,
} from '../../shared/op-kinds/collections.ts';

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

/**
 * The ops of one collection applied to its records one at a time, in queue order (unsent, bound): each op's kind
 * says what it makes of its record, which is marked with it.
 */
export function collectionApplier<C extends EffectiveCollection>(
  collection: C,
  records: readonly CollectionRecord[C][],
): Applier<CollectionRecord[C]> {
  const keyOf = COLLECTION_KEY[collection] as (r: CollectionRecord[C]) => string | number;
  const byKey = new Map<string | number, WithPending<CollectionRecord[C]>>(records.map((r) => [keyOf(r), r]));
  const add = (op: OutboxOp) => {
    const definition = definitionOf(op.op);
    if (definition.shows !== collection) return;
    const key = definition.recordKey(op.op);
    const current = key === null ? undefined : byKey.get(key);
    const overlaid = definition.overlay(op.op, current, tempUserId(op));
    if (!overlaid) return;
    // the definition shows in this collection, so its record is this collection's
    const record = overlaid.record as WithPending<CollectionRecord[C]>;
    byKey.set(keyOf(record), mark(record, op, overlaid.change, overlaid.fields));
  };
  return { add, result: () => [...byKey.values()] };
}

/** The records of one collection with the unsent ops applied. */
export function applyPending<C extends EffectiveCollection>(
  collection: C,
  records: readonly CollectionRecord[C][],
  ops: readonly OutboxOp[],
): WithPending<CollectionRecord[C]>[] {
  const applier = collectionApplier(collection, records);
  for (const op of unsentOps(ops)) applier.add(op);
  return applier.result();
}

export const usersApplier = (users: readonly UserRecord[]) => collectionApplier('users', users);
export const emailsApplier = (emails: readonly EmailRecord[]) => collectionApplier('emails', emails);

export const applyPendingToUsers = (users: readonly UserRecord[], ops: readonly OutboxOp[]) =>
  applyPending('users', users, ops);

/** A user's e-mails with their pending adds and removals. */
export const applyPendingToEmails = (emails: readonly EmailRecord[], ops: readonly OutboxOp[]) =>
  applyPending('emails', emails, ops);

export const applyPendingToCredentialAssignments = (
  assignments: readonly CredentialAssignmentRecord[],
  ops: readonly OutboxOp[],
) => applyPending('credentialAssignments', assignments, ops);

export const applyPendingToTrainingAssignments = (
  assignments: readonly TrainingAssignmentRecord[],
  ops: readonly OutboxOp[],
) => applyPending('trainingAssignments', assignments, ops);

/** Access grants (group or feature): a grant adds a pending record, a revoke marks one as going. */
export const applyPendingToGroupAccess = (grants: readonly GroupAccessRecord[], ops: readonly OutboxOp[]) =>
  applyPending('groupAccess', grants, ops);

export const applyPendingToModuleAccess = (grants: readonly ModuleAccessRecord[], ops: readonly OutboxOp[]) =>
  applyPending('moduleAccess', grants, ops);
