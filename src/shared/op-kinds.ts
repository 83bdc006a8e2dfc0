/**
 * The registry of operation kinds: one definition per kind of OP_KINDS
 * (src/shared/ipc.ts), each in the module of its record under
 * src/shared/op-kinds/ (its payload, what it does to its record, the id a
 * create's answer carries, who may send it, its target key, its undo and its
 * words). `satisfies OpKindRegistry` makes a kind without a definition, or a
 * definition without a part, a type error.
 *
 * The parts bound to a process are in the module of the same record beside
 * their process, with a registry checked the same way: main's (the request,
 * the read of the platform's state, the list route) in
 * src/main/replay/kinds.ts, the renderer's (the words, the cache's copy, the
 * cache once done) in src/renderer/op-kinds.ts.
 */
import type { OpKind, OpSpec } from './ipc.ts';
import {
  credentialAssignmentCreate,
  credentialAssignmentDelete,
  credentialAssignmentUpdate,
} from './op-kinds/credential-assignment.ts';
import type { OpKindDefinition, OpKindRegistry } from './op-kinds/definition.ts';
import { emailAdd, emailRemove } from './op-kinds/email.ts';
import { groupAccessGrant, groupAccessRevoke } from './op-kinds/group-access.ts';
import { moduleAccessGrant, moduleAccessRevoke } from './op-kinds/module-access.ts';
import {
  trainingAssignmentCreate,
  trainingAssignmentDelete,
  trainingAssignmentUpdate,
} from './op-kinds/training-assignment.ts';
import { userCreate, userUpdate } from './op-kinds/user.ts';

export type { EffectiveCollection } from './op-kinds/collections.ts';

export const OP_KIND_TABLE = {
  'user.update': userUpdate,
  'user.create': userCreate,
  'email.add': emailAdd,
  'email.remove': emailRemove,
  'groupAccess.grant': groupAccessGrant,
  'groupAccess.revoke': groupAccessRevoke,
  'moduleAccess.grant': moduleAccessGrant,
  'moduleAccess.revoke': moduleAccessRevoke,
  'credentialAssignment.create': credentialAssignmentCreate,
  'credentialAssignment.update': credentialAssignmentUpdate,
  'credentialAssignment.delete': credentialAssignmentDelete,
  'trainingAssignment.create': trainingAssignmentCreate,
  'trainingAssignment.update': trainingAssignmentUpdate,
  'trainingAssignment.delete': trainingAssignmentDelete,
} as const satisfies OpKindRegistry;

/**
 * The definition of an op's own kind. The registry pairs each kind with its
 * own definition, which the compiler cannot follow through a union of kinds:
 * this one cast says so, once, for every lookup by an op.
 */
export function definitionOf(spec: OpSpec): OpKindDefinition<OpKind> {
  return OP_KIND_TABLE[spec.kind] as unknown as OpKindDefinition<OpKind>;
}

/**
 * The record an op acts on: ops of one target replay in order. A user's
 * e-mails, updates and status share the user's key; an access grant, a
 * credential or a training assignment is its own record.
 */
export function targetKeyOf(op: OpSpec, tempUserKey?: string): string {
  return definitionOf(op).targetKey(op, tempUserKey);
}
