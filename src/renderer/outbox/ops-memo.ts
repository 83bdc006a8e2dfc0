/**
 * The outbox's unsent ops, held in memory per database, so every view query
 * overlays them without an IndexedDB read (a read per query cost more than the
 * query itself); dropped on any write to the outbox (see table-memo.ts). Views
 * re-run their queries on the outbox's version (`usePendingVersion`).
 */
import type { OutboxOp } from '../../shared/outbox.ts';
import { tableMemo } from '../db/table-memo.ts';

interface OutboxSource {
  name: string;
  outbox: { where(index: 'status'): { noneOf(values: string[]): { toArray(): Promise<OutboxOp[]> } } };
}

const memo = tableMemo<OutboxSource, OutboxOp[]>('outbox', (db) => db.outbox.where('status').noneOf(['done']).toArray());

export const outboxMemoMiddleware = memo.middleware;

/** The ops not done yet (shared: callers must not mutate them). */
export const memoUnsentOps = memo.get;
