/**
 * Writing one streamed sync page into the cache: its records (only those that
 * changed) and its task checkpoint in ONE transaction, so a crash leaves either
 * both or neither, and a resume refetches exactly the pages not committed.
 */
import type { SyncPageEvent, SyncRecordsEvent, TaskCheckpoint } from '../../shared/ipc.ts';
import { recordKey, type AnyRecord, type CollectionName } from '../../shared/records.ts';
import type { FieldbookDb } from '../db/index.ts';
import { changedRecords } from './diff.ts';
import { pageChanges, TRACKED, type ChangeEntry } from './changes.ts';
import { withDerivedFields } from '../db/derived.ts';
import type { Table } from 'dexie';
import { markSyncTransaction, type FingerprintWrite } from './fingerprints.ts';
import { removeUnlistedEmails } from './emails.ts';

export interface PageWriteResult {
  /** records actually written (new or changed) */
  rowsWritten: number;
  /**
   * of those, records whose key the cache did not hold before (the pass's bookkeeping of table sizes: sizes.ts); with
   * `knownEmpty`, all of them
   */
  inserted: number;
  /** primary keys the page delivered (for pruning after a full pass) */
  keys: (string | number)[];
  /** what the page changed, in the change log's terms (only when asked: not on a profile's first sync) */
  changes: ChangeEntry[];
  /** e-mails of the page's users their items no longer list, removed (emails.ts) */
  emailsRemoved?: number;
}

export interface PageWriteOptions {
  /** the collection was empty when the pass began: skip the comparison read */
  knownEmpty?: boolean;
  /** record what the page changes (from the comparison made anyway) */
  track?: boolean;
  /** the page's fingerprint row, put or deleted with the records (see fingerprints.ts) */
  fingerprint?: FingerprintWrite;
  /**
   * e-mails were empty when the pass began: the pass wrote every one there is, as listed (no unlisted one to look for)
   */
  emailsKnownEmpty?: boolean;
}

function keyOf(collection: CollectionName, record: AnyRecord): string | number {
  return recordKey(collection, record as never);
}

/** Removes records repeated within one page (same key): the last one wins. */
function lastPerKey(
  collection: CollectionName,
  records: readonly AnyRecord[],
): { records: AnyRecord[]; keys: (string | number)[] } {
  const byKey = new Map<string | number, AnyRecord>();
  for (const r of records) byKey.set(keyOf(collection, r), r);
  return { records: [...byKey.values()], keys: [...byKey.keys()] };
}

/** The smallest and largest key of a page, when all keys are of one type (pure). */
export function keyBounds(
  keys: readonly (string | number)[],
): { lower: string | number; upper: string | number } | null {
  if (keys.length < 2) return null;
  const kind = typeof keys[0];
  let lower = keys[0]!;
  let upper = keys[0]!;
  for (const k of keys) {
    if (typeof k !== kind) return null;
    if (k < lower) lower = k;
    if (k > upper) upper = k;
  }
  return { lower, upper };
}

/**
 * Numeric keys that are nearly contiguous (a page of ascending ids) are read
 * with one range request instead of one request per key (pure).
 */
export function denseRange(keys: readonly (string | number)[]): { lower: number; upper: number } | null {
  const bounds = keyBounds(keys);
  if (!bounds || typeof bounds.lower !== 'number' || typeof bounds.upper !== 'number') return null;
  // at most as many cached records in range as the page brings again: the read stays bounded
  return bounds.upper - bounds.lower + 1 <= keys.length * 2
    ? { lower: bounds.lower, upper: bounds.upper }
    : null;
}

/**
 * Fewer keys than this are read one by one without counting their range first:
 * a few changed records of a page (a resync) span the page's whole range, so
 * the count would only cost a scan of it.
 */
const RANGE_COUNT_MIN_KEYS = 64;

/**
 * The cached copies of a page's records. One range read when the range is known
 * to hold few more records than the page (numeric ids by arithmetic; composite
 * string ids such as "<credentialid>-<userid>", which sort together per task, by
 * counting first, for pages of many keys), else one read per key.
 */
async function storedAt(
  table: Table<AnyRecord, string | number>,
  collection: CollectionName,
  keys: (string | number)[],
): Promise<(AnyRecord | undefined)[]> {
  let inRange: AnyRecord[] | null = null;
  const dense = denseRange(keys);
  const bounds = keyBounds(keys);
  if (dense) inRange = await table.where(':id').between(dense.lower, dense.upper, true, true).toArray();
  else if (bounds && typeof bounds.lower === 'string' && keys.length >= RANGE_COUNT_MIN_KEYS) {
    const range = table.where(':id').between(bounds.lower, bounds.upper, true, true);
    if ((await range.count()) <= keys.length * 2) inRange = await range.toArray();
  }
  if (!inRange) return table.bulkGet(keys);
  const byKey = new Map(inRange.map((r) => [keyOf(collection, r), r]));
  return keys.map((k) => byKey.get(k));
}

