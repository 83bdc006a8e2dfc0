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

export async function writePage(db: FieldbookDb, page: SyncPageEvent, options: PageWriteOptions = {}): Promise<PageWriteResult> {
  const collection = page.collection;
  const table = db.table(collection) as Table<AnyRecord, string | number>;
  // derived as the cache stores them, so an unchanged record compares equal
  const { records, keys } = lastPerKey(collection, withDerivedFields(collection, page.records as readonly AnyRecord[]));
  let rowsWritten = 0;
  await db.transaction('rw', [table, db.syncCheckpoints], async () => {
    if (records.length > 0) {
      const toWrite = options.knownEmpty ? records : changedRecords(records, await table.bulkGet(keys));
      if (toWrite.length > 0) await table.bulkPut(toWrite);
      rowsWritten = toWrite.length;
    }
    await db.syncCheckpoints.put({ ...page.checkpoint });
  });
  return { rowsWritten, keys };
}
