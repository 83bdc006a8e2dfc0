/**
 * THE database module: every table and every schema version, with a typed
 * table map so queries are checked. One database per profile (its name carries
 * the profile id), so two sites' caches and outboxes never mix.
 */
import Dexie from 'dexie';
import {
  SCHEMA_V1,
  SCHEMA_V2,
  SCHEMA_V3,
  SCHEMA_V4,
  SCHEMA_V5,
  SCHEMA_V6,
  SCHEMA_V7,
  SCHEMA_V8,
  SCHEMA_V9,
  SCHEMA_V10,
  SCHEMA_V11,
  SCHEMA_V12,
  SCHEMA_V13,
  SCHEMA_V14,
  SCHEMA_V15,
  SCHEMA_V16,
  SCHEMA_V17,
} from './schema.ts';
import {
  v1CreateCache,
  v2FoldSearchKeys,
  v4PageFingerprintTable,
  v5RequirementsTable,
  v7HistoryChanges,
  v9HistoryCompact,
  v10HistoryWritten,
  v11HistoryFigures,
  v12HistorySharedDeflated,
  v13HistoryHeadsCompact,
  v15HistoryHeadState,
  v17HistoryHeadStateKeys,
} from './migrations.ts';
import { watchDatabaseLifecycle } from './lifecycle.ts';
import { derivedFieldsMiddleware } from './derived.ts';
import { usersMemoMiddleware } from './users-memo.ts';
import { outboxMemoMiddleware } from '../outbox/ops-memo.ts';
import { knownPacksMiddleware } from '../outbox/known-packs.ts';
import { fingerprintGuardMiddleware } from '../sync/fingerprints.ts';
import { firstScreenMiddleware } from './first-screen-kept.ts';
import type { FieldbookDb } from './rows.ts';
import { DatabaseMemory } from './memory.ts';
import { historyTouchMiddleware } from '../history/touched.ts';

export type { FieldbookDb, SyncCollectionRow } from './rows.ts';

export const DB_NAME_PREFIX = 'fieldbook-';

export function dbNameForProfile(profileId: string): string {
  return `${DB_NAME_PREFIX}${profileId}`;
}

export interface OpenOptions {
  /**
   * 'relaxed' (the default here) lets the sync's page writes commit without
   * waiting for the disk: a lost page is simply fetched again on resume. The
   * outbox needs 'strict' (nothing queued is ever lost): open a second instance
   * of the same database with it.
   */
  durability?: 'relaxed' | 'strict';
  /**
   * What the database keeps in memory (memory.ts): the profile session gives its two instances the same one, so a
   * write through either drops what the other would read. By default the instance has one of its own.
   */
  memory?: DatabaseMemory;
}

export function openFieldbookDb(name: string, options: OpenOptions = {}): FieldbookDb {
  const memory = options.memory ?? new DatabaseMemory(name);
  if (memory.name !== name) throw new Error(`The memory of ${memory.name} was given to ${name}.`);
  const db = Object.assign(
    new Dexie(name, { chromeTransactionDurability: options.durability ?? 'relaxed' }),
    {
      memory,
    },
  ) as FieldbookDb;
  db.version(1).stores(SCHEMA_V1).upgrade(v1CreateCache);
  db.version(2).stores(SCHEMA_V2).upgrade(v2FoldSearchKeys);
  // version 3 (the site visit's change log) only adds its table
  db.version(3).stores(SCHEMA_V3);
  db.version(4).stores(SCHEMA_V4).upgrade(v4PageFingerprintTable);
  db.version(5).stores(SCHEMA_V5).upgrade(v5RequirementsTable);
  // version 6 (the compliance history) only adds its tables: the history starts with the next sync
  db.version(6).stores(SCHEMA_V6);
  db.version(7).stores(SCHEMA_V7).upgrade(v7HistoryChanges);
  // version 8 only adds an index: a head without its next day is recomputed by the next (full) snapshot
  db.version(8).stores(SCHEMA_V8);
  db.version(9).stores(SCHEMA_V9).upgrade(v9HistoryCompact);
  db.version(10).stores(SCHEMA_V10).upgrade(v10HistoryWritten);
  db.version(11).stores(SCHEMA_V11).upgrade(v11HistoryFigures);
  db.version(12).stores(SCHEMA_V12).upgrade(v12HistorySharedDeflated);
  db.version(13).stores(SCHEMA_V13).upgrade(v13HistoryHeadsCompact);
  // version 14 only drops an index (the outbox's targetKey): queueing writes one entry less per op
  db.version(14).stores(SCHEMA_V14);
  db.version(15).stores(SCHEMA_V15).upgrade(v15HistoryHeadState);
  // version 16 only adds the outbox's packs
  db.version(16).stores(SCHEMA_V16);
  db.version(17).stores(SCHEMA_V17).upgrade(v17HistoryHeadStateKeys);
  watchDatabaseLifecycle(db);
  db.use(derivedFieldsMiddleware);
  db.use(usersMemoMiddleware(memory));
  db.use(outboxMemoMiddleware(memory));
  db.use(knownPacksMiddleware(memory));
  db.use(fingerprintGuardMiddleware(db));
  db.use(firstScreenMiddleware(memory));
  db.use(historyTouchMiddleware(memory));
  return db;
}
