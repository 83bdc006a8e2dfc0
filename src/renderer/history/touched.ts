/**
 * Which people were written since the last snapshot (history/snapshot.ts), so a snapshot recomputes only them (and
 * those whose findings change with the date). A DBCore middleware sees every record added, changed or deleted in the
 * tables a person's fact is made of, whoever writes it (the sync, an acknowledged edit, a site removed), and:
 * - keeps their userids on disk, in the write's own transaction (a row each in `historyWritten`, the table added to
 *   the transaction's scope), so the notes survive a restart and a write that aborted leaves none; what it cannot
 *   know (a range deleted, a record without its userid) is kept as a row without a person: the next snapshot is then
 *   a full one;
 * - keeps in the profile's database memory (db/memory.ts, shared by its two instances, ended with its session) what
 *   was written of each person, once the transaction completed (history/written.ts), so the snapshot patches their
 *   history instead of reading their records. A person this window did not follow since the last snapshot (the
 *   window started since, another window wrote them, a snapshot failed) is read from the cache.
 */
import type {
  DBCore,
  DBCoreKeyRange,
  DBCoreMutateRequest,
  DBCoreRangeType,
  DBCoreTable,
  DBCoreTransaction,
  Middleware,
} from 'dexie';
import type { DatabaseMemory, MemoryPart } from '../db/memory.ts';
import { noteWrite, type PersonWrite, type PersonWrites } from './written.ts';
import { HISTORY_WRITTEN, type HistoryWrittenRow, type HistoryWrittenTables } from './written-rows.ts';

/** The tables a person's fact is read from (history/facts.ts), all holding a `userid`. */
const PERSON_TABLES = new Set(['users', 'groupMembers', 'credentialAssignments', 'trainingAssignments']);

/** A record written in a transaction not completed yet (`deleted`: its value before deletion). */
interface Pending {
  write: PersonWrite;
  deleted: boolean;
}

interface Notes {
  userids: Set<number>;
  /** what was written of each person, by the transactions that completed (history/written.ts) */
  writes: Map<number, PersonWrites>;
  /** the records written by each transaction still running: they count once it completed */
  pending: WeakMap<DBCoreTransaction, Pending[]>;
  /** what this window wrote may be missing from `writes` (a snapshot failed, a transaction not followed) */
  unknown: boolean;
  /** the records noted in `writes` since the last snapshot; past WRITES_KEPT, none is kept (`overflow`) */
  kept: number;
  overflow: boolean;
  /** the snapshot (its seq) since which every write was noted; null: none yet in this window */
  since: number | null;
  /** this window's mark on the rows it keeps on disk */
  by: string;
}

