/**
 * Writing one streamed sync page into the cache: its records (only those that
 * changed) and its task checkpoint in ONE transaction, so a crash leaves either
 * both or neither, and a resume refetches exactly the pages not committed.
 */
import type { SyncPageEvent } from '../../shared/ipc.ts';
import { recordKey, type AnyRecord, type CollectionName } from '../../shared/records.ts';
import type { FieldbookDb } from '../db/index.ts';
import { changedRecords } from './diff.ts';
import { withDerivedFields } from '../db/derived.ts';
import type { Table } from 'dexie';

export interface PageWriteResult {
  /** records actually written (new or changed) */
  rowsWritten: number;
  /** primary keys the page delivered (for pruning after a full pass) */
  keys: (string | number)[];
}

export interface PageWriteOptions {
  /** the collection was empty when the pass began: skip the comparison read */
  knownEmpty?: boolean;
}

function keyOf(collection: CollectionName, record: AnyRecord): string | number {
  return recordKey(collection, record as never);
}

/** Removes records repeated within one page (same key): the last one wins. */
function lastPerKey(collection: CollectionName, records: readonly AnyRecord[]): { records: AnyRecord[]; keys: (string | number)[] } {
  const byKey = new Map<string | number, AnyRecord>();
  for (const r of records) byKey.set(keyOf(collection, r), r);
  return { records: [...byKey.values()], keys: [...byKey.keys()] };
}

/**
 * Numeric keys that are nearly contiguous (a page of ascending ids) are read
 * with one range request instead of one request per key; anything else is
 * read key by key. Pure.
 */
export function denseRange(keys: readonly (string | number)[]): { lower: number; upper: number } | null {
  if (keys.length < 2) return null;
  let lower = Infinity;
  let upper = -Infinity;
  for (const k of keys) {
    if (typeof k !== 'number') return null;
    if (k < lower) lower = k;
    if (k > upper) upper = k;
  }
  // at most as many cached records in range as the page brings again: the read stays bounded
  return upper - lower + 1 <= keys.length * 2 ? { lower, upper } : null;
}

async function storedAt(table: Table<AnyRecord, string | number>, collection: CollectionName, keys: (string | number)[]): Promise<(AnyRecord | undefined)[]> {
  const range = denseRange(keys);
  if (!range) return table.bulkGet(keys);
  const inRange = await table.where(':id').between(range.lower, range.upper, true, true).toArray();
  const byKey = new Map(inRange.map((r) => [keyOf(collection, r), r]));
  return keys.map((k) => byKey.get(k));
}

export async function writePage(db: FieldbookDb, page: SyncPageEvent, options: PageWriteOptions = {}): Promise<PageWriteResult> {
  const collection = page.collection;
  const table = db.table(collection) as Table<AnyRecord, string | number>;
  // derived as the cache stores them, so an unchanged record compares equal
  const { records, keys } = lastPerKey(collection, withDerivedFields(collection, page.records as readonly AnyRecord[]));
  let rowsWritten = 0;
  await db.transaction('rw', [table, db.syncCheckpoints], async () => {
    if (records.length > 0) {
      const toWrite = options.knownEmpty ? records : changedRecords(records, await storedAt(table, collection, keys));
      if (toWrite.length > 0) await table.bulkPut(toWrite);
      rowsWritten = toWrite.length;
    }
    await db.syncCheckpoints.put({ ...page.checkpoint });
  });
  return { rowsWritten, keys };
}
