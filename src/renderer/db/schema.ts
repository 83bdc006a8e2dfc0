/**
 * Dexie schema strings, one entry per table, per version. Indexes exist only for
 * queries the views make: every index costs sync write throughput (the sync's
 * bottleneck), so each one below names the query it serves.
 */
import { OUTBOX_TABLE_SCHEMAS } from './outbox-tables.ts';

export const CACHE_TABLE_SCHEMAS = {
  sites: 'siteid',
  // search (multi-entry prefix), filters by site/status/type, default order by name
  users: 'userid, *searchKeys, siteid, status, usertype, sortName',
  // user detail
  emails: 'emailid, userid',
  profileCategories: 'categoryid',
  // groups are few: filtered and grouped in memory
  groups: 'groupid',
  // members of a group (users filter), groups of a user (detail)
  groupMembers: 'id, groupid, userid',
  // supervisors over a group (access view), access of a user (detail)
  groupAccess: 'id, groupid, userid',
  modules: 'id',
  // holders of a feature (access view), features of a user (detail)
  moduleAccess: 'id, [siteid+accessID], userid',
  credentialCategories: 'categoryid',
  // credentials of a category
  credentials: 'credentialid, categoryid',
  // assignments of a user (detail); expiring within N days (all credentials);
  // holders and expiring of one credential: the compound index also serves
  // "all of credential X" as a prefix range, so no separate credentialid index.
  credentialAssignments: 'id, userid, expirationIso, [credentialid+expirationIso]',
  courses: 'courseid',
  // by user (detail); not-done training due within N days / overdue, over all
  // courses or one (openDueIso is derived on write, see derived.ts: '' once
  // done). The compound's courseid prefix also serves "all of course X".
  trainingAssignments: 'transcriptid, userid, openDueIso, [courseid+openDueIso]',
} as const;

export const SYNC_TABLE_SCHEMAS = {
  // one row per resumable task of an interrupted pass; cleared when a pass completes
  syncCheckpoints: 'taskId',
  // last synced, last error and record total of each collection
  syncCollections: 'collection',
} as const;

/** Version 1: the whole cache, sync state, and the outbox feature's tables. */
export const SCHEMA_V1 = {
  ...CACHE_TABLE_SCHEMAS,
  ...SYNC_TABLE_SCHEMAS,
  // the outbox as version 1 declared it (OUTBOX_TABLE_SCHEMAS is the newest: version 14 dropped the targetKey index)
  outbox: 'id, status, targetKey, seq',
  audit: '++seq, opId',
} as const;

/** Version 2: the same tables and indexes; search keys became folded words (see migrations.ts, v2FoldSearchKeys). */
export const SCHEMA_V2 = SCHEMA_V1;

/** Version 3 (issue 14): the change log of the last syncs, one row per sync (sync/log.ts), in sync order. */
export const SCHEMA_V3 = {
  syncChanges: '++seq',
} as const;

/**
 * Version 4 (issue 12): page fingerprints get a table of their own, one row per
 * page (its items' keys and hashes), written in the page's transaction; by
 * collection, to forget a collection's at once (sync/fingerprints.ts).
 */
export const SCHEMA_V4 = {
  pageFingerprints: 'key, collection',
} as const;

/**
 * Version 5 (issue 24): the coordinator's requirements (features/requirements/model.ts),
 * local only; by scope, to list a group's requirements at once.
 */
export const SCHEMA_V5 = {
  requirements: 'id, scope',
} as const;

/**
 * Version 6 (issue 38): the compliance history, written at every completed sync
 * (history/snapshot.ts). One row per sync, by day (the day "as of" a report looks
 * up); a person's versions by sync (a day rebuilt) and by person (their page);
 * the latest version of each person (what the next sync compares with); the
 * names and the requirements, a row each time they change.
 */
export const SCHEMA_V6 = {
  historySyncs: '++seq, day',
  historyPeople: '++id, seq, userid',
  historyHeads: 'userid',
  historyShared: '++id, seq',
} as const;

/**
 * Version 7 (issue 38): the same tables and indexes; a person's history row holds what changed of them, not
 * their whole record (see migrations.ts, v7HistoryChanges).
 */
export const SCHEMA_V7 = SCHEMA_V6;

/**
 * Version 8 (issue 38): the people whose findings change with the date on a day (an expiry coming), found by the
 * next day each head says they may change, so a snapshot recomputes them and the people the sync wrote only.
 */
export const SCHEMA_V8 = {
  historyHeads: 'userid, next',
} as const;

/**
 * Version 9 (issue 38's size target): the people's history rows packed, a sync's rows of one bucket of people in a
 * deflated row (history/packs.ts): by sync (a day rebuilt, the horizon) and by bucket (a person's page); their
 * findings and course names in a shorter encoding (see migrations.ts, v9HistoryCompact).
 */
export const SCHEMA_V9 = {
  historyPeople: null,
  historyPacks: '++id, seq, bucket',
} as const;

/**
 * Version 10 (issue 38): the people written since the last snapshot, kept on disk in the write's own transaction
 * (history/touched.ts), so the first snapshot of a window is not a full one.
 */
export const SCHEMA_V10 = {
  historyWritten: '++id',
} as const;

/**
 * Version 11 (issue 38's size target on a small site): a sync's figures kept as tuples of numbers
 * (history/sync-figures.ts); no index changes, the rows are rewritten (migrations.ts, v11HistoryFigures).
 */
export const SCHEMA_V11 = {} as const;

/**
 * Version 12 (issue 38's size target on a small site): the history's names and requirements rows kept deflated
 * (history/shared-rows.ts); no index changes, the rows are rewritten (migrations.ts, v12HistorySharedDeflated).
 */
export const SCHEMA_V12 = {} as const;

/**
 * Version 13 (issue 38's snapshot time): each head's fact kept in a compact binary form, no longer gzipped
 * (history/heads.ts); no index changes, the heads are rewritten (migrations.ts, v13HistoryHeadsCompact).
 */
export const SCHEMA_V13 = {} as const;

/**
 * Version 14 (issue 37, queueing 100,000 ops): the outbox without its targetKey index, which only an unused view hook
 * read. Every index entry is work of the browser's IndexedDB thread for each op queued (measured in
 * docs/benchmarks.md); the rows are kept as they are.
 */
export const SCHEMA_V14 = { outbox: OUTBOX_TABLE_SCHEMAS.outbox } as const;

/**
 * Version 15 (issue 38's snapshot time): a head keeps its person's fact only, no longer indexed by its next day;
 * everyone's findings and next day are in one record (history/head-state.ts), so a person whose findings change with
 * the date alone is not rewritten (migrations.ts, v15HistoryHeadState).
 */
export const SCHEMA_V15 = { historyHeads: 'userid', historyHeadState: 'id' } as const;

/**
 * Version 16 (issue 37, queueing 100,000 ops): a large batch's ops stored some hundred to a record
 * (shared/replay-queue/packs.ts), since the browser pays per record stored. Only adds the table.
 */
export const SCHEMA_V16 = { outboxPacks: OUTBOX_TABLE_SCHEMAS.outboxPacks } as const;

/**
 * Version 17 (issue 38's snapshot time): the record of everyone's findings and next day keeps each finding as its
 * place in a table of keys (history/head-state.ts), a third of its bytes; no table or index changes
 * (migrations.ts, v17HistoryHeadStateKeys).
 */
export const SCHEMA_V17 = {} as const;

/** The newest schema version this build declares (db/index.ts declares 1 to this one). */
export const SCHEMA_VERSION = 17;
