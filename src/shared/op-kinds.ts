/**
 * Every operation kind in one table, next to OP_KINDS (src/shared/ipc.ts): what
 * each kind does to its record, the id a create's answer carries, and who may
 * send it. `satisfies Record<OpKind, OpKindRow>` makes a new kind that misses a
 * row, or a row that misses a column, a type error. The per-kind code that needs
 * the typed payload (the API route in main/replay/routes.ts, the read-back in
 * main/replay/read.ts, the target key in outbox.ts, the keys an overlay reads in
 * renderer/outbox/overlays.ts) stays in exhaustive switches, which the compiler
 * checks the same way; the effective-state overlay of each kind (`shows`, applied in
 * renderer/outbox/pending.ts) is held by a table test over every kind.
 */
import type { OpKind } from './ipc.ts';

/** The cached collections whose effective state (cache + pending ops) the views read. */
export type EffectiveCollection =
  'users' | 'emails' | 'groupAccess' | 'moduleAccess' | 'credentialAssignments' | 'trainingAssignments';

export interface OpKindRow {
  /**
   * What the op does to its record, which decides how the replay verifies it
   * before a resend and whether it is conflict-checked: a create is in effect
   * when the record is there, a delete when it is gone, an update when the
   * server holds its `changes` (the conflict fields, checked against the base).
   */
  effect: 'create' | 'update' | 'delete';
  /** The id field the answer to a create carries (null: not a create, or no id of its own). */
  createdIdField: string | null;
  /** A token limited to one feature may send it (the server decides which feature). */
  featureTokenMaySend: boolean;
  /** What it changes, in the user's words (the reasons a write is refused use it). */
  changes: string;
  /** The collection whose effective state shows it while it waits to be sent. */
  shows: EffectiveCollection;
}

export const OP_KIND_TABLE = {
  'user.update': {
    effect: 'update',
    createdIdField: null,
    featureTokenMaySend: false,
    changes: 'people',
    shows: 'users',
  },
  'user.create': {
    effect: 'create',
    createdIdField: 'userid',
    featureTokenMaySend: false,
    changes: 'people',
    shows: 'users',
  },
  'email.add': {
    effect: 'create',
    createdIdField: 'emailid',
    featureTokenMaySend: false,
    changes: 'e-mail addresses',
    shows: 'emails',
  },
  'email.remove': {
    effect: 'delete',
    createdIdField: null,
    featureTokenMaySend: false,
    changes: 'e-mail addresses',
    shows: 'emails',
  },
  'groupAccess.grant': {
    effect: 'create',
    createdIdField: null,
    featureTokenMaySend: false,
    changes: 'group access',
    shows: 'groupAccess',
  },
  'groupAccess.revoke': {
    effect: 'delete',
    createdIdField: null,
    featureTokenMaySend: false,
    changes: 'group access',
    shows: 'groupAccess',
  },
  'moduleAccess.grant': {
    effect: 'create',
    createdIdField: null,
    featureTokenMaySend: true,
    changes: 'feature access',
    shows: 'moduleAccess',
  },
  'moduleAccess.revoke': {
    effect: 'delete',
    createdIdField: null,
    featureTokenMaySend: true,
    changes: 'feature access',
    shows: 'moduleAccess',
  },
  'credentialAssignment.create': {
    effect: 'create',
    createdIdField: 'assignmentid',
    featureTokenMaySend: false,
    changes: 'credentials',
    shows: 'credentialAssignments',
  },
  'credentialAssignment.update': {
    effect: 'update',
    createdIdField: null,
    featureTokenMaySend: false,
    changes: 'credentials',
    shows: 'credentialAssignments',
  },
  'credentialAssignment.delete': {
    effect: 'delete',
    createdIdField: null,
    featureTokenMaySend: false,
    changes: 'credentials',
    shows: 'credentialAssignments',
  },
  'trainingAssignment.create': {
    effect: 'create',
    createdIdField: 'transcriptid',
    featureTokenMaySend: false,
    changes: 'training',
    shows: 'trainingAssignments',
  },
  'trainingAssignment.update': {
    effect: 'update',
    createdIdField: null,
    featureTokenMaySend: false,
    changes: 'training',
    shows: 'trainingAssignments',
  },
  'trainingAssignment.delete': {
    effect: 'delete',
    createdIdField: null,
    featureTokenMaySend: false,
    changes: 'training',
    shows: 'trainingAssignments',
  },
} as const satisfies Record<OpKind, OpKindRow>;
