/**
 * The users list's first screenful, kept in the window's local storage for the
 * next start.
 *
 * On a large cache Chromium takes seconds to open the IndexedDB database (its
 * LevelDB Scopes start-up scan: 1.9-3.0 s on 7 million records, docs/benchmarks.md)
 * before any query of ours can run. The list the coordinator left is shown at
 * once from this copy, and replaced by the database's own rows the moment the
 * database answers. Local storage is a small database of its own, open when the
 * page is.
 *
 * The copy is never older than the database: it is dropped (synchronously) the
 * moment a write begins to a table it shows (people, sites, and the queued
 * changes that mark them), by a DBCore middleware on every instance of the
 * database, and it is saved only from reads that began after the last such
 * write (`firstScreenGeneration`). It holds what the list shows of 60 people
 * (no e-mails, no search keys, nothing the list does not display), deleted with
 * the profile.
 */
import type { DBCore, Middleware } from 'dexie';
import type { DatabaseMemory, MemoryPart } from './memory.ts';
import type { UserRecord } from '../../shared/records.ts';
import type { PendingChange, PendingMark } from '../app/overlays.ts';

/** Tables whose writes change what the first screen shows. */
const SHOWN_TABLES = new Set(['users', 'sites', 'outbox', 'outboxPacks']);
const KEY_PREFIX = 'fieldbook.firstScreen.';
/** Raise when what a kept screen holds changes: one of another format is not shown. */
const FORMAT = 1;
/** The most rows kept (the list's first read is 60). */
const MAX_ROWS = 100;

export type KeptUserRow = UserRecord & PendingMark;

export interface KeptFirstScreen {
  rows: KeptUserRow[];
  /** the count the list showed ("20,000 users"), pending changes included */
  total: number;
  /** the names of the rows' sites */
  sites: [number, string][];
}

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** What the middleware knows of one profile's database, in its memory (memory.ts): gone with the session. */
interface KeptState {
  /** writes begun to the shown tables since the session began */
  generation: number;
  /** known to have no kept screen now (a write to a shown table then costs local storage nothing) */
  absent: boolean;
}

const KEPT: MemoryPart<KeptState> = {
  make(memory) {
    const state = { generation: 0, absent: false };
    // another window's writes (Dexie tells of them): the same rule
    memory.onTableWritten((table) => {
      if (SHOWN_TABLES.has(table)) wrote(memory, state, defaultStorage());
    });
    return state;
  },
};

function defaultStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // storage disabled for this origin: nothing is kept, the list waits for the database
    return null;
  }
}

function keyOf(dbName: string): string {
  return `${KEY_PREFIX}${dbName}`;
}

/** Call before the reads a save is made from: the save is refused if a shown table was written since. */
export function firstScreenGeneration(db: { memory: DatabaseMemory }): number {
  return db.memory.part(KEPT).generation;
}

function wrote(memory: DatabaseMemory, state: KeptState, storage: Storage | null): void {
  state.generation += 1;
  if (state.absent || !storage) return;
  storage.removeItem(keyOf(memory.name));
  state.absent = true;
}

/** The middleware that drops the kept screen when a shown table is about to change (every instance of the database). */
export function firstScreenMiddleware(
  memory: DatabaseMemory,
  storage: () => Storage | null = defaultStorage,
): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'firstScreenKept',
    create: (down) => ({
      ...down,
      table(name) {
        const inner = down.table(name);
        if (!SHOWN_TABLES.has(name)) return inner;
        return {
          ...inner,
          mutate: (req) => {
            wrote(memory, memory.part(KEPT), storage());
            return inner.mutate(req);
          },
        };
      },
    }),
  };
}

/**
 * Keeps `screen` for the next start, unless a shown table was written since `generation` (the reads' start) or the
 * profile's session has ended.
 */
