/**
 * What a query reads from one table, held in memory per database and shared by
 * every query until the table changes: the copy is dropped the moment any write
 * to that table begins (a DBCore middleware on every instance the database module
 * opens, the outbox's strict one included), so a read started after that point
 * queues behind the write in IndexedDB and cannot see the old data; writes from
 * other windows drop it through Dexie's `storagemutated` event. A failed read is
 * not kept: the next caller tries again.
 */
import Dexie, { type DBCore, type Middleware } from 'dexie';

export interface TableMemo<Source extends { name: string }, Value> {
  /** install on every instance of the database (db.use) */
  middleware(dbName: string): Middleware<DBCore>;
  /** the memo, or a new read of it (shared: callers must not mutate it) */
  get(db: Source): Promise<Value>;
}

export function tableMemo<Source extends { name: string }, Value>(
  table: string,
  read: (db: Source) => Promise<Value>,
): TableMemo<Source, Value> {
  const loaded = new Map<string, { source: Source; value: Promise<Value> }>();
  const forget = (dbName: string) => loaded.delete(dbName);
  Dexie.on('storagemutated', (parts) => {
    for (const name of [...loaded.keys()]) {
      const prefix = `idb://${name}/${table}/`;
      if (Object.keys(parts).some((part) => part.startsWith(prefix))) forget(name);
    }
  });
  return {
    middleware: (dbName) => ({
      stack: 'dbcore',
      name: `${table}Memo`,
      create: (down) => ({
        ...down,
        table(name) {
          const inner = down.table(name);
          if (name !== table) return inner;
          return {
            ...inner,
            mutate: (req) => {
              forget(dbName);
              return inner.mutate(req);
            },
          };
        },
      }),
    }),
    get(db) {
      const entry = loaded.get(db.name);
      if (entry && entry.source === db) return entry.value;
      const value = read(db);
      loaded.set(db.name, { source: db, value });
      value.catch(() => {
        if (loaded.get(db.name)?.value === value) forget(db.name);
      });
      return value;
    },
  };
}