/** One message of a page to write, and how. */
export interface PageWrite {
  page: SyncRecordsEvent;
  options?: PageWriteOptions;
}

/**
 * Writes one message of a page: its records (those that changed), its
 * fingerprint row and its checkpoint, in one transaction. Records the message
 * does not carry because the cache holds them (`unchangedKeys`) count as
 * delivered.
 */
export async function writePage(
  db: FieldbookDb,
  page: SyncRecordsEvent,
  options: PageWriteOptions = {},
): Promise<PageWriteResult> {
  return (await writePages(db, [{ page, options }]))[0]!;
}

/**
 * Writes messages in order in ONE transaction, each as writePage does, then
 * `checkpointsAfter`: all of them or none (a group fails as one, and none of
 * it is acknowledged). Pages that wait to be written together cost one
 * transaction: Chromium's IndexedDB keeps an undo log for every transaction
 * that writes and deletes it after the commit, a task that takes tens of
 * milliseconds on a large cache (its own clean-up of earlier logs), whatever
 * the transaction held.
 */
export async function writePages(
  db: FieldbookDb,
  writes: readonly PageWrite[],
  checkpointsAfter: readonly TaskCheckpoint[] = [],
): Promise<PageWriteResult[]> {
  const tables = new Set<Table>([db.syncCheckpoints, db.pageFingerprints]);
  for (const { page } of writes) {
    tables.add(db.table(page.collection));
    if (listsEmails(page)) tables.add(db.emails);
  }
  return db.transaction('rw', [...tables], async () => {
    markSyncTransaction(db);
    const results: PageWriteResult[] = [];
    // in order: a later message of a task sees what an earlier one wrote (its checkpoint, a record both hold)
    for (const { page, options } of writes) results.push(await writeInTransaction(db, page, options ?? {}));
    // unchanged pages' checkpoints ride along (fingerprints.ts, takeDeferred): last, so each is the latest of its task
    if (checkpointsAfter.length > 0)
      await db.syncCheckpoints.bulkPut(checkpointsAfter.map((c) => ({ ...c })));
    return results;
  });
}

async function writeInTransaction(
  db: FieldbookDb,
  page: SyncRecordsEvent,
  options: PageWriteOptions,
): Promise<PageWriteResult> {
  const collection = page.collection;
  const table = db.table(collection) as Table<AnyRecord, string | number>;
  // derived as the cache stores them, so an unchanged record compares equal
  const { records, keys } = lastPerKey(
    collection,
    withDerivedFields(collection, page.records as readonly AnyRecord[]),
  );
  let rowsWritten = 0;
  let inserted = 0;
  let changes: ChangeEntry[] = [];
  const track = options.track === true && TRACKED.has(collection);
  const fingerprint = options.fingerprint;
  if (fingerprint && 'put' in fingerprint) await db.pageFingerprints.put(fingerprint.put);
  else if (fingerprint) await db.pageFingerprints.delete(fingerprint.drop);
  if (records.length > 0) {
    const stored = options.knownEmpty ? [] : await storedAt(table, collection, keys);
    const toWrite = options.knownEmpty ? records : changedRecords(records, stored);
    if (track) changes = pageChanges(collection, records, stored);
    if (toWrite.length > 0) await table.bulkPut(toWrite);
    rowsWritten = toWrite.length;
    inserted = options.knownEmpty
      ? records.length
      : stored.reduce((n, r) => (r === undefined ? n + 1 : n), 0);
  }
  const emailsRemoved =
    listsEmails(page) && !options.emailsKnownEmpty ? await removeUnlistedEmails(db, page.emailsListed!) : 0;
  await db.syncCheckpoints.put({ ...page.checkpoint });
  // the records it holds as they are count as delivered too (they are not read: nothing to compare)
  return {
    rowsWritten,
    inserted,
    keys: page.unchangedKeys ? [...keys, ...page.unchangedKeys] : keys,
    changes,
    ...(emailsRemoved > 0 ? { emailsRemoved } : {}),
  };
}

/** A message of users that lists their e-mails: its write removes those no longer listed (emails.ts). */
export function listsEmails(page: SyncPageEvent): page is Extract<SyncRecordsEvent, { collection: 'users' }> {
  return page.kind === 'records' && page.collection === 'users' && (page.emailsListed?.length ?? 0) > 0;
}
