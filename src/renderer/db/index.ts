/**
 * THE database module: every table and every schema version, with a typed
 * table map so queries are checked. One database per profile (its name carries
 * the profile id), so two sites' caches and outboxes never mix.
 */
import Dexie, { type EntityTable } from 'dexie';
import type { AppError, PageFingerprint, TaskCheckpoint } from '../../shared/ipc.ts';
import type { CollectionName, CollectionRecordMap, PRIMARY_KEY } from '../../shared/records.ts';
import type { AuditEntry, OutboxOp } from '../../shared/outbox.ts';
import { SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5 } from './schema.ts';
import {
  v1CreateCache,
  v2FoldSearchKeys,
  v4PageFingerprintTable,
  v5RequirementsTable,
} from './migrations.ts';
import { watchDatabaseLifecycle } from './lifecycle.ts';
import { derivedFieldsMiddleware, type CachedTrainingAssignment } from './derived.ts';
import { usersMemoMiddleware } from './users-memo.ts';
import { outboxMemoMiddleware } from '../outbox/ops-memo.ts';
import type { SyncChangeLog } from '../sync/log.ts';
import { fingerprintGuardMiddleware } from '../sync/fingerprints.ts';
import { firstScreenMiddleware } from './first-screen-kept.ts';
import type { RequirementRow } from '../features/requirements/model.ts';

/** Sync state of one collection, kept across passes. */
export interface SyncCollectionRow {
  collection: CollectionName;
  /** ISO time of the last pass in which this collection completed */
  lastSyncedAt: string | null;
  /** the last pass's error for this collection, cleared when it completes */
  lastError: AppError | null;
  /** records delivered by the last completed pass (the "M" of "N of M" next time) */
  total: number | null;
  /**
   * the records the table held, exactly, when the last complete pass left it
   * (sync/sizes.ts): taken away as the next pass starts, forgotten when
   * anything else writes the table
   */
  held?: number;
  /**
   * users only: the sites whose people the pass of `lastSyncedAt` read in full
   * (sync/sites-read.ts); a site the cache holds beyond them was never read
   * whole, and the import creates nobody then. Absent on rows saved before it
   * was kept: settled as the next pass starts.
   */
  sitesRead?: number[];
}

/** What one page of a sync task held when last written (sync/fingerprints.ts), with the records, in one transaction. */
export interface PageFingerprintRow extends Omit<PageFingerprint, 'keys' | 'version'> {
  /** FINGERPRINT_VERSION of the build that made it; absent on rows saved before fingerprints had one */
  version?: number;
  /** "<taskId>@<startrow>" */
  key: string;
  /** the items' keys as JSON text: one string is cloned into IndexedDB in one copy, an array of 1,000 value by value */
  keys: string;
  /** the task's collection: a write to it from outside the sync voids the row */
  collection: CollectionName;
}

type CacheTables = {
  [K in Exclude<CollectionName, 'trainingAssignments'>]: EntityTable<
    CollectionRecordMap[K],
    (typeof PRIMARY_KEY)[K] & keyof CollectionRecordMap[K]
  >;
} & {
  trainingAssignments: EntityTable<CachedTrainingAssignment, 'transcriptid'>;
};

export type FieldbookDb = Dexie &
  CacheTables & {
    syncCheckpoints: EntityTable<TaskCheckpoint, 'taskId'>;
    syncCollections: EntityTable<SyncCollectionRow, 'collection'>;
    outbox: EntityTable<OutboxOp, 'id'>;
    audit: EntityTable<AuditEntry, 'seq'>;
    syncChanges: EntityTable<SyncChangeLog, 'seq'>;
    pageFingerprints: EntityTable<PageFingerprintRow, 'key'>;
    /** the coordinator's requirements: local only, never sent to the platform */
    requirements: EntityTable<RequirementRow, 'id'>;
  };

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
}

export function openFieldbookDb(name: string, options: OpenOptions = {}): FieldbookDb {
  const db = new Dexie(name, { chromeTransactionDurability: options.durability ?? 'relaxed' }) as FieldbookDb;
  db.version(1).stores(SCHEMA_V1).upgrade(v1CreateCache);
  db.version(2).stores(SCHEMA_V2).upgrade(v2FoldSearchKeys);
  // version 3 (the site visit's change log) only adds its table
  db.version(3).stores(SCHEMA_V3);
  db.version(4).stores(SCHEMA_V4).upgrade(v4PageFingerprintTable);
  db.version(5).stores(SCHEMA_V5).upgrade(v5RequirementsTable);
  watchDatabaseLifecycle(db);
  db.use(derivedFieldsMiddleware);
  db.use(usersMemoMiddleware(name));
  db.use(outboxMemoMiddleware(name));
  db.use(fingerprintGuardMiddleware(() => db));
  db.use(firstScreenMiddleware(name));
  return db;
}
