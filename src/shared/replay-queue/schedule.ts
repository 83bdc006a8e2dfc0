/**
 * Pure scheduling of the outbox: which ops may go now, and how long a failed
 * one waits. The engine (engine.ts) does the I/O around these.
 */
import type { OutboxOp } from '../outbox.ts';

export interface SchedulingState {
  now: number;
  /** targets with an op in flight: one op per target at a time */
  busyTargets: ReadonlySet<string>;
  /** how many more ops may start */
  capacity: number;
}

/** Why an op is not runnable (shown in the Outbox view as "waiting for ..."). */
export type WaitReason = 'earlier-op-on-target' | 'dependency' | 'backoff' | 'target-busy' | 'parked' | null;

/**
 * Order per target: only the lowest-seq unfinished op of each target is a
 * candidate; a parked op (conflict, needs review, failed) holds its target
 * until a person decides, so later edits never overtake it. An op also waits
 * for every op it depends on to be done (a dependency no longer in the outbox
 * was done and cleared). Candidates go in queue order (seq).
 */
export function runnableOps(ops: readonly OutboxOp[], state: SchedulingState, lookup?: (id: string) => OutboxOp | undefined): OutboxOp[] {
  if (state.capacity <= 0) return [];
  const find = lookup ?? ((byId) => (id: string) => byId.get(id))(new Map(ops.map((op) => [op.id, op])));
  const sorted = isSortedBySeq(ops) ? ops : [...ops].sort((a, b) => a.seq - b.seq);
  const heldTargets = new Set<string>();
  const out: OutboxOp[] = [];
  for (const op of sorted) {
    if (op.status === 'done') continue;
    // only the first unfinished op of a target is a candidate
    if (heldTargets.has(op.targetKey)) continue;
    heldTargets.add(op.targetKey);
    if (waitReasonOfHead(op, find, state) !== null) continue;
    out.push(op);
    if (out.length >= state.capacity) break;
  }
  return out;
}

function isSortedBySeq(ops: readonly OutboxOp[]): boolean {
  for (let i = 1; i < ops.length; i++) if (ops[i - 1]!.seq > ops[i]!.seq) return false;
  return true;
}

/** Why the first unfinished op of its target cannot go now (null: it can). */
export function waitReasonOfHead(op: OutboxOp, find: (id: string) => OutboxOp | undefined, state: SchedulingState): WaitReason {
  if (op.status !== 'pending') return op.status === 'sending' ? 'target-busy' : 'parked';
  if (op.dependsOn.some((dep) => { const d = find(dep); return d !== undefined && d.status !== 'done'; })) return 'dependency';
  if (state.busyTargets.has(op.targetKey)) return 'target-busy';
  if (op.nextAttemptAt !== null && Date.parse(op.nextAttemptAt) > state.now) return 'backoff';
  return null;
}

/** The first unfinished op (by seq) of each target. */
export function headsByTarget(ops: readonly OutboxOp[]): Map<string, OutboxOp> {
  const heads = new Map<string, OutboxOp>();
  for (const op of ops) {
    if (op.status === 'done') continue;
    const head = heads.get(op.targetKey);
    if (!head || op.seq < head.seq) heads.set(op.targetKey, op);
  }
  return heads;
}

export function waitReason(op: OutboxOp, byId: ReadonlyMap<string, OutboxOp>, heads: ReadonlyMap<string, OutboxOp>, state: SchedulingState): WaitReason {
  if (op.status === 'done') return null;
  if (heads.get(op.targetKey)?.id !== op.id) return 'earlier-op-on-target';
  return waitReasonOfHead(op, (id) => byId.get(id), state);
}

/** When the earliest op waiting out a backoff may go (null: none is waiting). */
export function nextWakeAt(ops: readonly OutboxOp[]): number | null {
  let earliest: number | null = null;
  for (const op of ops) {
    if (op.status !== 'pending' || op.nextAttemptAt === null) continue;
    const at = Date.parse(op.nextAttemptAt);
    if (earliest === null || at < earliest) earliest = at;
  }
  return earliest;
}

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 5 * 60_000 };

/**
 * Exponential backoff with jitter: attempt n waits between half and all of
 * base * 2^(n-1), capped; never less than what the server asked (Retry-After).
 * Jitter keeps a crowd of failed ops from retrying in lockstep.
 */
export function backoffMs(attempts: number, random: number, policy: BackoffPolicy = DEFAULT_BACKOFF, retryAfterMs?: number): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
  const jittered = Math.round(exp * (0.5 + 0.5 * random));
  return Math.max(jittered, retryAfterMs ?? 0);
}
