/**
 * The engine's unfinished ops by id, with the ops waiting for each create's new id (their `bindings`) indexed by that
 * create. Finding a finished create's dependants used to scan every op: replaying 50,000 creates and the e-mails
 * bound to them was 50,000 scans of up to 100,000 ops. The index changes only through `set` and `delete`, so it
 * holds what the map holds.
 */
import type { OutboxOp } from '../outbox.ts';

export class UnfinishedOps {
  private readonly byId = new Map<string, OutboxOp>();
  /** a create's id -> the ops with a binding from it */
  private readonly waitingFor = new Map<string, Set<string>>();

  get(id: string): OutboxOp | undefined {
    return this.byId.get(id);
  }

  values(): IterableIterator<OutboxOp> {
    return this.byId.values();
  }

  set(op: OutboxOp): void {
    this.unindex(this.byId.get(op.id));
    this.byId.set(op.id, op);
    for (const binding of op.bindings ?? []) {
      const waiting = this.waitingFor.get(binding.fromOp);
      if (waiting) waiting.add(op.id);
      else this.waitingFor.set(binding.fromOp, new Set([op.id]));
    }
  }

  delete(id: string): void {
    this.unindex(this.byId.get(id));
    this.byId.delete(id);
  }

  /** The ops with a binding from this create, in the order they were first set. */
  boundTo(createId: string): OutboxOp[] {
    const ids = this.waitingFor.get(createId);
    return ids ? [...ids].map((id) => this.byId.get(id)!) : [];
  }

  private unindex(op: OutboxOp | undefined): void {
    for (const binding of op?.bindings ?? []) {
      const waiting = this.waitingFor.get(binding.fromOp);
      waiting?.delete(op!.id);
      if (waiting?.size === 0) this.waitingFor.delete(binding.fromOp);
    }
  }
}
