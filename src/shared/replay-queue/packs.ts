/**
 * A large batch stored packed: its ops some hundred to a record in a table of their own (`outboxPacks`), since the
 * browser's IndexedDB pays some 200–260 µs of CPU per record stored whatever it holds (docs/benchmarks.md). The rules
 * that keep every op exactly once (docs/decisions/scale.md, "Queueing 100,000 ops: a large batch stored packed"):
 *
 * - a pack holds its ops exactly as queued (pending, never tried): the first write of any of them (the engine's
 *   outcome, a discard, an edit) unpacks the pack in that write's own transaction, before the write; a discard that
 *   takes every op of a pack deletes it whole instead (`leavePacks`), in the same one transaction;
 * - unpacking adds the pack's ops that the outbox does not hold and deletes the pack, in one transaction: an op the
 *   outbox holds already (written by the engine) is kept as it is;
 * - every reader of the outbox reads the packs as ops through `withPacked`, which drops a packed op whose id the
 *   outbox holds, so a pack and its ops both stored (which one transaction per unpacking rules out) still yield each
 *   op once.
 */
import type { OutboxOp, OutboxPack } from '../outbox.ts';
import type { OutboxDb } from './db.ts';
import { forEachSliced } from '../sliced.ts';

/** Ops to a record: ten to a record cost the browser 7.6 times less than one, a hundred still less. */
export const PACK_SIZE = 100;

/** The ops (numbered, in queue order) as packs of PACK_SIZE. */
export function packsOf(ops: readonly OutboxOp[]): OutboxPack[] {
  const packs: OutboxPack[] = [];
  for (let at = 0; at < ops.length; at += PACK_SIZE) {
    const slice = ops.slice(at, at + PACK_SIZE);
    packs.push({
      first: slice[0]!.seq,
      last: slice[slice.length - 1]!.seq,
      batchId: slice[0]!.batchId,
      ops: slice,
    });
  }
  return packs;
}

/**
 * THE reading of packs as ops: the ops a reader read from the outbox table, then the packed ops, except those whose id
 * the outbox holds (`stored`, or `alsoStored`: ids the reader's range left out, such as the done ops).
 */
export function withPacked(
  stored: readonly OutboxOp[],
  packs: readonly OutboxPack[],
  alsoStored: Iterable<string> = [],
): OutboxOp[] {
  const out = [...stored];
  if (packs.length === 0) return out;
  const add = packedAdder(out, alsoStored);
  for (const pack of packs) add(pack);
  return out;
}

/**
 * `withPacked` a slice of packs at a time, yielding between slices: the views' copy of 100,000 packed ops made in one
 * go was a task of 73 ms (the import bench's profile). Not inside a Dexie transaction (it yields to the event loop).
 */
export async function withPackedSliced(
  stored: readonly OutboxOp[],
  packs: readonly OutboxPack[],
  alsoStored: Iterable<string> = [],
): Promise<OutboxOp[]> {
  const out = [...stored];
  if (packs.length === 0) return out;
  const add = packedAdder(out, alsoStored);
  await forEachSliced(packs.length, (i) => add(packs[i]!));
  return out;
}

/** Adds a pack's ops to `out` (the records read), but those whose id the outbox holds. */
function packedAdder(out: OutboxOp[], alsoStored: Iterable<string>): (pack: OutboxPack) => void {
  const present = new Set(alsoStored);
  for (const op of out) present.add(op.id);
  return (pack) => {
    for (const op of pack.ops) if (!present.has(op.id)) out.push(op);
  };
}

/**
 * Packs a request: Chromium's cursor prefetches many records into one answer (a task of 400 ms on 100,000 packed ops),
 * so the packs are read in pages by key, two packs (200 ops) an answer, as the import's results read 250 ops a page.
 */
export const PACKS_PAGE = 2;

/** The packs, a page at a time by key. Call inside a transaction over the packs (one snapshot). */
export async function readPacks(db: OutboxDb): Promise<OutboxPack[]> {
  const packs: OutboxPack[] = [];
  for (;;) {
    const after = packs.at(-1)?.first;
    const range =
      after === undefined ? db.outboxPacks.toCollection() : db.outboxPacks.where('first').above(after);
    const page = await range.limit(PACKS_PAGE).toArray();
    packs.push(...page);
    if (page.length < PACKS_PAGE) return packs;
  }
}

