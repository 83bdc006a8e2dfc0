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
import type { DBCore, DBCoreMutateRequest, DBCoreTable, Middleware } from 'dexie';
import type { DatabaseMemory, MemoryPart } from '../db/memory.ts';

/** The tables a person's fact is read from (history/facts.ts), all holding a `userid`. */
const PERSON_TABLES = new Set(['users', 'groupMembers', 'credentialAssignments', 'trainingAssignments']);

interface Notes {
  userids: Set<number>;
  /** a write whose people are not known: the next snapshot reads everyone */
  unknown: boolean;
  /** the snapshot (its seq) since which every write was noted; null: none yet in this window */
  since: number | null;
}

const NOTES: MemoryPart<Notes> = { make: () => ({ userids: new Set(), unknown: false, since: null }) };

const notesOf = (memory: DatabaseMemory): Notes => memory.part(NOTES);

/** The people written since the snapshot `seq`, taken (the notes start again empty); null: not known. */
export function takeTouched(memory: DatabaseMemory, seq: number | null): Set<number> | null {
  const notes = notesOf(memory);
  const { userids, unknown, since } = notes;
  notes.userids = new Set();
  notes.unknown = false;
  return unknown || since === null || since !== seq ? null : userids;
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

function note(notes: Notes, values: readonly unknown[]): void {
  for (const value of values) {
    if (value === undefined) continue;
    const userid = useridOf(value);
    if (userid === null) notes.unknown = true;
    else notes.userids.add(userid);
  }
}

/**
 * Notes the people of a write, then makes it. A deletion reads its records first, in its own transaction, through
 * the promise the table gives (Dexie's own, which keeps the transaction's zone: an `await` here would lose it).
 */
function noteThenMutate(table: DBCoreTable, req: DBCoreMutateRequest, notes: Notes) {
  if (req.type === 'delete')
    return table.getMany({ trans: req.trans, keys: req.keys }).then((values) => {
      note(notes, values);
      return table.mutate(req);
    });
  if (req.type === 'deleteRange') notes.unknown = true;
  // a record keeps its person under its key (a membership's and a credential's key name them; a transcript is one
  // person's), so the new values name whoever the write concerns
  else note(notes, req.values);
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
