/**
 * What one operation kind is, in one place: its payload, what it does to its
 * record, its target key, its undo and its words. Each kind's definition lives
 * in the module of its record (user.ts, email.ts, group-access.ts,
 * module-access.ts, credential-assignment.ts, training-assignment.ts); the
 * registry (src/shared/op-kinds.ts) holds one per kind. Pure.
 */
import type { z } from 'zod';
import type { OpKind, OpSpec } from '../ipc.ts';
import type { OutboxOp } from '../outbox.ts';
import type { Reversal } from '../undo/reversal.ts';

/** The cached collections whose effective state (cache + pending ops) the views read. */
export type EffectiveCollection =
  'users' | 'emails' | 'groupAccess' | 'moduleAccess' | 'credentialAssignments' | 'trainingAssignments';

/** The payload of one kind. */
export type OpSpecOf<K extends OpKind> = Extract<OpSpec, { kind: K }>;

export interface OpKindDefinition<K extends OpKind> {
  /** The fields sent to the API and the keys that address its record, checked at the IPC boundary. */
  schema: z.ZodType<OpSpecOf<K>>;
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
  /**
   * The record it acts on (ops of one target replay in order); `tempUserKey`
   * stands for a person created offline whose id is not known yet.
   */
  targetKey(spec: OpSpecOf<K>, tempUserKey?: string): string;
  /**
   * The cached record it acts on, by its key in the collection that `shows` it (null: a create of a record
   * whose id the server gives, nothing cached yet).
   */
  recordKey(spec: OpSpecOf<K>): string | number | null;
  /** The op that puts the record back once it is done, or why it cannot be put back (undo after apply). */
  reverse(op: OutboxOp, spec: OpSpecOf<K>): Reversal;
}

/** One definition per kind: a kind without one, or a definition without a part, is a type error. */
export type OpKindRegistry = { [K in OpKind]: OpKindDefinition<K> };
