/**
 * The outbox tables as the engine sees them. The app's Dexie module declares
 * them (OUTBOX_TABLE_SCHEMAS); the outbox writes through an instance opened
 * with `durability: 'strict'` (nothing queued is ever lost). Tests and
 * benchmarks open a database with only these tables.
 */
import Dexie, { type DexieOptions, type EntityTable } from 'dexie';
import type { AuditEntry, OutboxOp, OutboxPack } from '../outbox.ts';
import { OUTBOX_TABLE_SCHEMAS } from '../outbox.ts';

export type OutboxDb = Dexie & {
  outbox: EntityTable<OutboxOp, 'id'>;
  audit: EntityTable<AuditEntry, 'seq'>;
  /** a large batch's ops, some hundred to a record (packs.ts) */
  outboxPacks: EntityTable<OutboxPack, 'first'>;
};

/** A database holding only the outbox tables (tests, benchmarks, the harness). */
export function openOutboxOnlyDb(name: string, options: DexieOptions = {}): OutboxDb {
  const db = new Dexie(name, { chromeTransactionDurability: 'strict', ...options }) as OutboxDb;
  db.version(1).stores({ ...OUTBOX_TABLE_SCHEMAS });
  return db;
}
