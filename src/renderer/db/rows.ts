/**
 * The rows of every table of a profile's database, and the database's typed table
 * map. Types only, and imported from nothing in the features: the modules the
 * database module installs (the sync's middlewares, the first screen kept) read
 * these without importing the database module, so no import goes round in a circle.
 */
import type { EntityTable } from 'dexie';
import type Dexie from 'dexie';
import type { AppError, PageFingerprint, SyncFinishedEvent, TaskCheckpoint } from '../../shared/ipc.ts';
import type { CollectionName, CollectionRecordMap, PRIMARY_KEY } from '../../shared/records.ts';
import type { AuditEntry, OutboxOp, OutboxPack } from '../../shared/outbox.ts';
import type { CachedTrainingAssignment } from './derived.ts';
import type { HistoryTables } from '../history/rows.ts';
import type { HistoryWrittenTables } from '../history/written-rows.ts';
import type { DatabaseMemory } from './memory.ts';
import type { ChangeCounts, ChangeEntry } from '../sync/changes.ts';

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

/** What one sync changed (sync/log.ts), kept for "Since last sync". */
export interface SyncChangeLog {
  seq?: number;
  syncId: string;
  /** when the sync ended (ISO) */
  at: string;
  outcome: SyncFinishedEvent['outcome'];
  /** the previous sync this one is compared with (ISO) */
  since: string;
  counts: ChangeCounts;
  changes: ChangeEntry[];
  /** changes counted but not listed (past MAX_LISTED) */
  omitted: number;
}

/** One stored requirement (table `requirements`). */
export interface RequirementRow {
  /** "<scope>|<item>": the same requirement set twice is one row */
  id: string;
  /** "site:101", "group:12", "usertype:Supervisor" */
  scope: string;
  /** "credential:5", "course:7" */
  item: string;
}

export type FieldbookDb = Dexie &
  CacheTables & {
    syncCheckpoints: EntityTable<TaskCheckpoint, 'taskId'>;
    syncCollections: EntityTable<SyncCollectionRow, 'collection'>;
    outbox: EntityTable<OutboxOp, 'id'>;
    audit: EntityTable<AuditEntry, 'seq'>;
    /** a large batch's ops, some hundred to a record (shared/replay-queue/packs.ts) */
    outboxPacks: EntityTable<OutboxPack, 'first'>;
    syncChanges: EntityTable<SyncChangeLog, 'seq'>;
    pageFingerprints: EntityTable<PageFingerprintRow, 'key'>;
    /** the coordinator's requirements: local only, never sent to the platform */
    requirements: EntityTable<RequirementRow, 'id'>;
    /** what the profile's database keeps in memory, shared by its instances (memory.ts) */
    readonly memory: DatabaseMemory;
  } & HistoryTables &
  HistoryWrittenTables;
