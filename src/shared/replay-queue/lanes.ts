/**
 * The engine's in-memory index of what may run next: the unfinished ops of
 * each target in queue order (a lane; only its first op is a candidate), and
 * the targets whose first op may be able to go, lowest seq first. Built from
 * the stored outbox at open/reload and kept in step with every outcome, so
 * picking the next ops costs what changed rather than a scan of the queue.
 * The rules for one target's first op are waitReasonOfHead's, below.
 */
import type { OutboxOp } from '../outbox.ts';
import { forEachSliced, type Slicing } from '../sliced.ts';

type Find = (id: string) => OutboxOp | undefined;

export interface SchedulingState {
  now: number;
  /** targets with an op in flight: one op per target at a time */
  busyTargets: ReadonlySet<string>;
  /** how many more ops may start */
  capacity: number;
}

/** Why the first unfinished op of a target cannot go now (the engine's bookkeeping; no view shows it). */
type WaitReason = 'dependency' | 'backoff' | 'target-busy' | 'parked' | null;

/**
 * Why the first unfinished op of its target cannot go now (null: it can). A
 * parked op (conflict, needs review, failed) holds its target until a person
 * decides, so later edits never overtake it; an op waits for every op it
 * depends on (a dependency no longer in the outbox was done and cleared), for
 * its target to be free, and for its backoff to end.
 */
function waitReasonOfHead(op: OutboxOp, find: Find, state: SchedulingState): WaitReason {
  if (op.status !== 'pending') return op.status === 'sending' ? 'target-busy' : 'parked';
  if (
    op.dependsOn.some((dep) => {
      const d = find(dep);
      return d !== undefined && d.status !== 'done';
    })
  )
    return 'dependency';
  if (state.busyTargets.has(op.targetKey)) return 'target-busy';
  if (op.nextAttemptAt !== null && Date.parse(op.nextAttemptAt) > state.now) return 'backoff';
  return null;
}

interface Candidate {
  seq: number;
  target: string;
}

export class RunnableLanes {
  private readonly find: Find;
  private lanes = new Map<string, string[]>();
  /** min-heap by seq of targets to look at */
  private heap: Candidate[] = [];
  private readonly queued = new Set<string>();
  /** targets whose first op waits out a backoff, and until when */
  private readonly backingOff = new Map<string, number>();
  /** dependency id -> targets whose first op waits for it */
  private readonly waitingOn = new Map<string, Set<string>>();

  constructor(find: Find) {
    this.find = find;
  }

  /**
   * Start over from these unfinished ops (at open and reload), a slice at a time: 100,000 queued ops sorted and laned
   * in one go held the window for 200 ms. Each lane is put in queue order on its own (a lane holds a few ops), so no
   * sort of the whole queue is needed. False when `slicing.stopped` stopped it (the lanes are then left half built:
   * the caller drops them).
   */
  async rebuild(ops: readonly OutboxOp[], slicing: Slicing = {}): Promise<boolean> {
    const lanes = new Map<string, OutboxOp[]>();
    const laned = await forEachSliced(
      ops.length,
      (i) => {
        const op = ops[i]!;
        if (op.status === 'done') return;
        const lane = lanes.get(op.targetKey);
        if (lane) lane.push(op);
        else lanes.set(op.targetKey, [op]);
      },
      slicing,
    );
    if (!laned) return false;
    this.lanes = new Map();
    this.heap = [];
    this.queued.clear();
    this.backingOff.clear();
    this.waitingOn.clear();
    const targets = [...lanes.keys()];
    return forEachSliced(
      targets.length,
      (i) => {
        const target = targets[i]!;
        const lane = lanes.get(target)!;
        if (lane.length > 1) lane.sort((a, b) => a.seq - b.seq);
        this.lanes.set(
          target,
          lane.map((op) => op.id),
        );
        this.wake(target);
      },
      slicing,
    );
  }

  /** The op's state changed (sent, outcome recorded, edited): its lane moves on, and what waited for it looks again. */
  changed(op: OutboxOp): void {
    if (op.status === 'sending') return; // its target is busy until the outcome
    const lane = this.lanes.get(op.targetKey);
    if (op.status === 'done') {
      if (lane) {
        const at = lane.indexOf(op.id);
        if (at >= 0) lane.splice(at, 1);
        if (lane.length === 0) this.lanes.delete(op.targetKey);
      }
      const waiting = this.waitingOn.get(op.id);
      this.waitingOn.delete(op.id);
      waiting?.forEach((target) => this.wake(target));
    } else if (!lane) {
      this.lanes.set(op.targetKey, [op.id]);
    } else if (op.seq > (this.find(lane[lane.length - 1]!)?.seq ?? Infinity)) {
      // queued after everything on its target (an op just added): its place is last, no search or sort
      lane.push(op.id);
    } else if (!lane.includes(op.id)) {
      // an op we did not know (rare: written back after a discard elsewhere): back into queue order
      lane.push(op.id);
      lane.sort((a, b) => (this.find(a)?.seq ?? 0) - (this.find(b)?.seq ?? 0));
    }
    this.backingOff.delete(op.targetKey);
    this.wake(op.targetKey);
  }

  /** Look at this target's first op again at the next pick. */
  wake(target: string): void {
    if (this.queued.has(target)) return;
    const head = this.headOf(target);
    if (!head) return;
    this.queued.add(target);
    this.push({ seq: head.seq, target });
  }

  /**
   * Up to `capacity` ops that may go now, lowest seq first. wakeAt: when the
   * earliest backoff ends, once every candidate was looked at (null otherwise).
   */
  take(state: SchedulingState): { ready: OutboxOp[]; wakeAt: number | null } {
    for (const [target, at] of this.backingOff) {
      if (at > state.now) continue;
      this.backingOff.delete(target);
      this.wake(target);
    }
    const ready: OutboxOp[] = [];
    while (ready.length < state.capacity) {
      const next = this.pop();
      if (!next) break;
      this.queued.delete(next.target);
      const head = this.headOf(next.target);
      if (!head) continue;
      switch (waitReasonOfHead(head, this.find, state)) {
        case null:
          ready.push(head);
          break;
        case 'backoff':
          this.backingOff.set(next.target, Date.parse(head.nextAttemptAt ?? '') || state.now);
          break;
        case 'dependency':
          for (const dep of head.dependsOn) {
            const d = this.find(dep);
            if (d === undefined || d.status === 'done') continue;
            const targets = this.waitingOn.get(dep) ?? new Set<string>();
            targets.add(next.target);
            this.waitingOn.set(dep, targets);
          }
          break;
        default:
          // busy or parked: back when that op changes (outcome, retry, resolve) or at reload
          break;
      }
    }
    if (this.heap.length > 0 || this.backingOff.size === 0) return { ready, wakeAt: null };
    let wakeAt = Infinity;
    for (const at of this.backingOff.values()) wakeAt = Math.min(wakeAt, at);
    return { ready, wakeAt };
  }

  /** Some target's first op waits out a backoff: it may go later without anyone's help. */
  waitsForTime(): boolean {
    return this.backingOff.size > 0;
  }

  private headOf(target: string): OutboxOp | undefined {
    const id = this.lanes.get(target)?.[0];
    return id === undefined ? undefined : this.find(id);
  }

  private push(item: Candidate): void {
    const heap = this.heap;
    heap.push(item);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.seq <= item.seq) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = item;
  }

  private pop(): Candidate | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && heap[right]!.seq < heap[left]!.seq ? right : left;
      if (heap[child]!.seq >= last.seq) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