/**
 * How many ops the packs hold (every packed op is pending: counts of the ops to send add these), from their keys: a
 * pack holds the consecutive queue positions first to last, and the packs never overlap, so both lists are in one
 * order.
 */
export async function countPacked(db: OutboxDb): Promise<number> {
  const [firsts, lasts] = await Promise.all([
    db.outboxPacks.orderBy('first').primaryKeys(),
    db.outboxPacks.orderBy('last').keys(),
  ]);
  return firsts.reduce<number>((n, first, i) => n + Number(lasts[i]) - first + 1, 0);
}

/** The pack holding this op, if it is packed. Call inside a transaction over the packs. */
async function packHolding(db: OutboxDb, op: Pick<OutboxOp, 'id' | 'seq'>): Promise<OutboxPack | undefined> {
  const pack = await db.outboxPacks.where('first').belowOrEqual(op.seq).last();
  return pack && pack.last >= op.seq && pack.ops.some((o) => o.id === op.id) ? pack : undefined;
}

/**
 * Unpacks the packs holding any of these ops, before a write of them, inside the writer's transaction (over the outbox
 * and the packs): each pack's ops the outbox does not hold are added, and the pack deleted.
 */
export async function unpackHolding(
  db: OutboxDb,
  ops: readonly Pick<OutboxOp, 'id' | 'seq'>[],
): Promise<void> {
  if (ops.length === 0 || (await db.outboxPacks.count()) === 0) return;
  const done = new Set<number>();
  for (const op of ops) {
    const pack = await packHolding(db, op);
    if (!pack || done.has(pack.first)) continue;
    done.add(pack.first);
    await unpack(db, pack);
  }
}

/** Adds the pack's ops the outbox does not hold, and deletes the pack. Inside a transaction over both. */
async function unpack(db: OutboxDb, pack: OutboxPack): Promise<void> {
  const held = await db.outbox.bulkGet(pack.ops.map((o) => o.id));
  await db.outbox.bulkAdd(pack.ops.filter((_, i) => held[i] === undefined));
  await db.outboxPacks.delete(pack.first);
}

/**
 * Before a discard deletes `gone`, inside its transaction over the outbox and the packs (`packs`: every pack, as the
 * discard read them): a pack whose every op goes is deleted whole, none of its ops ever stored (a batch's discard
 * otherwise added 100,000 records only to delete them); a pack some of whose ops stay is unpacked. Returns the ids
 * the discard deletes from the outbox: those it held (`stored`) or just unpacked, not those gone with their pack.
 */
export async function leavePacks(
  db: OutboxDb,
  packs: readonly OutboxPack[],
  stored: ReadonlySet<string>,
  gone: readonly OutboxOp[],
): Promise<string[]> {
  const goneIds = new Set(gone.map((op) => op.id));
  const records = new Set(stored);
  const whole: number[] = [];
  for (const pack of packs) {
    const going = pack.ops.filter((op) => goneIds.has(op.id)).length;
    if (going === pack.ops.length) whole.push(pack.first);
    else if (going > 0) {
      await unpack(db, pack);
      for (const op of pack.ops) records.add(op.id);
    }
  }
  await db.outboxPacks.bulkDelete(whole);
  return gone.filter((op) => records.has(op.id)).map((op) => op.id);
}

/** The ops still to send or to look at (not done), packed or not: the Outbox's counts. */
export async function countUnsent(db: OutboxDb): Promise<number> {
  return db.transaction('r', db.outbox, db.outboxPacks, async () => {
    const stored = (await db.outbox.count()) - (await db.outbox.where('status').equals('done').count());
    return stored + (await countPacked(db));
  });
}

/** Every op of the outbox that `keep` keeps, packed or not, in one transaction (the Outbox's list, a batch's ops). */
export async function outboxOps(
  db: OutboxDb,
  keep: (op: OutboxOp) => boolean = () => true,
): Promise<OutboxOp[]> {
  return db.transaction('r', db.outbox, db.outboxPacks, async () =>
    withPacked(await db.outbox.toArray(), await readPacks(db)).filter(keep),
  );
}
