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
import type { CollectionRecord, EffectiveCollection } from './collections.ts';

/** What an op waiting to be sent makes of its record in the effective state the views show. */
export interface Overlaid<T> {
  /** the record as it will be (a create's: new, under the stand-in id its op was given) */
  record: T;
  change: 'create' | 'update' | 'delete';
  /** the fields an update sets, so a later edit can say it reverses one */
  fields?: string[];
}

/** The payload of one kind. */
export type OpSpecOf<K extends OpKind> = Extract<OpSpec, { kind: K }>;

/**
 * One kind, `K`, shown in the collection `C`: its record's type follows from `C`, so its overlay is checked against
 * the record it overlays.
 */
export interface OpKindDefinition<K extends OpKind, C extends EffectiveCollection = EffectiveCollection> {
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
  shows: C;
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
  /**
   * Its record in the effective state while it waits (`current`: the record under `recordKey`, with the ops before it
   * applied; `standInId`: the id a record it creates goes by until the server gives one), or null when it changes
   * nothing the views show (an update or a removal of a record not cached).
   */
  overlay(
    spec: OpSpecOf<K>,
    current: CollectionRecord[C] | undefined,
    standInId: number,
  ): Overlaid<CollectionRecord[C]> | null;
  /**
   * The record an undo step of this kind is judged against, when it is not the one its target key names (a person's
   * e-mails replay in order with the person, but each is judged on its own); null: its target key.
   */
  undoRecordKey: ((spec: OpSpecOf<K>) => string) | null;
  /** The op that puts the record back once it is done, or why it cannot be put back (undo after apply). */
  reverse(op: OutboxOp, spec: OpSpecOf<K>): Reversal;
}

/** The overlay of a removal: the record, when cached, marked as going. */
export function removing<T>(_spec: unknown, current: T | undefined): Overlaid<T> | null {
  return current ? { record: current, change: 'delete' } : null;
}

/** One definition per kind: a kind without one, or a definition without a part, is a type error. */
export type OpKindRegistry = { [K in OpKind]: OpKindDefinition<K> };
