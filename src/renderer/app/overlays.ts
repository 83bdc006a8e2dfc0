/**
 * Pending edits over cached records. The outbox feature registers one source
 * per kind of record: given the database, it returns the cached records that
 * queued operations touch (`before`) and the same records with the operations
 * applied, plus the records they create (`after`). Views pass their query
 * results through `applyOverlays` with what their query selects (`matches`),
 * so a queued change shows at once, marked, in every list, filter and count,
 * and disappears when the outbox row goes. Only the touched records are read:
 * a query never pays for a whole table.
 */
import type { FieldbookDb } from '../db/rows.ts';
import type { UserRecord } from '../../shared/records.ts';
import {
  COLLECTION_KEY,
  type CollectionRecord,
  type EffectiveCollection,
} from '../../shared/op-kinds/collections.ts';

export type PendingChange = 'create' | 'update' | 'delete';

/** Set by an overlay on a record that pending operations change (or create, or remove). */
export interface PendingMark {
  /** ids of the outbox operations that change this record */
  pendingOps?: string[];
  /** what they do to it overall */
  pendingChange?: PendingChange;
}

/** The record of each collection an op kind `shows` in (src/shared/op-kinds/collections.ts). */
export type OverlayRecords = CollectionRecord;
export type OverlayKind = EffectiveCollection;

/** The records queued operations touch: as cached, and as they will be. */
export interface Touched<T> {
  before: T[];
  after: (T & PendingMark)[];
}

/** The pending state of one moment: the touched records of any kind, the ops read once. */
export type PendingSnapshot = <K extends OverlayKind>(kind: K) => Promise<Touched<OverlayRecords[K]>>;

/**
 * What a query shows: one person's records only (their detail). Pending ops
 * about other people cannot change such a query, so their records are not read.
 */
export interface PendingScope {
  userid: number;
}

export type PendingSource = (db: FieldbookDb, scope?: PendingScope) => Promise<PendingSnapshot>;

let source: PendingSource | null = null;

/** The outbox registers itself here (one source: views never import the outbox). */
export function registerPendingSource(next: PendingSource): () => void {
  source = next;
  return () => {
    if (source === next) source = null;
  };
}

const NOTHING: PendingSnapshot = async () => ({ before: [], after: [] });

/**
 * Read the pending ops once, for several overlays of one query (nothing pending when no source is registered, e.g. in
 * query tests).
 */
export async function pendingSnapshot(db: FieldbookDb, scope?: PendingScope): Promise<PendingSnapshot> {
  return source ? source(db, scope) : NOTHING;
}

/** The touched records of a kind. */
export async function touchedOf<K extends OverlayKind>(
  kind: K,
  db: FieldbookDb,
): Promise<Touched<OverlayRecords[K]>> {
  return (await pendingSnapshot(db))(kind);
}

/** Is a record (as it will be) something that is still going to exist? */
function isKept(row: PendingMark): boolean {
  return row.pendingChange !== 'delete';
}

/**
 * Pure: a query's rows with the touched records put in their effective state.
 * A touched row that no longer matches the query leaves it; a record that now
 * matches (created, or changed into the selection) joins it (at its place in
 * the order when `compare` gives one, otherwise at the end); removals stay in
 * the list, marked, so they can be undone where they show.
 */
export function mergeTouched<K extends OverlayKind>(
  kind: K,
  rows: readonly OverlayRecords[K][],
  touched: Touched<OverlayRecords[K]>,
  matches: (row: OverlayRecords[K]) => boolean,
  compare?: (a: OverlayRecords[K], b: OverlayRecords[K]) => number,
): (OverlayRecords[K] & PendingMark)[] {
  if (touched.after.length === 0 && touched.before.length === 0)
    return rows as (OverlayRecords[K] & PendingMark)[];
  const key = COLLECTION_KEY[kind] as (r: OverlayRecords[K]) => string | number;
  const effective = new Map(touched.after.map((r) => [key(r), r]));
  const gone = new Set(touched.before.map(key));
  const seen = new Set<string | number>();
  const out: (OverlayRecords[K] & PendingMark)[] = [];
  for (const row of rows) {
    const k = key(row);
    const next = effective.get(k);
    if (next && !compare) {
      seen.add(k);
      if (matches(next)) out.push(next);
    } else if (!next && !gone.has(k)) out.push(row);
  }
  for (const [k, row] of effective) {
    if (seen.has(k) || !matches(row)) continue;
    if (!compare) out.push(row);
    else out.splice(insertionPoint(out, row, compare), 0, row);
  }
  return out;
}

