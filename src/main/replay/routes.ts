/**
 * The request of an operation (its route: each kind's in kinds/, looked up by
 * `writeRequestOf` in kinds.ts) and what its answer carries. Pure.
 */
import type { OpSpec } from '../../shared/ipc.ts';
import { OP_KIND_TABLE } from '../../shared/op-kinds.ts';

export type WriteMethod = 'POST' | 'PUT' | 'DELETE';

export interface WriteRequest {
  method: WriteMethod;
  path: string;
  body?: Record<string, unknown>;
}

/** The id a create's 701 body carries, by kind (the reference server adds it; the real platform may not). */
export function createdIdField(op: OpSpec): string | null {
  return OP_KIND_TABLE[op.kind].createdIdField;
}

/** What an update changes, in the field names of the record read back (its conflict fields). */
export function changesOf(op: OpSpec): Record<string, unknown> | null {
  return 'changes' in op ? { ...op.changes } : null;
}
