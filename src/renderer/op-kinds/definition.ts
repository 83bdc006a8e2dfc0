/**
 * The part of an operation kind bound to the renderer: the op in words (the
 * Outbox, the undo preview, a batch's name) and what the cache holds of its
 * record (the undo's "now" when offline, and once the op is done). Each kind's part lives in the module
 * of its record here (user.ts, email.ts, group-access.ts, module-access.ts,
 * credential-assignment.ts, training-assignment.ts); the registry
 * (../op-kinds.ts) holds one per kind, as src/shared/op-kinds.ts holds the pure part.
 */
import type { OpKind, RecordState, ReplayOutcome } from '../../shared/ipc.ts';
import type { OutboxOp } from '../../shared/outbox.ts';
import type { OpSpecOf } from '../../shared/op-kinds/definition.ts';
import type { FieldbookDb } from '../db/rows.ts';

/** The names of the records an op names, as the cache knows them, or what they are when it does not. */
export interface Named {
  person(userid: number): string;
  group(groupid: number): string;
  feature(siteid: number, accessID: number): string;
  credential(credentialid: number): string;
  course(courseid: number): string;
  email(emailid: number): string;
  /** a training assignment: whose, and which course (undefined: not on this laptop) */
  transcript(transcriptid: number): { userid: number; courseid: number } | undefined;
}

/** The outcome of an op the platform carried out. */
export type DoneOutcome = ReplayOutcome & { status: 'done' };

export interface RendererKind<K extends OpKind> {
  /** The op in full: "Assign Rigging to Barbara Adams, Nov 2, 2026 – Nov 2, 2027". */
  describe(spec: OpSpecOf<K>, named: Named): string;
  /** What it does, without whom to ("Assign Rigging to"): ops of one batch that share it read as one action. */
  action(spec: OpSpecOf<K>, named: Named): string;
  /** The action said without its values (an import's rows, each with values of its own); absent: it has none. */
  broadAction?(spec: OpSpecOf<K>, named: Named): string;
  /** Whose record an update changes, in the undo's words ("Priya Costa's Rigging"); absent: not an update. */
  whose?(spec: OpSpecOf<K>, named: Named): string;
  /**
   * What the cache holds of its own record once it is done: the record read back, the id a create was given, or the
   * record gone (the person read back is put after it).
   */
  afterDone(db: FieldbookDb, spec: OpSpecOf<K>, outcome: DoneOutcome, op: OutboxOp): Promise<unknown>;
  /** The cache's copy of its record, in the op's field names (as the replay reads the server's). */
  cachedState(db: FieldbookDb, spec: OpSpecOf<K>): Promise<RecordState>;
  /**
   * A value of one of its record's fields in the coordinator's words, where the platform's own word would be misread
   * (a person's status "Offline": never signed in, not this laptop's Work offline); absent or undefined: as it is.
   */
  valueInWords?(field: string, value: unknown): string | undefined;
}

/** One renderer part per kind: a kind without one, or a part missing, is a type error. */
export type RendererKindRegistry = { [K in OpKind]: RendererKind<K> };

export const ABSENT: RecordState = { present: false };

export function presentState(record: object, id?: number | string): RecordState {
  return id === undefined
    ? { present: true, record: { ...record } }
    : { present: true, record: { ...record }, id };
}