function insertionPoint<T>(sorted: readonly T[], row: T, compare: (a: T, b: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(sorted[mid]!, row) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Pure: how many more (or fewer) records match once the pending ops apply (removals no longer count). */
export function countDelta<T>(touched: Touched<T>, matches: (row: T) => boolean): number {
  return touched.after.filter((r) => isKept(r) && matches(r)).length - touched.before.filter(matches).length;
}

/** Pure: the same per bucket (a status, a week, a course); a record in no bucket gives null. */
export function bucketDelta<T>(
  touched: Touched<T>,
  bucketOf: (row: T) => string | null,
): Map<string, number> {
  const out = new Map<string, number>();
  const add = (bucket: string | null, n: number) => {
    if (bucket !== null) out.set(bucket, (out.get(bucket) ?? 0) + n);
  };
  for (const r of touched.before) add(bucketOf(r), -1);
  for (const r of touched.after) if (isKept(r)) add(bucketOf(r), 1);
  return out;
}

/** A query's rows in their effective state (see `mergeTouched`); `matches` is what the query selects. */
export async function applyOverlays<K extends OverlayKind>(
  kind: K,
  db: FieldbookDb | PendingSnapshot,
  rows: readonly OverlayRecords[K][],
  matches: (row: OverlayRecords[K]) => boolean,
  compare?: (a: OverlayRecords[K], b: OverlayRecords[K]) => number,
): Promise<(OverlayRecords[K] & PendingMark)[]> {
  const pending = typeof db === 'function' ? db : await pendingSnapshot(db);
  return mergeTouched(kind, rows, await pending(kind), matches, compare);
}

/** A cached count in its effective state. */
export async function countWithPending<K extends OverlayKind>(
  kind: K,
  db: FieldbookDb,
  cached: number,
  matches: (row: OverlayRecords[K]) => boolean,
): Promise<number> {
  return cached + countDelta(await touchedOf(kind, db), matches);
}

/** People by id in their effective state (someone created offline included), for lists that name them. */
export async function usersWithPending(
  db: FieldbookDb,
  ids: readonly number[],
): Promise<Map<number, UserRecord & PendingMark>> {
  const wanted = new Set(ids);
  const cached = (await db.users.bulkGet([...wanted].filter((id) => id > 0))).filter(
    (u): u is UserRecord => u !== undefined,
  );
  const users = await applyOverlays('users', db, cached, (u) => wanted.has(u.userid));
  return new Map(users.map((u) => [u.userid, u]));
}

/** The collections whose records belong to one person (every one has `userid`). */
const ABOUT_A_PERSON: readonly OverlayKind[] = [
  'users',
  'emails',
  'groupAccess',
  'moduleAccess',
  'credentialAssignments',
  'trainingAssignments',
];

/**
 * Per person, the ids of the pending operations about them of every kind (their record,
 * e-mails, access, credentials, training): a list of people marks everyone with a change
 * waiting, not only those whose own record changes.
 */
export async function pendingByPerson(db: FieldbookDb): Promise<Map<number, string[]>> {
  const pending = await pendingSnapshot(db);
  const touched = await Promise.all(
    ABOUT_A_PERSON.map(async (kind) => (await pending(kind)).after as ({ userid: number } & PendingMark)[]),
  );
  const out = new Map<number, string[]>();
  for (const row of touched.flat()) {
    if (!row.pendingOps?.length) continue;
    const ops = out.get(row.userid) ?? [];
    out.set(row.userid, [...new Set([...ops, ...row.pendingOps])]);
  }
  return out;
}

/** A person's row marked with every pending operation about them (see `pendingByPerson`). */
export function personMark<T extends PendingMark & { userid: number }>(
  row: T,
  byPerson: ReadonlyMap<number, readonly string[]> | undefined,
): PendingMark {
  const about = byPerson?.get(row.userid) ?? [];
  const ops = [...new Set([...(row.pendingOps ?? []), ...about])];
  if (ops.length === 0) return {};
  return { pendingOps: ops, pendingChange: row.pendingChange ?? 'update' };
}
