/**
 * The outbox's unsent ops, held in the database's memory (memory.ts), so every view query
 * overlays them without an IndexedDB read (a read per query cost more than the
 * query itself); dropped on any write to the outbox (see table-memo.ts). Views
 * re-run their queries on the outbox's version (`usePendingVersion`).
 */
import type { OutboxOp } from '../../shared/outbox.ts';
import { withPackedSliced } from '../../shared/replay-queue/packs.ts';
import type { OutboxDb } from '../../shared/replay-queue/db.ts';
import { tableMemo } from '../db/table-memo.ts';
import type { DatabaseMemory } from '../db/memory.ts';
import { packsAsStored } from './known-packs.ts';

type OutboxSource = Pick<OutboxDb, 'backendDB' | 'open' | 'isOpen'> & { memory: DatabaseMemory };

/** The status index's ranges of the ops not done, in the order the memo lists them. */
const UNSENT = () => [IDBKeyRange.upperBound('done', true), IDBKeyRange.lowerBound('done', true)];

/**
 * The unsent ops, a record at a time through IndexedDB's own cursor, in one read transaction: 100,000 ops read at once
 * held the window for over a second. Not through Dexie: read inside a view's live query, Dexie noted every op's key
 * for the live query (a tree of 100,000 keys: 4 s of the profiler's samples in the import bench at a load of 15) and
 * ran its promise machinery per record; the views follow the outbox by its version, not by what they read.
 */
async function readUnsent(db: OutboxSource): Promise<OutboxOp[]> {
  // always: Dexie reports itself open while its upgrade transaction still runs, and a read then is refused
  await db.open();
  const read = db.backendDB().transaction(['outbox', 'outboxPacks'], 'readonly');
  const index = read.objectStore('outbox').index('status');
  const [packs, before, after] = await Promise.all([
    // the packs this window holds are not read again (known-packs.ts: a batch just queued is held as committed)
    packsAsStored(read.objectStore('outboxPacks'), db.memory),
    ...UNSENT().map((range) => cursorValues<OutboxOp>(index, range)),
  ]);
  const unsent = [...before!, ...after!];
  if (packs.length === 0) return unsent;
  // a packed op whose id a done record holds (a pack and its ops both stored) is done
  const done = await keysOf(index, IDBKeyRange.only('done'));
  return withPackedSliced(unsent, packs, done);
}

function keysOf(index: IDBIndex, range: IDBKeyRange): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const request = index.getAllKeys(range);
    request.onsuccess = () => resolve(request.result as string[]);
    request.onerror = () => reject(request.error ?? new Error('The outbox could not be read.'));
  });
}

function cursorValues<T>(index: IDBIndex, range: IDBKeyRange): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const values: T[] = [];
    const request = index.openCursor(range);
    request.onsuccess = () => {
      const cursor = request.result;
      if (!cursor) return resolve(values);
      values.push(cursor.value as T);
      cursor.continue();
    };
    request.onerror = () => reject(request.error ?? new Error('The outbox could not be read.'));
  });
}

const memo = tableMemo<OutboxSource, OutboxOp[]>(['outbox', 'outboxPacks'], readUnsent);

export const outboxMemoMiddleware = memo.middleware;

/** The ops not done yet (shared: callers must not mutate them). */
export const memoUnsentOps = memo.get;
