/**
 * THE contract between main and the renderer. One contract, three transports:
 * Electron ipcMain/preload in the app, a loopback WebSocket in the browser
 * harness, direct calls in unit tests. Handlers never know which one carries them.
 *
 * Every request channel has a zod schema for its argument (validated by the one
 * wrapper that registers handlers) and a result type. Every result crosses as
 * `{ ok: true, value } | { ok: false, error }`.
 */
import { z } from 'zod';
import type { StatusBody } from './api/codes.ts';
import type { CollectionName, CollectionRecordMap, EmailRecord } from './records.ts';
import { COLLECTIONS } from './records.ts';
import { PDF_PAGE_SIZES } from './report-pdf.ts';
import { MAX_ACKS_PER_MESSAGE, MAX_IPC_MESSAGE_BYTES } from './ipc-limits.ts';
import { id, text } from './op-kinds/payload-fields.ts';
import { userCreateSchema, userUpdateSchema } from './op-kinds/user.schema.ts';
import { emailAddSchema, emailRemoveSchema } from './op-kinds/email.schema.ts';
import { groupAccessGrantSchema, groupAccessRevokeSchema } from './op-kinds/group-access.schema.ts';
import { moduleAccessGrantSchema, moduleAccessRevokeSchema } from './op-kinds/module-access.schema.ts';
import {
  credentialAssignmentCreateSchema,
  credentialAssignmentDeleteSchema,
  credentialAssignmentUpdateSchema,
} from './op-kinds/credential-assignment.schema.ts';
import {
  trainingAssignmentCreateSchema,
  trainingAssignmentDeleteSchema,
  trainingAssignmentUpdateSchema,
} from './op-kinds/training-assignment.schema.ts';
import {
  ITEM_HASH_CHARS,
  MAX_FINGERPRINT_ITEMS_PER_MESSAGE,
  MAX_FINGERPRINT_PAGES,
  MAX_PAGE_ITEMS,
} from './page-fingerprints.ts';

// ---------- results and errors ----------

