/**
 * The outbox's unsent ops, held in memory per database, so every view query
 * overlays them without an IndexedDB read (a read per query cost more than the
 * query itself). Dropped the moment any write to the outbox table begins (a
 * DBCore middleware on every instance the database module opens, the outbox's
 * strict one included), and on writes from other windows (`storagemutated`).
 * Views re-run their queries on the outbox's version (`usePendingVersion`).
 */
import Dexie, { type DBCore, type Middleware } from 'dexie';
import type { OutboxOp } from '../../shared/outbox.ts';

interface OutboxSource {
  name: string;
  outbox: { where(index: 'status'): { noneOf(values: string[]): { toArray(): Promise<OutboxOp[]> } } };
}

const loaded = new Map<string, { source: OutboxSource; ops: Promise<OutboxOp[]> }>();

function forget(dbName: string): void {
  loaded.delete(dbName);
}

Dexie.on('storagemutated', (parts) => {
  for (const name of [...loaded.keys()]) {
    const prefix = `idb://${name}/outbox/`;
    if (Object.keys(parts).some((part) => part.startsWith(prefix))) forget(name);
  }
});

export function outboxMemoMiddleware(dbName: string): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'outboxMemo',
    create(down) {
      return {
        ...down,
        table(name) {
          const table = down.table(name);
          if (name !== 'outbox') return table;
          return {
            ...table,
            mutate: (req) => {
              forget(dbName);
              return table.mutate(req);
            },
          };
        },
      };
    },
  };
}

/** The ops not done yet (shared: callers must not mutate them). */
export function memoUnsentOps(db: OutboxSource): Promise<OutboxOp[]> {
  const entry = loaded.get(db.name);
  if (entry && entry.source === db) return entry.ops;
  const ops = db.outbox.where('status').noneOf(['done']).toArray();
  loaded.set(db.name, { source: db, ops });
  ops.catch(() => {
    if (loaded.get(db.name)?.ops === ops) loaded.delete(db.name);
  });
  return ops;
}
