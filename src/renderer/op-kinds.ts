/**
 * The registry of the renderer's part of each operation kind
 * (op-kinds/definition.ts): the op in words, and what the cache holds of its
 * record. One entry per kind of OP_KINDS, each in the module of its record
 * under op-kinds/; `satisfies RendererKindRegistry` makes a kind without its
 * part, or a part without a piece, a type error. The pure part of a kind is in
 * src/shared/op-kinds.ts, main's in src/main/replay/kinds.ts.
 */
import type { OpKind, OpSpec } from '../shared/ipc.ts';
import {
  credentialAssignmentCreate,
  credentialAssignmentDelete,
  credentialAssignmentUpdate,
} from './op-kinds/credential-assignment.ts';
import type { RendererKind, RendererKindRegistry } from './op-kinds/definition.ts';
import { emailAdd, emailRemove } from './op-kinds/email.ts';
import { groupAccessGrant, groupAccessRevoke } from './op-kinds/group-access.ts';
import { moduleAccessGrant, moduleAccessRevoke } from './op-kinds/module-access.ts';
import {
  trainingAssignmentCreate,
  trainingAssignmentDelete,
  trainingAssignmentUpdate,
} from './op-kinds/training-assignment.ts';
import { userCreate, userUpdate } from './op-kinds/user.ts';

export const RENDERER_KIND_TABLE = {
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
} as const satisfies RendererKindRegistry;

/**
 * The renderer part of an op's own kind. The registry pairs each kind with its own part, which the compiler cannot
 * follow through a union of kinds: this one cast says so, once, for every lookup by an op.
 */
export function rendererKindOf(spec: OpSpec): RendererKind<OpKind> {
  return RENDERER_KIND_TABLE[spec.kind] as unknown as RendererKind<OpKind>;
}
