/**
 * The outbox's unsent ops, held in the database's memory (memory.ts), so every view query
 * overlays them without an IndexedDB read (a read per query cost more than the
 * query itself); dropped on any write to the outbox (see table-memo.ts). Views
 * re-run their queries on the outbox's version (`usePendingVersion`).
 */
import type { OutboxOp } from '../../shared/outbox.ts';
import type { OutboxDb } from '../../shared/replay-queue/db.ts';
import { readRangeByCursor } from '../../shared/read-in-pages.ts';
import { tableMemo } from '../db/table-memo.ts';
import type { DatabaseMemory } from '../db/memory.ts';

type OutboxSource = Pick<OutboxDb, 'outbox' | 'transaction'> & { memory: DatabaseMemory };

// a page at a time, in one read: 100,000 ops read at once held the window for over a second
const memo = tableMemo<OutboxSource, OutboxOp[]>('outbox', (db) =>
  db.transaction('r', db.outbox, async () => {
    const [before, after] = await Promise.all([
      readRangeByCursor(db.outbox.where('status').below('done')),
      readRangeByCursor(db.outbox.where('status').above('done')),
    ]);
    return [...before, ...after];
  }),
);

export const outboxMemoMiddleware = memo.middleware;

/** The ops not done yet (shared: callers must not mutate them). */
export const memoUnsentOps = memo.get;
