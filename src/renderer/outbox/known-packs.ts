/**
 * The outbox's packs (shared/replay-queue/packs.ts) as this window holds them, in its database's memory: the views'
 * copy of the unsent ops (ops-memo.ts) reads only the packs it does not hold. A batch just queued packed is held as
 * committed, from the records its transaction stored: read back, 100,000 ops were 95 MB made in the window
 * (the import bench's allocations) for a copy of what the window already held.
 *
 * Sound because a pack is never changed once stored: it is added whole, in its batch's transaction, and only ever
 * deleted (unpacked). A pack held is taken as stored while the store holds a pack of its batch at its position: a
 * batch never gains a pack after its transaction, so that pack is the one held, and a position taken since by another
 * batch's pack is read again. (Counting a batch's packs instead was not enough: a delete let go of at once and then
 * aborted leaves a batch with fewer packs held than stored, and a reused position then counted even.)
 */
import type { DBCore, DBCoreMutateRequest, Middleware } from 'dexie';
import type { OutboxPack } from '../../shared/outbox.ts';
import type { DatabaseMemory, MemoryPart } from '../db/memory.ts';

/** The packs held, by their first op's queue position. */
type Held = Map<number, OutboxPack>;

const heldPart: MemoryPart<Held> = { make: () => new Map() };

/** Held from the records a committed transaction added; a pack deleted (or written otherwise) is let go of at once. */
function noteWrite(memory: DatabaseMemory, req: DBCoreMutateRequest): void {
  const held = memory.part(heldPart);
  if (req.type === 'add') {
    const packs = req.values as readonly OutboxPack[];
    // the transaction of IndexedDB's Dexie core: held once it has committed (an aborted batch is never held)
    const trans = req.trans as unknown as Partial<Pick<IDBTransaction, 'addEventListener'>>;
    trans.addEventListener?.('complete', () => {
      for (const pack of packs) held.set(pack.first, pack);
    });
  } else if (req.type === 'delete') for (const first of req.keys as readonly number[]) held.delete(first);
  else held.clear();
}

/** Install on every instance of the database (db.use), with the memory they share. */
export function knownPacksMiddleware(memory: DatabaseMemory): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'knownPacks',
    create: (down) => ({
      ...down,
      table(name) {
        const inner = down.table(name);
        if (name !== 'outboxPacks') return inner;
        return {
          ...inner,
          mutate: (req) => {
            noteWrite(memory, req);
            return inner.mutate(req);
          },
        };
      },
    }),
  };
}

function answer<T>(request: IDBRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result as T);
    request.onerror = () => reject(request.error ?? new Error('The outbox could not be read.'));
  });
}

/**
 * Lets go of the held packs the store no longer holds at their position for their batch: gone, or the position taken
 * by another batch's pack (positions are reused once a batch's last ops leave). One answer per batch held.
 */
async function dropStale(store: IDBObjectStore, held: Held, firsts: readonly number[]): Promise<void> {
  const present = new Set(firsts);
  const byBatch = new Map<string, number[]>();
  for (const [first, pack] of held) {
    if (!present.has(first)) held.delete(first);
    else {
      const positions = byBatch.get(pack.batchId);
      if (positions) positions.push(first);
      else byBatch.set(pack.batchId, [first]);
    }
  }
  const batches = [...byBatch];
  const stored = await Promise.all(
    batches.map(([batchId]) => answer<number[]>(store.index('batchId').getAllKeys(batchId))),
  );
  batches.forEach(([, positions], i) => {
    const ofBatch = new Set(stored[i]);
    for (const first of positions) if (!ofBatch.has(first)) held.delete(first);
  });
}

/**
 * The packs the store holds, in queue order: those held in memory as they are, the others read (one an answer) and
 * held from then on. Call inside a read transaction over the packs (`store` is its store of them).
 */
export async function packsAsStored(store: IDBObjectStore, memory: DatabaseMemory): Promise<OutboxPack[]> {
  const held = memory.part(heldPart);
  const firsts = await answer<number[]>(store.getAllKeys());
  await dropStale(store, held, firsts);
  const unknown = firsts.filter((first) => !held.has(first));
  const read = await Promise.all(unknown.map((first) => answer<OutboxPack | undefined>(store.get(first))));
  for (const pack of read) if (pack) held.set(pack.first, pack);
  return firsts.flatMap((first) => held.get(first) ?? []);
}
