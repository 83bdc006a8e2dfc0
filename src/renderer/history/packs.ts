/**
 * The people's rows are kept packed (database version 9): a sync's rows of the people of one bucket (userid modulo
 * PACK_BUCKETS) as one deflated JSON array, since rows written once and read a day at a time compress some five
 * times together and hardly at all alone. A sync of few rows (a small site's day) goes into the open pack, one for
 * every bucket that takes the next syncs' rows until it is full (`appendRows`). A day's rebuild, the export and the
 * horizon read every pack begun by a sync; a person's page reads the packs of their bucket and the shared ones.
 * fflate's synchronous deflate (already the XLSX writer's): the rows are made inside the day's transaction, which
 * an awaited CompressionStream would end (IndexedDB commits a transaction that has no request pending), and it runs
 * under the app's CSP.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import type { FieldbookDb } from '../db/rows.ts';
import type { HistoryPackRow, HistoryPersonRow } from './rows.ts';

/** How many packs a sync's rows are split into, by userid: a person's page reads one in this many. */
export const PACK_BUCKETS = 16;
/**
 * A sync with fewer rows than this is one pack of every bucket (`EVERY_BUCKET`): a row or two deflated alone take
 * more than their text.
 */
export const ONE_PACK_BELOW = 32 * PACK_BUCKETS;
export const EVERY_BUCKET = -1;

export const bucketOf = (userid: number): number => ((userid % PACK_BUCKETS) + PACK_BUCKETS) % PACK_BUCKETS;

/** A row as a pack keeps it: its sync is the pack's, or (a pack of several syncs) what its sync's first row names. */
type PackedRow = Omit<HistoryPersonRow, 'id' | 'seq'> & { seq?: number };

/**
 * The open pack is full, and the next sync's rows start another, from this many rows or this many bytes stored:
 * a person's page reads a few hundred rows of others at most, and a day's append deflates a few pages of text.
 */
export const OPEN_PACK_ROWS = ONE_PACK_BELOW;
export const OPEN_PACK_BYTES = 16 * 1024;

const deflated = (rows: readonly PackedRow[]) => deflateSync(strToU8(JSON.stringify(rows)));
const inflated = (pack: HistoryPackRow) => JSON.parse(strFromU8(inflateSync(pack.rows))) as PackedRow[];

/**
 * A sync's rows (of any people) as the packs to store, each in the order given: one a bucket that has rows, or one
 * for every bucket when they are few.
 */
export function packRows(rows: readonly PackedRow[], seq: number): HistoryPackRow[] {
  const buckets = new Map<number, PackedRow[]>();
  for (const { userid, ...row } of rows) {
    const bucket = rows.length < ONE_PACK_BELOW ? EVERY_BUCKET : bucketOf(userid);
    const inBucket = buckets.get(bucket) ?? [];
    inBucket.push({ userid, ...row });
    buckets.set(bucket, inBucket);
  }
  return [...buckets]
    .sort(([a], [b]) => a - b)
    .map(([bucket, inBucket]) => ({ seq, bucket, rows: deflated(inBucket) }));
}

/** A pack's rows, each with its sync: the pack's, until a row names the next one (rows are kept in sync order). */
export function unpack(pack: HistoryPackRow): HistoryPersonRow[] {
  let seq = pack.seq;
  return inflated(pack).map((row) => {
    seq = row.seq ?? seq;
    return { ...row, seq };
  });
}

/** The open pack with a sync's few rows added, the first naming their sync; null when it is full or there is none. */
function withRows(open: HistoryPackRow | undefined, rows: readonly PackedRow[], seq: number) {
  if (open?.bucket !== EVERY_BUCKET || open.rows.byteLength >= OPEN_PACK_BYTES) return null;
  const held = inflated(open);
  if (held.length + rows.length >= OPEN_PACK_ROWS) return null;
  return { ...open, rows: deflated([...held, ...rows.map((row, i) => (i === 0 ? { ...row, seq } : row))]) };
}

/**
 * Stores a sync's rows (inside the day's transaction): few, into the open pack (the last one, for every bucket,
 * while not full) or a new one that is then open; many, packed by bucket.
 */
export async function appendRows(db: FieldbookDb, rows: readonly PackedRow[], seq: number): Promise<void> {
  const packs = packRows(rows, seq);
  if (packs.length !== 1 || packs[0]!.bucket !== EVERY_BUCKET) {
    await db.historyPacks.bulkAdd(packs);
    return;
  }
  const open = withRows(await db.historyPacks.orderBy(':id').last(), rows, seq);
  await (open ? db.historyPacks.put(open) : db.historyPacks.add(packs[0]!));
}

/**
 * The rows of the packs (those up to a sync, `upTo`, its seq), in the order written (by sync, then by person: a sync
 * writes a person once), each with an `id` in that order.
 */
export function unpackAll(packs: readonly HistoryPackRow[], upTo?: number): HistoryPersonRow[] {
  return packs
    .flatMap(unpack)
    .filter((row) => upTo === undefined || row.seq <= upTo)
    .sort((a, b) => a.seq - b.seq || a.userid - b.userid)
    .map((row, i) => ({ ...row, id: i + 1 }));
}

/** The people's rows of the history: all, those up to a sync (`upTo`, its seq), or one person's (`userid`). */
export async function readPeopleRows(
  db: FieldbookDb,
  which: { upTo?: number; userid?: number } = {},
): Promise<HistoryPersonRow[]> {
  const { upTo, userid } = which;
  if (userid !== undefined) {
    const packs = await db.historyPacks
      .where('bucket')
      .anyOf([bucketOf(userid), EVERY_BUCKET])
      .toArray();
    return unpackAll(packs, upTo).filter((r) => r.userid === userid);
  }
  // a pack's seq is its first sync's: one holding several holds later rows too
  if (upTo !== undefined)
    return unpackAll(await db.historyPacks.where('seq').belowOrEqual(upTo).toArray(), upTo);
  return unpackAll(await db.historyPacks.toArray());
}
