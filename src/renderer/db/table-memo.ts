/**
 * What a query reads from one table, held in its database's memory (memory.ts: one
 * per profile session) and shared by every query until the table changes: the copy is dropped the moment any write
 * to that table begins (a DBCore middleware on every instance the database module
 * opens, the outbox's strict one included), so a read started after that point
 * queues behind the write in IndexedDB and cannot see the old data; writes from
 * other windows drop it through Dexie's `storagemutated` event. A failed read is
 * not kept: the next caller tries again.
 */
import type { DBCore, Middleware } from 'dexie';
import type { DatabaseMemory, MemoryPart } from './memory.ts';

export interface TableMemo<Source extends { memory: DatabaseMemory }, Value> {
  /** install on every instance of the database (db.use), with the memory they share */
  middleware(memory: DatabaseMemory): Middleware<DBCore>;
  /** the memo, or a new read of it (shared: callers must not mutate it) */
  get(db: Source): Promise<Value>;
}

/** The copy read through one instance, held in its database's memory until the table changes. */
interface Slot<Source, Value> {
  entry: { source: Source; value: Promise<Value> } | null;
}

export function tableMemo<Source extends { memory: DatabaseMemory }, Value>(
  /** the table read, or the tables (the outbox's ops and their packs) */
  table: string | readonly string[],
  read: (db: Source) => Promise<Value>,
): TableMemo<Source, Value> {
  const tables = new Set(typeof table === 'string' ? [table] : table);
  const name = [...tables].join('+');
  const part: MemoryPart<Slot<Source, Value>> = {
    make(memory) {
      const slot: Slot<Source, Value> = { entry: null };
      // another window's writes (and this one's, once committed)
      memory.onTableWritten((written) => {
        if (tables.has(written)) slot.entry = null;
      });
      return slot;
    },
  };
  const forget = (memory: DatabaseMemory) => {
    const slot = memory.peek(part);
    if (slot) slot.entry = null;
  };
  return {
    middleware: (memory) => ({
      stack: 'dbcore',
      name: `${name}Memo`,
      create: (down) => ({
        ...down,
        table(name) {
          const inner = down.table(name);
          if (!tables.has(name)) return inner;
          return {
            ...inner,
            mutate: (req) => {
              forget(memory);
              return inner.mutate(req);
            },
          };
        },
      }),
    }),
    get(db) {
      const slot = db.memory.part(part);
      if (slot.entry && slot.entry.source === db) return slot.entry.value;
      const value = read(db);
      const entry = { source: db, value };
      slot.entry = entry;
      value.catch(() => {
        if (slot.entry === entry) slot.entry = null;
      });
      return value;
    },
  };
}