export function keepFirstScreen(
  db: { memory: DatabaseMemory },
  generation: number,
  screen: KeptFirstScreen,
  storage: Storage | null = defaultStorage(),
): boolean {
  const { memory } = db;
  if (!storage || memory.disposed || generation !== firstScreenGeneration(db)) return false;
  const rows = screen.rows.slice(0, MAX_ROWS).map(shownFields);
  const shownSites = new Set(rows.map((r) => r.siteid));
  const kept = {
    format: FORMAT,
    rows,
    total: screen.total,
    sites: screen.sites.filter(([id]) => shownSites.has(id)),
  };
  try {
    storage.setItem(keyOf(memory.name), JSON.stringify(kept));
    memory.part(KEPT).absent = false;
    return true;
  } catch {
    // storage full or refused: the next start waits for the database, as without it
    return false;
  }
}

/** What the list shows of a person (searchKeys and extra stay in the database). */
function shownFields(u: KeptUserRow): KeptUserRow {
  const {
    userid,
    siteid,
    username,
    firstname,
    lastname,
    employeeid,
    status,
    usertype,
    sortName,
    refreshedAt,
    pendingOps,
    pendingChange,
  } = u;
  return {
    userid,
    siteid,
    username,
    firstname,
    lastname,
    employeeid,
    status,
    usertype,
    sortName,
    searchKeys: [],
    refreshedAt,
    pendingOps,
    pendingChange,
  };
}

/** The kept screen of this database, or null (none, another format, or not readable as one). */
export function keptFirstScreen(
  dbName: string,
  storage: Storage | null = defaultStorage(),
): KeptFirstScreen | null {
  let parsed: unknown;
  try {
    const text = storage?.getItem(keyOf(dbName));
    if (!text) return null;
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const kept = parsed as { format?: unknown; rows?: unknown; total?: unknown; sites?: unknown } | null;
  if (
    !kept ||
    kept.format !== FORMAT ||
    !Number.isSafeInteger(kept.total) ||
    !Array.isArray(kept.rows) ||
    !Array.isArray(kept.sites)
  )
    return null;
  if (kept.rows.length > MAX_ROWS || !kept.rows.every(isRow) || !kept.sites.every(isSite)) return null;
  // a person twice is not a screen the list showed (and would leave a row drawn over another)
  if (new Set((kept.rows as KeptUserRow[]).map((r) => r.userid)).size !== kept.rows.length) return null;
  return {
    rows: kept.rows as KeptUserRow[],
    total: kept.total as number,
    sites: kept.sites as [number, string][],
  };
}

/** Deletes the kept screen (the profile and its cache are deleted; its session has ended). */
export function forgetFirstScreen(dbName: string, storage: Storage | null = defaultStorage()): void {
  storage?.removeItem(keyOf(dbName));
}

const TEXT_FIELDS = [
  'username',
  'firstname',
  'lastname',
  'employeeid',
  'status',
  'usertype',
  'sortName',
] as const;
const CHANGES = new Set<PendingChange>(['create', 'update', 'delete']);

function isRow(value: unknown): value is KeptUserRow {
  const r = value as Partial<Record<keyof KeptUserRow, unknown>> | null;
  if (!r || typeof r !== 'object' || !Number.isSafeInteger(r.userid) || !Number.isSafeInteger(r.siteid))
    return false;
  if (!TEXT_FIELDS.every((f) => typeof r[f] === 'string') || !Array.isArray(r.searchKeys)) return false;
  if (r.refreshedAt !== undefined && typeof r.refreshedAt !== 'string') return false;
  if (
    r.pendingOps !== undefined &&
    !(Array.isArray(r.pendingOps) && r.pendingOps.every((id) => typeof id === 'string'))
  )
    return false;
  return r.pendingChange === undefined || CHANGES.has(r.pendingChange as PendingChange);
}

function isSite(value: unknown): value is [number, string] {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    Number.isSafeInteger(value[0]) &&
    typeof value[1] === 'string'
  );
}
