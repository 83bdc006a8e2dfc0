/**
 * The ops an import queued, read back for its results. A batch's ops hold
 * consecutive queue positions (enqueueOps numbers them in one transaction), so
 * they are read by position a page at a time: one answer a page, where a read
 * by id is one request and one answer an op (100,000 of them for a large file).
 * An op of the batch not found there (none is moved today) is read by its id.
 *
 * The first count after queueing reads nothing back: the records as stored
 * answer it, as long as the outbox has not changed since (its version has not
 * moved); they serve once, and are let go of then.
 */
import type { OutboxOp, OutboxPack } from '../../../shared/outbox.ts';
import type { OutboxDb } from '../../../shared/replay-queue/db.ts';
import { forEachSliced, type Slicing } from '../../../shared/sliced.ts';
import { PACKS_PAGE, withPacked } from '../../../shared/replay-queue/packs.ts';

/**
 * Ops a page: the structured clone of a page's ops is one task of the window (2,000 made tasks of 100 ms on a
 * busy laptop).
 */
const PAGE = 250;

/** The batch as enqueueOps stored it, and the outbox's version at that moment. */
interface StoredBatch {
  ops: readonly OutboxOp[];
  version: number;
}

/** Each run's batch as stored, until it has served (or been passed over): one count's worth, then let go of. */
const storedBatches = new WeakMap<object, StoredBatch>();

/**
 * The batch just stored for `run` (enqueueOps' records) and the outbox's version then: the next read of the run's
 * ops takes them from memory if the outbox has not changed since.
 */
export function keepStoredBatch(run: object, ops: readonly OutboxOp[], version: number): void {
  storedBatches.set(run, { ops, version });
}

/** What a run's ops are read back through: the outbox, its version now and the run's ids and positions. */
export interface RunSource {
  db: Pick<OutboxDb, 'outbox' | 'outboxPacks'>;
  version: number;
}

/**
 * A queued run's ops still in the outbox, by id: the batch as stored when the outbox has not moved since it was kept
 * (the first count after queueing: 100,000 records read back were seconds of the window's work), read back otherwise.
 * The ids are gathered a slice at a time (100,000 of them at once were a long task).
 */
export async function runOps(
  source: RunSource,
  run: { opsByRow: ReadonlyMap<number, readonly string[]>; seqs?: BatchSeqs },
  slicing: Slicing = {},
): Promise<Map<string, OutboxOp>> {
  const stored = storedBatches.get(run);
  storedBatches.delete(run);
  if (stored && stored.version === source.version) {
    const byId = new Map<string, OutboxOp>();
    await forEachSliced(stored.ops.length, (i) => byId.set(stored.ops[i]!.id, stored.ops[i]!), slicing);
    return byId;
  }
  const lists = [...run.opsByRow.values()];
  const ids: string[] = [];
  await forEachSliced(
    lists.length,
    (i) => {
      for (const id of lists[i]!) ids.push(id);
    },
    slicing,
  );
  return batchOps(source.db, ids, run.seqs, slicing);
}

/** The packs of the batch's positions, PACKS_PAGE an answer by key (packs.ts: a cursor answers with many at once). */
async function packsOfBatch(db: Pick<OutboxDb, 'outboxPacks'>, seqs: BatchSeqs): Promise<OutboxPack[]> {
  const packs: OutboxPack[] = [];
  for (let from = seqs.first; ;) {
    const page = await db.outboxPacks
      .where('first')
      .between(from, seqs.last, true, true)
      .limit(PACKS_PAGE)
      .toArray();
    packs.push(...page);
    if (page.length < PACKS_PAGE) return packs;
    from = page[page.length - 1]!.first + 1;
  }
}

/** The batch's queue positions, first and last. */
export interface BatchSeqs {
  first: number;
  last: number;
}

/**
 * The ops of `ids` still in the outbox, by id; `seqs`: where the batch was queued. The ids are gone through a slice at
 * a time (`slicing`: how): a set of 100,000 made in one go held the window for over 50 ms.
 */
export async function batchOps(
  db: Pick<OutboxDb, 'outbox' | 'outboxPacks'>,
  ids: readonly string[],
  seqs: BatchSeqs | undefined,
  slicing: Slicing = {},
): Promise<Map<string, OutboxOp>> {
  const wanted = new Set<string>();
  await forEachSliced(ids.length, (i) => wanted.add(ids[i]!), slicing);
  const found = new Map<string, OutboxOp>();
  // the packs first: an op unpacked after this read is found by the outbox's read below, which then wins
  const packs = seqs ? await packsOfBatch(db, seqs) : [];
  for (let from = seqs?.first ?? Infinity; seqs && from <= seqs.last;) {
    const page = await db.outbox.where('seq').between(from, seqs.last, true, true).limit(PAGE).toArray();
    for (const op of page) if (wanted.has(op.id)) found.set(op.id, op);
    if (page.length < PAGE) break;
    from = page[page.length - 1]!.seq + 1;
  }
  for (const op of withPacked([...found.values()], packs))
    if (wanted.has(op.id) && !found.has(op.id)) found.set(op.id, op);
  const rest: string[] = [];
  await forEachSliced(
    ids.length,
    (i) => {
      if (!found.has(ids[i]!)) rest.push(ids[i]!);
    },
    slicing,
  );
  for (let at = 0; at < rest.length; at += PAGE)
    for (const op of await db.outbox.bulkGet(rest.slice(at, at + PAGE))) if (op) found.set(op.id, op);
  return found;
}
