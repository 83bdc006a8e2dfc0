/**
 * The ops an import queued, read back for its results. A batch's ops hold
 * consecutive queue positions (enqueueOps numbers them in one transaction), so
 * they are read by position a page at a time: one answer a page, where a read
 * by id is one request and one answer an op (100,000 of them for a large file).
 * An op of the batch not found there (none is moved today) is read by its id.
 */
import type { OutboxOp } from '../../../shared/outbox.ts';
import type { OutboxDb } from '../../../shared/replay-queue/db.ts';
import { forEachSliced, type Slicing } from '../../../shared/sliced.ts';

/**
 * Ops a page: the structured clone of a page's ops is one task of the window (2,000 made tasks of 100 ms on a
 * busy laptop).
 */
const PAGE = 250;

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
  db: Pick<OutboxDb, 'outbox'>,
  ids: readonly string[],
  seqs: BatchSeqs | undefined,
  slicing: Slicing = {},
): Promise<Map<string, OutboxOp>> {
  const wanted = new Set<string>();
  await forEachSliced(ids.length, (i) => wanted.add(ids[i]!), slicing);
  const found = new Map<string, OutboxOp>();
  for (let from = seqs?.first ?? Infinity; seqs && from <= seqs.last;) {
    const page = await db.outbox.where('seq').between(from, seqs.last, true, true).limit(PAGE).toArray();
    for (const op of page) if (wanted.has(op.id)) found.set(op.id, op);
    if (page.length < PAGE) break;
    from = page[page.length - 1]!.seq + 1;
  }
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