const NOTES: MemoryPart<Notes> = {
  make: () => ({
    userids: new Set(),
    writes: new Map(),
    pending: new WeakMap(),
    unknown: false,
    kept: 0,
    overflow: false,
    since: null,
    // tells this window's rows from another's, nothing more (no secret: randomUUID needs a secure context)
    by: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`,
  }),
};

const notesOf = (memory: DatabaseMemory): Notes => memory.part(NOTES);

/**
 * The records kept in memory between two snapshots, at most: a day of `l` writes about 1,500; a first sync or a
 * week offline writes hundreds of thousands, which would keep the whole cache twice. Past it, the people written are
 * read from the cache (their userids are still noted).
 */
export const WRITES_KEPT = 10_000;

/** Notes what a completed transaction wrote of each person, while fewer than WRITES_KEPT records are kept. */
function keepWrites(notes: Notes, pending: readonly Pending[]): void {
  for (const { write } of pending) notes.userids.add(write.value.userid);
  if (notes.overflow) return;
  notes.kept += pending.length;
  if (notes.kept > WRITES_KEPT) {
    notes.overflow = true;
    notes.writes = new Map();
    return;
  }
  for (const { write, deleted } of pending) noteWrite(notes.writes, write, deleted);
}

/** The people written since a snapshot, and what was written of them (a person without: read from the cache). */
export interface Touched {
  userids: ReadonlySet<number>;
  writes: ReadonlyMap<number, PersonWrites>;
}

/**
 * The people written since the snapshot `seq`, from the rows kept on disk (`rows`, read before) and what this window
 * noted, taken (its notes start again empty); null: not known (the next snapshot reads everyone).
 */
export function takeTouched(
  memory: DatabaseMemory,
  seq: number | null,
  rows: readonly HistoryWrittenRow[],
): Touched | null {
  const notes = notesOf(memory);
  const { userids, writes, unknown, since, by } = notes;
  notes.userids = new Set();
  notes.writes = new Map();
  notes.unknown = false;
  notes.kept = 0;
  notes.overflow = false;
  if (seq === null || rows.some((row) => row.userid === undefined)) return null;
  const followed = !unknown && since === seq;
  const elsewhere = new Set(rows.filter((row) => row.by !== by).map((row) => row.userid!));
  const known = new Map([...writes].filter(([userid]) => followed && !elsewhere.has(userid)));
  const all = new Set([...userids, ...rows.map((row) => row.userid!)]);
  return { userids: all, writes: known };
}

/** The snapshot `seq` is written: the notes taken before it are the writes since. */
export function snapshotTaken(memory: DatabaseMemory, seq: number): void {
  notesOf(memory).since = seq;
}

/** A snapshot failed: what it took of memory is lost, so the next one reads the people written from the cache. */
export function snapshotFailed(memory: DatabaseMemory): void {
  notesOf(memory).unknown = true;
}

/**
 * The next snapshot reads everyone (a row without a person, as after a write whose people are not known): a day
 * found the history's heads not as it had read them, so the figures it would carry over cannot be trusted.
 */
export async function nextSnapshotFull(
  written: HistoryWrittenTables['historyWritten'],
  memory: DatabaseMemory,
): Promise<void> {
  await written.add({ by: notesOf(memory).by });
}

const useridOf = (value: unknown): number | null => {
  const id = (value as { userid?: unknown } | undefined)?.userid;
  return typeof id === 'number' ? id : null;
};

/**
 * The records a transaction wrote, kept until it completed, then noted with their people (again: the notes may have
 * been taken meanwhile, and what completed after belongs to the next snapshot). One that aborted wrote nothing.
 * Null when the transaction cannot be followed (not IndexedDB's own).
 */
function pendingOf(notes: Notes, trans: DBCoreTransaction): Pending[] | null {
  const known = notes.pending.get(trans);
  if (known) return known;
  const idb = trans as Partial<Pick<IDBTransaction, 'addEventListener'>>;
  if (typeof idb.addEventListener !== 'function') return null;
  const pending: Pending[] = [];
  notes.pending.set(trans, pending);
  idb.addEventListener('complete', () => keepWrites(notes, pending));
  return pending;
}

/** Notes the records of a write in memory; returns the rows to keep on disk: one a person, one without if unknown. */
function note(
  notes: Notes,
  table: string,
  trans: DBCoreTransaction,
  values: readonly unknown[],
  deleted = false,
): HistoryWrittenRow[] {
  const pending = pendingOf(notes, trans);
  if (!pending) notes.unknown = true;
  const people = new Set<number>();
  let unknown = false;
  for (const value of values) {
    if (value === undefined) continue;
    const userid = useridOf(value);
    if (userid === null) unknown = true;
    else {
      people.add(userid);
      notes.userids.add(userid);
      pending?.push({ write: { table, value } as PersonWrite, deleted });
    }
  }
  const rows: HistoryWrittenRow[] = [...people].map((userid) => ({ userid, by: notes.by }));
  return unknown ? [...rows, { by: notes.by }] : rows;
}

/** Whether the transaction holds the table of the people written (not an upgrade to a version before it). */
const holdsWritten = (trans: DBCoreTransaction) =>
  (trans as Partial<Pick<IDBTransaction, 'objectStoreNames'>>).objectStoreNames?.contains(HISTORY_WRITTEN) ===
  true;

/**
 * The rows of people written kept on disk, at most: a day of `l` adds a few thousand and its snapshot takes them
 * away, but syncs that never complete would add them for ever. Past it they give way to one row without a person
 * (the next snapshot reads everyone, as after a write whose people are not known).
 */
export const WRITTEN_KEPT = 50_000;
/** every key of a table (Dexie's range type is a const enum: its value cannot be imported, only its type) */
const ALL_KEYS: DBCoreKeyRange = { type: 3 as DBCoreRangeType.Any, lower: undefined, upper: undefined };

/** Counts the rows kept each time their ids pass a multiple of WRITTEN_KEPT; past it, keeps one without a person. */
function bounded(written: DBCoreTable, trans: DBCoreTransaction, last: unknown, rows: HistoryWrittenRow[]) {
  const crossed = typeof last === 'number' && last % WRITTEN_KEPT < rows.length;
  if (!crossed) return Promise.resolve();
  return written.count({ trans, query: { index: written.schema.primaryKey, range: ALL_KEYS } }).then((n) => {
    if (n <= WRITTEN_KEPT) return;
    return written
      .mutate({ type: 'deleteRange', trans, range: ALL_KEYS })
      .then(() => written.mutate({ type: 'add', trans, values: [{ by: rows[0]!.by }] }))
      .then(() => undefined);
  });
}

/** Keeps the rows on disk in the write's transaction (bounded), then makes the write. */
function keepThenMutate(
  written: () => DBCoreTable,
  table: DBCoreTable,
  req: DBCoreMutateRequest,
  rows: HistoryWrittenRow[],
) {
  if (rows.length === 0 || !holdsWritten(req.trans)) return table.mutate(req);
  return written()
    .mutate({ type: 'add', trans: req.trans, values: rows })
    .then((added) => bounded(written(), req.trans, added.lastResult, rows))
    .then(() => table.mutate(req));
}

/**
 * Notes the people of a write, then makes it. A deletion reads its records first, in its own transaction, through
 * the promise the table gives (Dexie's own, which keeps the transaction's zone: an `await` here would lose it).
 */
function noteThenMutate(
  written: () => DBCoreTable,
  table: DBCoreTable,
  req: DBCoreMutateRequest,
  notes: Notes,
) {
  if (req.type === 'delete')
    return table.getMany({ trans: req.trans, keys: req.keys }).then((values) => {
      const rows = note(notes, table.name, req.trans, values, true);
      return keepThenMutate(written, table, req, rows);
    });
  // a record keeps its person under its key (a membership's and a credential's key name them; a transcript is one
  // person's), so the new values name whoever the write concerns
  const rows =
    req.type === 'deleteRange' ? [{ by: notes.by }] : note(notes, table.name, req.trans, req.values);
  return keepThenMutate(written, table, req, rows);
}

/** A write's transaction with the table of the people written in its scope (as dexie-observable adds its own). */
const widened = (stores: string[], mode: 'readonly' | 'readwrite') =>
  mode === 'readwrite' && stores.some((s) => PERSON_TABLES.has(s)) && !stores.includes(HISTORY_WRITTEN)
    ? [...stores, HISTORY_WRITTEN]
    : stores;

/** The middleware, on every database this window opens (db/index.ts). */
export function historyTouchMiddleware(memory: DatabaseMemory): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'historyTouched',
    create(down) {
      return {
        ...down,
        transaction: (stores, mode, options) => down.transaction(widened(stores, mode), mode, options),
        table(name) {
          const table = down.table(name);
          if (!PERSON_TABLES.has(name)) return table;
          return {
            ...table,
            mutate: (req) => noteThenMutate(() => down.table(HISTORY_WRITTEN), table, req, notesOf(memory)),
          };
        },
      };
    },
  };
}