export const ERROR_CODES = [
  'invalid-argument', // the request's argument failed the contract's schema
  'forbidden-sender', // not the app's main frame / origin
  'unknown-channel',
  'no-profile', // nothing to talk to: add a profile or try the demo
  'keychain-unavailable', // no Secret Service / keychain: no insecure fallback
  'token-missing', // 801: the API saw no token
  'token-rejected', // 802: the API does not know this token (revoked, mistyped)
  'access-denied', // 800: that record is not ours, or the token's access level forbids it
  'not-found', // 901 on a single record / unknown id
  'rejected', // 1000/1001/1005/704/705/90x: the API refused the request as invalid
  'duplicate', // 1002: already there
  'dependents-first', // 1004
  'rate-limited', // 429
  'server', // 5xx, 1006
  'network', // connection refused, dropped, DNS
  'timeout',
  'malformed-response', // the answer failed validation: not stored
  // a redirect, a web page, another content type, a proxy's repeated page: something else answered; the sync
  // stops, prunes nothing
  'not-the-api',
  'conflict',
  'cancelled',
  'busy', // e.g. a sync already running
  'working-offline', // the profile is set to work offline: nothing is fetched or sent until it is turned off
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface AppError {
  code: ErrorCode;
  /** A sentence for the user. Never contains the token or a stack trace. */
  message: string;
  httpcode?: number;
  statuscode?: number;
  /** The API's status body when there was one. */
  response?: StatusBody;
  /** For rate limiting: how long the server asked us to wait. */
  retryAfterMs?: number;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

// ---------- shared shapes ----------

export type TokenAccess = 'unknown' | 'full' | 'readonly' | 'feature';

export interface ProfileSummary {
  id: string;
  name: string;
  baseUrl: string;
  hasToken: boolean;
  /** masked tail, e.g. "••••3kQ=" — all the renderer ever learns of the token */
  tokenHint: string | null;
  isDemo: boolean;
  /** what the app has learnt of the token's access level (read-only is a normal case) */
  access: TokenAccess;
  /** "Work offline" is on: main fetches and sends nothing for this profile until it is turned off */
  workOffline: boolean;
  /** the sites kept on this laptop (absent: every site the token sees) */
  keptSites?: number[];
}

/** A profile can keep at most this many sites by id (more: keep them all). */
export const MAX_KEPT_SITES = 1_000;

/** The sites a profile's token sees, for choosing the ones this laptop keeps. */
export interface ProfileSites {
  sites: { siteid: number; name: string }[];
  /** null: every site is kept */
  keptSites: number[] | null;
  /**
   * the token sees more people than a laptop keeps comfortably (counted from the first pages): ask which sites, rather
   * than take all
   */
  manyRecords: boolean;
}

/** Usernames and e-mails one `identities:check` asks about, at most (the renderer asks a large file's in several). */
export const MAX_IDENTITIES_PER_CHECK = 5_000;

/**
 * What main's light index of the sites whose records this laptop does not hold
 * says about some usernames and e-mails (issue 28): who holds one is not said,
 * only at which site; no record of such a site crosses IPC.
 */
export interface IdentitiesCheck {
  /** values someone at such a site holds (as asked), with that site's name */
  held: { field: 'username' | 'email'; value: string; sitename: string }[];
  /** such sites whose people are not known on this laptop (no sync has read them yet, or their list failed): by name */
  unknownSites: string[];
  /** the profile keeps some sites and no sync has filled the index yet: none of the other sites can be checked */
  notSynced: boolean;
  /** when a sync last read the people of the sites asked about, the oldest of them (null: never) */
  syncedAt: string | null;
}

export interface ProfilesState {
  profiles: ProfileSummary[];
  activeId: string | null;
  keychain: KeychainStatus;
}

export interface KeychainStatus {
  available: boolean;
  /** why not, in the user's words */
  message?: string;
  /** why not: none running ('absent'), locked, or no answer after a long wait (an unlock prompt left open?) */
  reason?: 'absent' | 'locked' | 'no-answer';
}

export interface ConnectionStatus {
  online: boolean;
  checkedAt: string;
  profileId: string | null;
  error?: AppError;
  /** offline on purpose ("Work offline"): nothing was probed */
  workingOffline?: boolean;
}

// ---------- sync ----------

/** Progress of one resumable unit of a sync (a collection over one scope: a site, a credential, a group...). */
export interface TaskCheckpoint {
  taskId: string;
  collection: CollectionName;
  /** 1-based startrow of the next page to fetch */
  nextStartrow: number;
  done: boolean;
}

export interface SyncTaskSummary {
  taskId: string;
  collection: CollectionName;
  path: string;
}

export type CollectionState = 'pending' | 'running' | 'complete' | 'failed' | 'cancelled';

export interface CollectionProgress {
  state: CollectionState;
  records: number;
  pages: number;
  /** known total (from counts such as usercount, or the previous sync), else null */
  total: number | null;
  error?: AppError;
}

export type SyncPhase = 'planning' | 'fetching' | 'finishing' | 'completed' | 'cancelled' | 'failed';

export interface SyncProgress {
  syncId: string;
  phase: SyncPhase;
  /** the collection most recently worked on */
  collection: CollectionName | null;
  records: number;
  pages: number;
  requests: number;
  /** the plan's own request count, known once the plan is complete (lists such as credentials expand the plan) */
  plannedRequests: number | null;
  /** records per second over the sync so far */
  rate: number;
  /** sum of known totals, for "N of M" */
  total: number | null;
  collections: Partial<Record<CollectionName, CollectionProgress>>;
  /** what the sync is waiting on right now, e.g. "… retrying (2 of 4)"; absent when nothing is amiss */
  notice?: string;
}

type PageOf<K extends CollectionName> = {
  collection: K;
  records: CollectionRecordMap[K][];
} & (K extends 'users' ? UsersPageExtra : unknown);

/** What a message of users carries besides them. */
interface UsersPageExtra {
  /**
   * For each of the message's users whose item listed its e-mails by id: those
   * ids, a complete read of the user's e-mails (they came in earlier messages
   * of the same page). A cached e-mail of theirs not listed is removed with
   * the users' write. A user whose item listed a bare address is left out.
   */
  emailsListed?: UserEmailsListed[];
}

export interface UserEmailsListed {
  userid: number;
  emailids: number[];
}

/** A collection and records of its own type (one message holds records of one collection). */
export type PageRecords = { [K in CollectionName]: PageOf<K> }[CollectionName];

/** What every message of a page carries. */
interface SyncPageEnvelope {
  syncId: string;
  pageId: number;
  taskId: string;
  checkpoint: TaskCheckpoint;
}

/**
 * The fingerprint of a written page (of this task, from `startrow`), with its items: the renderer stores it with the
 * records, in one transaction.
 */
export interface WrittenPageFingerprint {
  startrow: number;
  hash: string;
  keys: (string | number)[];
  /** ITEM_HASH_CHARS characters per item */
  hashes: string;
  /** FINGERPRINT_VERSION of the build that made it */
  version: number;
}

/**
 * A message of a page whose records are written: all of them, or one part of
 * a page split to fit a message (only the last part moves the checkpoint on).
 * A page may carry no records (a task that ended on a full page).
 */
export type SyncRecordsEvent = SyncPageEnvelope &
  PageRecords & {
    kind: 'records';
    /**
     * On the page's last message (of a page with fingerprints): the page's
     * items. On the others it names the page with no hash, so a page half
     * written has no fingerprint.
     */
    fingerprint?: WrittenPageFingerprint | { startrow: number; hash: null };
    /**
     * Primary keys of the task collection's records the page held but this
     * message does not carry, because the cache holds them exactly as they are
     * (these items' hashes matched): they count as delivered.
     */
    unchangedKeys?: (string | number)[];
  };

/**
 * Pages of one task unchanged as a whole (their body hashed as the fingerprint
 * the cache was written from): no records, only their keys, which count as
 * delivered. `fingerprint` names the first page and `also` the next ones the
 * same message stands for; the checkpoint is the last one's.
 */
export interface SyncUnchangedEvent extends SyncPageEnvelope {
  kind: 'unchanged';
  collection: CollectionName;
  records: never[];
  unchangedKeys: (string | number)[];
  fingerprint: { startrow: number; hash: string | null; also?: number[] };
}

/**
 * One validated page (or part of one), streamed to the renderer. The renderer
 * writes it (records and checkpoint in one transaction) and then acknowledges
 * `pageId`. Pages of one task arrive in startrow order; the checkpoint says
 * where that task resumes.
 */
export type SyncPageEvent = SyncRecordsEvent | SyncUnchangedEvent;

// one page's fingerprint, with the rules that read it (page-fingerprints.ts)
export type { PageFingerprint, PageFingerprintText } from './page-fingerprints.ts';

export interface SyncFinishedEvent {
  syncId: string;
  outcome: 'completed' | 'cancelled' | 'failed';
  requests: number;
  plannedRequests: number | null;
  collections: Partial<Record<CollectionName, CollectionProgress>>;
  error?: AppError;
}

// ---------- outbox operations (executed by main's replay) ----------

export const OP_KINDS = [
  'user.update',
  'user.create',
  'email.add',
  'email.remove',
  'groupAccess.grant',
  'groupAccess.revoke',
  'moduleAccess.grant',
  'moduleAccess.revoke',
  'credentialAssignment.create',
  'credentialAssignment.update',
  'credentialAssignment.delete',
  'trainingAssignment.create',
  'trainingAssignment.update',
  'trainingAssignment.delete',
] as const;
export type OpKind = (typeof OP_KINDS)[number];
// A new kind needs its definition in OP_KIND_TABLE (src/shared/op-kinds.ts): the compiler says so.

/**
 * Payloads per kind (each defined in its kind's module, src/shared/op-kinds/): the fields sent to the API and
 * the keys of the target.
 */
export const opSpecSchema = z.discriminatedUnion('kind', [
  userUpdateSchema,
  userCreateSchema,
  emailAddSchema,
  emailRemoveSchema,
  groupAccessGrantSchema,
  groupAccessRevokeSchema,
  moduleAccessGrantSchema,
  moduleAccessRevokeSchema,
  credentialAssignmentCreateSchema,
  credentialAssignmentUpdateSchema,
  credentialAssignmentDeleteSchema,
  trainingAssignmentCreateSchema,
  trainingAssignmentUpdateSchema,
  trainingAssignmentDeleteSchema,
]);
export type OpSpec = z.infer<typeof opSpecSchema>;

/**
 * What the replay asks main to do with one queued operation.
 * `base`: the values the edit was made from (conflict check).
 * `verifyFirst`: the request may have reached the server before (timeout, crash
 * while sending): check the server's state before sending it again.
 * `resolution`: after a conflict, 'mine' sends without the base check.
 */
export const replayRequestSchema = z.strictObject({
  opId: z.string().min(1).max(100),
  op: opSpecSchema,
  base: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  verifyFirst: z.boolean(),
  resolution: z.enum(['mine']).optional(),
});
export type ReplayRequest = z.infer<typeof replayRequestSchema>;

export type ReplayOutcome =
  | {
      status: 'done';
      response?: StatusBody;
      createdId?: number | string;
      alreadyApplied?: boolean;
      after?: Record<string, unknown>;
      /**
       * records read back after the op, as the platform now holds them (side effects included): the person it touched
       */
      readBack?: { user?: Record<string, unknown> };
    }
  | { status: 'conflict'; theirs: Record<string, unknown>; fields: string[] }
  | { status: 'needs-review'; error: AppError }
  /** maybeSent: the write may have reached the server (verify before sending again); false when it surely did not */
  | { status: 'retry'; error: AppError; maybeSent?: boolean }
  | { status: 'paused'; error: AppError };

/** Most ops one `replay:executeBatch` message carries (with their outcomes, well under MAX_IPC_MESSAGE_BYTES). */
export const MAX_REPLAY_BATCH = 256;

/**
 * Many queued operations at once: main reads the records they share through
 * list routes, sends them with its bounded network concurrency, and streams
 * each outcome back (`replay:outcomes`) as it completes. Op ids are unique
 * within a batch: each names the one outcome it gets. A batch names the profile
 * whose outbox it comes from: main sends it only while that profile is the active one.
 */
export const replayBatchSchema = z
  .strictObject({
    batchId: z.string().min(1).max(100),
    profileId: z.string().min(1).max(100),
    requests: z.array(replayRequestSchema).min(1).max(MAX_REPLAY_BATCH),
  })
  .refine((batch) => new Set(batch.requests.map((r) => r.opId)).size === batch.requests.length, {
    message: 'Each op of a batch has its own id.',
  });

/** The outcome of one op of a batch. */
export interface ReplayBatchOutcome {
  opId: string;
  outcome: ReplayOutcome;
}

/** Outcomes of a batch, streamed as they complete (main -> renderer). */
export interface ReplayOutcomesEvent {
  batchId: string;
  outcomes: ReplayBatchOutcome[];
}

/**
 * The answer to `replay:executeBatch`, once every op has its outcome: those not streamed yet (each op's outcome comes
 * exactly once, here or in an event).
 */
export type ReplayBatchResult = ReplayOutcomesEvent;

/**
 * What the server (or the cache) holds for an op's target: absent, or present with its fields (in the op's field
 * names).
 */
export type RecordState =
  { present: false } | { present: true; record: Record<string, unknown>; id?: number | string };

// ---------- the demo's "another admin" ----------

/** What another admin can do to the demo site's server, by name (the demo profile only). */
export const DEMO_SERVER_SCENARIOS = [
  'rename-people',
  'change-status',
  'renew-credential',
  'remove-credential',
  'delete-person',
  'change-pending',
] as const;
export type DemoServerScenario = (typeof DEMO_SERVER_SCENARIOS)[number];

/** What the scenario changed on the demo server, in the coordinator's words (one line per record). */
export interface DemoServerChange {
  scenario: DemoServerScenario;
  changes: string[];
}

// ---------- request channels ----------

const profileId = z.string().min(1).max(100);

export const requestSchemas = {
  'profiles:list': z.undefined(),
  'profiles:save': z.strictObject({
    id: profileId.optional(),
    name: z.string().trim().min(1).max(100),
    baseUrl: z.string().trim().min(1).max(2000),
    /** omitted on edit: keep the stored token */
    token: z.string().min(1).max(4096).optional(),
  }),
  'profiles:delete': z.strictObject({ id: profileId }),
  'profiles:activate': z.strictObject({ id: profileId }),
  /** the sites the profile's token sees, and which of them it keeps (asks the server) */
  'profiles:sites': z.strictObject({ id: profileId }),
  /** the sites this laptop keeps for the profile (null: all); each must be one the token sees */
  'profiles:setKeptSites': z.strictObject({
    id: profileId,
    siteids: z.array(id).min(1).max(MAX_KEPT_SITES).nullable(),
  }),
  'demo:start': z.undefined(),
  /** "Work offline" on or off for a profile (kept in main's settings: main enforces it) */
  'profiles:setWorkOffline': z.strictObject({ id: profileId, offline: z.boolean() }),
  /**
   * The demo only: change its server's data as another admin would. `pending`:
   * the people the renderer has unsent changes for (and the status it queued,
   * if any): 'change-pending' changes the first of them, the others leave them be.
   */
  'demo:serverChange': z.strictObject({
    scenario: z.enum(DEMO_SERVER_SCENARIOS),
    pending: z
      .array(z.strictObject({ userid: id, status: text(50).optional() }))
      .max(20)
      .optional(),
  }),
  'connection:probe': z.undefined(),
  'sync:start': z.strictObject({
    checkpoints: z
      .array(
        z.strictObject({
          taskId: z.string().max(200),
          collection: z.enum(COLLECTIONS),
          nextStartrow: z.number().int().min(1),
          done: z.boolean(),
        }),
      )
      .max(100_000)
      .optional(),
    previousTotals: z.partialRecord(z.enum(COLLECTIONS), z.number().int().min(0)).optional(),
    /**
     * The renderer sends page fingerprints next (`sync:fingerprints`, the last
     * message with their `total`), read while main starts: the lists' answers
     * wait for them (a few seconds at most).
     */
    fingerprintsFollow: z.literal(true).optional(),
    concurrency: z.number().int().min(1).max(16).optional(),
    /**
     * A profile keeping some sites: read the usernames and e-mails of the sites
     * not kept again now, however recently a sync read them (otherwise after 12
     * hours: main/sync/identities.ts). The import asks for it.
     */
    refreshIdentities: z.literal(true).optional(),
  }),
  /**
   * Page fingerprints for the sync just started: what each page held when last
   * written (a page or an item that still hashes the same is not sent again).
   * Several messages (fingerprintMessages): a large cache holds megabytes.
   */
  'sync:fingerprints': z.strictObject({
    syncId: z.string().max(100),
    fingerprints: z
      .array(
        z.strictObject({
          taskId: z.string().max(200),
          startrow: z.number().int().min(1),
          hash: z.string().max(100).nullable(),
          // JSON text of the keys (checked in main, readFingerprint: a task with a page that does not read is used for
          // nothing)
          keys: z.string().max(MAX_IPC_MESSAGE_BYTES),
          hashes: z.string().max(MAX_PAGE_ITEMS * ITEM_HASH_CHARS),
          version: z.number().int().min(0),
        }),
      )
      .max(MAX_FINGERPRINT_PAGES)
      .refine(
        (list) =>
          list.reduce((n, f) => n + f.hashes.length / ITEM_HASH_CHARS, 0) <=
          MAX_FINGERPRINT_ITEMS_PER_MESSAGE,
        'too many items in one message',
      ),
    /** on the last message only: how many fingerprints all the messages held (fewer arrived: none is used) */
    total: z.number().int().min(0).max(MAX_FINGERPRINT_PAGES).optional(),
  }),
  'sync:cancel': z.strictObject({ syncId: z.string().max(100) }),
  /** pages written (in any order): several at once when the renderer had more waiting (a run of unchanged pages) */
  'sync:ack': z.strictObject({
    syncId: z.string().max(100),
    pageIds: z.array(z.number().int().min(0)).min(1).max(MAX_ACKS_PER_MESSAGE),
  }),
  'users:detail': z.strictObject({ userid: id }),
  'replay:execute': replayRequestSchema,
  'replay:executeBatch': replayBatchSchema,
  /** the server's current state of an op's target (the undo preview's check; nothing is written) */
  'replay:read': z.strictObject({ op: opSpecSchema }),
  /**
   * The import's uniqueness check against the sites this laptop does not hold
   * (`cachedSites`: those it holds): answered from main's index, offline too.
   */
  'identities:check': z.strictObject({
    usernames: z.array(z.string().min(1).max(320)).max(MAX_IDENTITIES_PER_CHECK),
    emails: z.array(z.string().min(1).max(320)).max(MAX_IDENTITIES_PER_CHECK),
    cachedSites: z.array(id).max(MAX_KEPT_SITES),
  }),
  /** print the report view showing in the window to a PDF and save it where the user picks (desktop app only) */
  'report:savePdf': z.strictObject({
    pageSize: z.enum(PDF_PAGE_SIZES),
    fileName: z.string().min(1).max(200),
  }),
} as const;

export interface UserDetailOnline {
  userid: number;
  emails: EmailRecord[];
  fetchedAt: string;
}

export interface SyncStarted {
  syncId: string;
  tasks: SyncTaskSummary[];
}

/** Result type of each request channel. */
export interface RequestResults {
  'profiles:list': ProfilesState;
  'profiles:save': ProfileSummary;
  'profiles:delete': ProfilesState;
  'profiles:activate': ProfileSummary;
  'profiles:sites': ProfileSites;
  'profiles:setKeptSites': ProfileSummary;
  'demo:start': ProfileSummary;
  'profiles:setWorkOffline': ProfileSummary;
  'demo:serverChange': DemoServerChange;
  'connection:probe': ConnectionStatus;
  'sync:start': SyncStarted;
  'sync:fingerprints': null;
  'sync:cancel': null;
  'sync:ack': null;
  'users:detail': UserDetailOnline;
  'replay:execute': ReplayOutcome;
  'replay:executeBatch': ReplayBatchResult;
  'replay:read': RecordState;
  'report:savePdf': { saved: boolean; fileName?: string };
  'identities:check': IdentitiesCheck;
}

export type Channel = keyof typeof requestSchemas;
export const CHANNELS = Object.keys(requestSchemas) as Channel[];
export type RequestArg<C extends Channel> = z.input<(typeof requestSchemas)[C]>;
export type ParsedArg<C extends Channel> = z.output<(typeof requestSchemas)[C]>;

// ---------- events (main -> renderer) ----------

export interface EventPayloads {
  'sync:page': SyncPageEvent;
  'sync:progress': SyncProgress;
  'sync:finished': SyncFinishedEvent;
  'connection:changed': ConnectionStatus;
  'profiles:changed': ProfilesState;
  'replay:outcomes': ReplayOutcomesEvent;
}
export type EventName = keyof EventPayloads;
export const EVENTS = [
  'sync:page',
  'sync:progress',
  'sync:finished',
  'connection:changed',
  'profiles:changed',
  'replay:outcomes',
] as const satisfies readonly EventName[];

export { MAX_IPC_MESSAGE_BYTES } from './ipc-limits.ts';

// ---------- the API the renderer sees (window.fieldbook) ----------

export type FieldbookApi = {
  [C in Channel]: RequestArg<C> extends undefined
    ? () => Promise<Result<RequestResults[C]>>
    : (arg: RequestArg<C>) => Promise<Result<RequestResults[C]>>;
} & {
  on: { [E in EventName]: (listener: (payload: EventPayloads[E]) => void) => () => void };
};

/** Main side: what the handlers implement, independent of any transport. */
export type Handlers = {
  [C in Channel]: (arg: ParsedArg<C>, ctx: HandlerContext) => Promise<RequestResults[C]>;
};

export interface HandlerContext {
  /** send an event to the renderer that made the request */
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void;
}
