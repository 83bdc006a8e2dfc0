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
}
