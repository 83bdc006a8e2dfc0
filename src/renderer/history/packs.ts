/**
 * The people's rows are kept packed (database version 9): a sync's rows of the people of one bucket (userid modulo
 * PACK_BUCKETS) as one deflated JSON array (a sync of few rows: one pack), since rows written once and read a day
 * at a time compress some five times together and hardly at all alone. A day's rebuild, the export and the horizon
 * read every pack up to a sync; a person's page reads the packs of their bucket and the shared ones only. fflate's
 * synchronous deflate (already the XLSX writer's): the rows are made inside the day's transaction, which an awaited
 * CompressionStream would end (IndexedDB commits a transaction that has no request pending), and it runs under the
 * app's CSP.
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

type PackedRow = Omit<HistoryPersonRow, 'id' | 'seq'>;

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
    .map(([bucket, inBucket]) => ({ seq, bucket, rows: deflateSync(strToU8(JSON.stringify(inBucket))) }));
}

/** A pack's rows, each with its sync. */
export function unpack(pack: HistoryPackRow): HistoryPersonRow[] {
  const rows = JSON.parse(strFromU8(inflateSync(pack.rows))) as PackedRow[];
  return rows.map((row) => ({ seq: pack.seq, ...row }));
}

/**
 * The rows of the packs, in the order written (by sync, then by person: a sync writes a person once), each with an
 * `id` in that order.
 */
export function unpackAll(packs: readonly HistoryPackRow[]): HistoryPersonRow[] {
  return packs
    .flatMap(unpack)
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
    return unpackAll(packs.filter((p) => upTo === undefined || p.seq <= upTo)).filter(
      (r) => r.userid === userid,
    );
  }
  if (upTo !== undefined) return unpackAll(await db.historyPacks.where('seq').belowOrEqual(upTo).toArray());
  return unpackAll(await db.historyPacks.toArray());
}
