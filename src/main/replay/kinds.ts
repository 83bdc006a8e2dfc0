/**
 * The registry of main's part of each operation kind (kinds/definition.ts): the
 * request that carries it, how the platform's state of its record is read, the
 * list route that holds that record. One entry per kind of OP_KINDS, each in
 * the module of its record under kinds/; `satisfies ReplayKindRegistry` makes a
 * kind without its part, or a part without a piece, a type error. The pure part
 * of a kind is in src/shared/op-kinds.ts.
 */
import type { OpKind, OpSpec } from '../../shared/ipc.ts';
import {
  credentialAssignmentCreate,
  credentialAssignmentDelete,
  credentialAssignmentUpdate,
} from './kinds/credential-assignment.ts';
import type { ListedIn, ReplayKind, ReplayKindRegistry } from './kinds/definition.ts';
import { emailAdd, emailRemove } from './kinds/email.ts';
import { groupAccessGrant, groupAccessRevoke } from './kinds/group-access.ts';
import { moduleAccessGrant, moduleAccessRevoke } from './kinds/module-access.ts';
import {
  trainingAssignmentCreate,
  trainingAssignmentDelete,
  trainingAssignmentUpdate,
} from './kinds/training-assignment.ts';
import { userCreate, userUpdate } from './kinds/user.ts';
import type { ReplayClient, ServerState } from './read.ts';
import type { WriteRequest } from './routes.ts';

export const REPLAY_KIND_TABLE = {
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
} as const satisfies ReplayKindRegistry;

/**
 * The replay part of an op's own kind. The registry pairs each kind with its own part, which the compiler cannot
 * follow through a union of kinds: this one cast says so, once, for every lookup by an op.
 */
export function replayKindOf(spec: OpSpec): ReplayKind<OpKind> {
  return REPLAY_KIND_TABLE[spec.kind] as unknown as ReplayKind<OpKind>;
}

/** Operation -> API route: a description of the request, sent by `index.ts`. */
export function writeRequestOf(op: OpSpec): WriteRequest {
  return replayKindOf(op).writeRequest(op);
}

/**
 * Reads the server's current state of an operation's target, for the conflict check (updates) and the verification
 * before a resend (creates, grants, deletes). Every answer is validated before it is trusted.
 */
export function readState(client: ReplayClient, op: OpSpec, signal?: AbortSignal): Promise<ServerState> {
  return replayKindOf(op).readState(client, op, signal);
}

/** The list route holding an op's record, and the record's key; null when the op reads on its own. */
export function listRouteOf(op: OpSpec): ListedIn | null {
  return replayKindOf(op).listedIn(op);
}
