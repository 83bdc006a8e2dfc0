/**
 * Which people were written since the last snapshot (history/snapshot.ts), so a
 * snapshot recomputes only them (and those whose findings change with the date).
 * A DBCore middleware notes the userid of every record added, changed or deleted
 * in the tables a person's fact is made of, whoever writes it (the sync, an
 * acknowledged edit, a site removed). What it cannot know (a range deleted, a
 * record without its userid) makes the next snapshot a full one, and so does any
 * snapshot that is not the one right after this window started following them:
 * the notes live in the profile's database memory (db/memory.ts), shared by its two
 * instances and ended with its session (a reload or a profile switch starts afresh).
 */
import type { DBCore, DBCoreMutateRequest, DBCoreTable, DBCoreTransaction, Middleware } from 'dexie';
import type { DatabaseMemory, MemoryPart } from '../db/memory.ts';
import { noteWrite, type PersonWrite, type PersonWrites } from './written.ts';

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
  /** a write whose people are not known: the next snapshot reads everyone */
  unknown: boolean;
  /** the snapshot (its seq) since which every write was noted; null: none yet in this window */
  since: number | null;
}

const NOTES: MemoryPart<Notes> = {
  make: () => ({
    userids: new Set(),
    writes: new Map(),
    pending: new WeakMap(),
    unknown: false,
    since: null,
  }),
};

const notesOf = (memory: DatabaseMemory): Notes => memory.part(NOTES);

/** The people written since a snapshot, and what was written of them (a person without: nothing completed yet). */
export interface Touched {
  userids: ReadonlySet<number>;
  writes: ReadonlyMap<number, PersonWrites>;
}

/** The people written since the snapshot `seq`, taken (the notes start again empty); null: not known. */
export function takeTouched(memory: DatabaseMemory, seq: number | null): Touched | null {
  const notes = notesOf(memory);
  const { userids, writes, unknown, since } = notes;
  notes.userids = new Set();
  notes.writes = new Map();
  notes.unknown = false;
  return unknown || since === null || since !== seq ? null : { userids, writes };
}

/** The snapshot `seq` is written: the notes taken before it are the writes since. */
export function snapshotTaken(memory: DatabaseMemory, seq: number): void {
  notesOf(memory).since = seq;
}

/** A snapshot failed: what it took is lost, so the next one reads everyone. */
export function snapshotFailed(memory: DatabaseMemory): void {
  notesOf(memory).unknown = true;
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
  idb.addEventListener('complete', () => {
    for (const { write, deleted } of pending) {
      notes.userids.add(write.value.userid);
      noteWrite(notes.writes, write, deleted);
    }
  });
  return pending;
}

function note(
  notes: Notes,
  table: string,
  trans: DBCoreTransaction,
  values: readonly unknown[],
  deleted = false,
) {
  const pending = pendingOf(notes, trans);
  if (!pending) notes.unknown = true;
  for (const value of values) {
    if (value === undefined) continue;
    const userid = useridOf(value);
    if (userid === null) notes.unknown = true;
    else {
      notes.userids.add(userid);
      pending?.push({ write: { table, value } as PersonWrite, deleted });
    }
  }
}

/**
 * Notes the people of a write, then makes it. A deletion reads its records first, in its own transaction, through
 * the promise the table gives (Dexie's own, which keeps the transaction's zone: an `await` here would lose it).
 */
function noteThenMutate(table: DBCoreTable, req: DBCoreMutateRequest, notes: Notes) {
  if (req.type === 'delete')
    return table.getMany({ trans: req.trans, keys: req.keys }).then((values) => {
      note(notes, table.name, req.trans, values, true);
      return table.mutate(req);
    });
  if (req.type === 'deleteRange') notes.unknown = true;
  // a record keeps its person under its key (a membership's and a credential's key name them; a transcript is one
  // person's), so the new values name whoever the write concerns
  else note(notes, table.name, req.trans, req.values);
  return table.mutate(req);
}

/** The middleware, on every database this window opens (db/index.ts). */
export function historyTouchMiddleware(memory: DatabaseMemory): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'historyTouched',
    create(down) {
      return {
        ...down,
        table(name) {
          const table = down.table(name);
          if (!PERSON_TABLES.has(name)) return table;
          return {
            ...table,
            mutate: (req) => noteThenMutate(table, req, notesOf(memory)),
          };
        },
      };
    },
  };
}
