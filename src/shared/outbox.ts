/**
 * Outbox operations as the renderer stores them (Dexie `outbox` table) and the
 * audit log of their outcomes (`audit` table). Owned by the outbox feature;
 * the Dexie module includes these tables in its schema.
 */
import type { AppError, OpSpec } from './ipc.ts';
import type { StatusBody } from './api/codes.ts';

export type OutboxStatus = 'pending' | 'sending' | 'done' | 'failed' | 'conflict' | 'needs-review';

export type BaseValues = Record<string, string | number | boolean | null>;

export interface OutboxOp {
  /** stable id, made when the op is queued (never reused) */
  id: string;
  batchId: string;
  /** position in the queue: ops of one target replay in seq order */
  seq: number;
  /** the record the op acts on, e.g. "user:42", "credentialAssignment:7-42"; ordering is per target */
  targetKey: string;
  /** ids of ops that must be done before this one (a user's create before that user's grants) */
  dependsOn: string[];
  op: OpSpec;
  base: BaseValues;
  createdAt: string;
  status: OutboxStatus;
  attempts: number;
  /** set when a request may have reached the server: verify before sending again */
  maybeSent: boolean;
  nextAttemptAt: string | null;
  lastError: AppError | null;
  response: StatusBody | null;
  theirs: Record<string, unknown> | null;
  summary: string;
  /** ids still unknown when queued (a user created offline): filled from the create's new id when it arrives */
  bindings?: OpBinding[];
  /** the id the server gave a create (user, e-mail, transcript, assignment) */
  createdId?: number | string | null;
  /** set after a conflict when the user chose "keep mine": send without the base check */
  resolution?: 'mine';
  /** fields in conflict, as main reported them */
  conflictFields?: string[];
  updatedAt?: string;
  /** the batch this op's batch undoes (an undo after apply is a batch like any other, linked to the one it reverses) */
  undoes?: string;
  /** what the batch was named when queued ("Import of staff.xlsx"): the Outbox names the batch by it */
  batchLabel?: string;
}

/** "Put the new id of op `fromOp` into this op's `field`." */
export interface OpBinding {
  fromOp: string;
  field: 'userid' | 'transcriptid';
}

/** A queued op with a binding's new id filled in. */
export function bindOp(op: OpSpec, field: OpBinding['field'], value: number): OpSpec {
  if (field in op) return { ...op, [field]: value } as OpSpec;
  return op;
}

export type FailureClass = 'retry' | 'needs-review' | 'paused';

const RETRY_CODES = new Set<AppError['code']>([
  'network',
  'timeout',
  'server',
  'rate-limited',
  'cancelled',
  'malformed-response',
  'not-the-api',
]);

/**
 * Network, 5xx, 1006 and 429 are transient; 801/802 stop the whole queue (the
 * token must be fixed first); everything else (1000, 1001, 800 on that record,
 * 1004...) is a permanent failure that a person has to look at.
 */
export function classifyFailure(error: AppError): FailureClass {
  if (error.code === 'token-missing' || error.code === 'token-rejected') return 'paused';
  if (error.statuscode === 801 || error.statuscode === 802) return 'paused';
  if (error.statuscode === 1006 || error.httpcode === 429) return 'retry';
  if (error.httpcode !== undefined && error.httpcode >= 500) return 'retry';
  if (RETRY_CODES.has(error.code)) return 'retry';
  return 'needs-review';
}

export interface AuditEntry {
  seq?: number;
  opId: string;
  batchId: string;
  at: string;
  /** profile name the op was sent with ("who") */
  actor: string;
  kind: OpSpec['kind'];
  targetKey: string;
  outcome: 'done' | 'failed' | 'conflict' | 'needs-review' | 'discarded' | 'resolved';
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  response: StatusBody | null;
  message: string;
  /** set on the entries of an undo batch: the batch it reverses */
  undoes?: string;
}

/**
 * A large batch's ops as queued, stored some hundred to a record (replay-queue/packs.ts): the browser pays per record
 * stored, whatever it holds. Every op in a pack is exactly as queued (never tried, never edited): the first write of
 * any of them (the engine's, a discard, an edit) unpacks the whole pack in the same transaction.
 */
export interface OutboxPack {
  /** the queue position of the pack's first op (its key) */
  first: number;
  /** the queue position of its last op */
  last: number;
  batchId: string;
  ops: OutboxOp[];
}

/** Dexie schema strings of the outbox feature's tables (included by the database module). */
export const OUTBOX_TABLE_SCHEMAS = {
  // status: parked and unsent ops; seq: queue order. Few indexes on purpose: every op's outcome rewrites its row,
  // and each index entry is IndexedDB's work again for every op queued (no targetKey index since the app's version 14:
  // the views find a record's ops in memory).
  outbox: 'id, status, seq',
  // opId: an op's history; the export reads the log in order (the key)
  audit: '++seq, opId',
  // first: the pack holding a queue position is the last one whose first is at or before it; last: counted by their
  // keys (first to last), never by reading their ops; batchId: a batch's ops
  outboxPacks: 'first, batchId, last',
} as const;
