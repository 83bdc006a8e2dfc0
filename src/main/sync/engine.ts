/**
 * The sync engine: runs the plan's tasks with bounded concurrency, streams
 * each validated page to the renderer as `sync:page` events (in start-row order
 * per task, split to fit one IPC message), waits for acknowledgements so it is
 * never more than a few pages ahead of the writes, and reports progress.
 *
 * A failing list (800 on one module, a malformed page) fails its collection and
 * those it would have created; the rest carries on. A missing or rejected token
 * (801/802) or a lost network stops the whole sync: the renderer keeps its cache
 * and the checkpoints let the next sync resume. Cancel stops within one page.
 */
import type {
  AppError,
  HandlerContext,
  PageFingerprint,
  UserEmailsListed,
  PageFingerprintText,
  SyncFinishedEvent,
  SyncPhase,
  SyncRecordsEvent,
  SyncUnchangedEvent,
  SyncProgress,
  SyncTaskSummary,
  TaskCheckpoint,
} from '../../shared/ipc.ts';
import { MAX_IPC_MESSAGE_BYTES } from '../../shared/ipc.ts';
import type { CollectionName } from '../../shared/records.ts';
import { ApiError } from '../api/errors.ts';
import { UnreadableRecord } from '../api/record-issue.ts';
import { toAppError } from '../ipc/errors.ts';
import { containsSecretDeep } from '../secrets/scrub.ts';
import type { ApiClient, RetryNotice } from '../api/client.ts';
import { AckWindow, RequestLanes, shareOfPage, type LaneAside } from './flow.ts';
import { readList, type FetchedPage, type PagerPage } from './pager.ts';
import { KnownItem, recordKeyOfItemKey, skippable } from './page-keys.ts';
import {
  DEFAULT_PAGING,
  expandsPlan,
  plannedRequests,
  remainingHint,
  type PagingOptions,
  type TaskOutcome,
} from './plan.ts';
import { collectionProgress, type CollectionCounters, type TaskState } from './progress.ts';
import { splitBatch } from './split.ts';
import { PageComparer, type AnyItem, type PageItem } from './compare.ts';
import { FINGERPRINT_VERSION } from '../../shared/page-fingerprints.ts';
import { KeptPeople } from './kept.ts';
import { NameBook, collectionFailure, fatalInWords, retryNotice, tokenInPage } from './names.ts';
import type { IdentityCollector } from './identities.ts';
import {
  KIND_SPECS,
  announcedTotals,
  childTasks,
  collectionsUnder,
  emailsListedOf,
  itemKey,
  rootTasks,
  toRecords,
  type SyncTask,
} from './tasks.ts';

export interface SyncOptions {
  syncId: string;
  client: Pick<ApiClient, 'getPage'>;
  emit: HandlerContext['emit'];
  /** requests in flight at once (default 4) */
  concurrency?: number;
  paging?: Partial<PagingOptions>;
  /** pages sent to the renderer and not yet acknowledged (default 4) */
  maxUnacked?: number;
  /** largest `sync:page` message, in bytes of JSON */
  maxMessageBytes?: number;
  checkpoints?: TaskCheckpoint[];
  /**
   * what each page held when the renderer last wrote it: a page hashing the same is sent as keys only, and so is an
   * item
   */
  fingerprints?: PageFingerprint[];
  /**
   * the renderer sends fingerprints after the start (`addFingerprints`, the last message with their total): lists'
   * answers wait for them
   */
  fingerprintsFollow?: boolean;
  /**
   * how long lists wait for those (default 10 s); then they go on without any (a task's fingerprints must all be here
   * to be used)
   */
  fingerprintWaitMs?: number;
  previousTotals?: Partial<Record<CollectionName, number>>;
  /**
   * Rows each list had in this profile's last pass (by task id): sizes the lists
   * no parent list announces (a site's users and training), so their pages are
   * asked through the sliding window instead of in waves. Only the paging
   * follows it: a list longer or shorter than this is still read to its end.
   */
  listSizes?: ReadonlyMap<string, number>;
  /** the sites the profile keeps (absent: every site the token sees) */
  keptSites?: readonly number[];
  /** sites not kept whose usernames and e-mails the identity index read recently: not read this pass */
  identitiesFresh?: readonly number[];
  /** gathers the usernames and e-mails of the sites' people for main's identity index (identities.ts) */
  identities?: IdentityCollector;
  now?: () => number;
}

/** Failures that no other list would survive: stop the sync and keep the cache. */
const FATAL = new Set(['token-missing', 'token-rejected', 'network', 'timeout', 'not-the-api']);

/** Progress events of a running sync at most this often (state changes go at once). */
const PROGRESS_EVERY_MS = 100;

/** Room for the event's envelope (ids, checkpoint) around its records. */
const ENVELOPE_BYTES = 4_096;
/** Unchanged pages of one task that one message stands for, at most (see #holdUnchanged). */
const UNCHANGED_PAGES_PER_MESSAGE = 16;

/** Unchanged pages of one task, in order, not sent yet: one message will stand for them all. */
interface HeldUnchanged {
  startrows: number[];
  hash: string | null;
  keys: (string | number)[];
  /** the JSON size of `keys`, roughly */
  bytes: number;
  checkpoint: TaskCheckpoint;
}

interface TaskRun {
  task: SyncTask;
  state: TaskState;
  requests: number;
  /** rows the list had from the row it was read from (a resume reads from its checkpoint) */
  rows: number | null;
  /** the row it was read from */
  fromRow?: number;
  hint: number | null;
  error?: AppError;
}

/** The listed e-mails of these users (those whose item listed them by id). */
function usersEmailsListed(
  users: readonly { userid: number }[],
  listed: ReadonlyMap<number, number[]>,
): UserEmailsListed[] {
  const out: UserEmailsListed[] = [];
  for (const { userid } of users) {
    const emailids = listed.get(userid);
    if (emailids) out.push({ userid, emailids });
  }
  return out;
}

/** The most JSON bytes the users' listed e-mails take in a message (all of them in one). */
function emailsListedBytes(listed: ReadonlyMap<number, number[]>): number {
  let bytes = 0;
  for (const [userid, emailids] of listed)
    bytes += 32 + String(userid).length + JSON.stringify(emailids).length;
  return bytes;
}

export class SyncEngine {
  readonly syncId: string;
  readonly #opts: SyncOptions;
  readonly #paging: PagingOptions;
  readonly #requests: RequestLanes;
  readonly #window: AckWindow;
  readonly #controller = new AbortController();
  readonly #checkpoints: Map<string, TaskCheckpoint>;
  /** the fingerprints the renderer sent, and the comparison of each page with them (compare.ts) */
  readonly #comparer: PageComparer;
  readonly #now: () => number;
  readonly #maxBytes: number;
  readonly #maxActive: number;
  /** a profile keeping some sites: their people, for the credential holders' rows (kept.ts) */
  readonly #kept: KeptPeople | null;
  /** the names of the sites, groups, features and credentials read so far, for messages (names.ts) */
  readonly #names = new NameBook();

  readonly #runs = new Map<string, TaskRun>();
  readonly #pending: TaskRun[] = [];
  #active = 0;
  #onIdle: (() => void) | null = null;

  readonly #counters: Partial<Record<CollectionName, CollectionCounters>> = {};
  readonly #errors: Partial<Record<CollectionName, AppError>> = {};
  readonly #announced: Partial<Record<CollectionName, number>> = {};
  #stopped: { outcome: 'cancelled' | 'failed'; error: AppError } | null = null;
  #phase: SyncPhase = 'planning';
  #lastCollection: CollectionName | null = null;
  #records = 0;
  #pages = 0;
  #requestCount = 0;
  #pageId = 0;
  /** per task: unchanged pages waiting to go as one message */
  readonly #heldUnchanged = new Map<string, HeldUnchanged>();
  #startedAt = 0;
  #lastAckAt = 0;
  /** shown while a request is being retried; cleared by the next page */
  #notice: string | null = null;
  /** when the last progress event left, and the one waiting to follow it */
  #progressAt = -Infinity;
  #progressTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(opts: SyncOptions) {
    this.syncId = opts.syncId;
    this.#opts = opts;
    this.#paging = { ...DEFAULT_PAGING, ...opts.paging };
    const concurrency = opts.concurrency ?? 4;
    this.#requests = new RequestLanes(concurrency);
    // a few more lists open than requests in flight, so small lists do not wait behind long ones
    this.#maxActive = concurrency * 2;
    this.#window = new AckWindow(opts.maxUnacked ?? 4);
    this.#checkpoints = new Map((opts.checkpoints ?? []).map((c) => [c.taskId, c]));
    this.#comparer = new PageComparer(opts, (task) => this.#names.describe(task));
    this.#now = opts.now ?? Date.now;
    this.#maxBytes = (opts.maxMessageBytes ?? MAX_IPC_MESSAGE_BYTES) - ENVELOPE_BYTES;
    this.#kept = opts.keptSites ? new KeptPeople() : null;
    for (const task of rootTasks(opts.previousTotals, opts.keptSites, opts.identitiesFresh)) this.#add(task);
  }

  /** The tasks known before any list is read (more are added as lists arrive). */
  initialTasks(): SyncTaskSummary[] {
    return [...this.#runs.values()].map(({ task }) => ({
      taskId: task.taskId,
      collection: task.collection,
      path: task.path,
    }));
  }

  /** The most pages that were ever sent and unacknowledged at once. */
  get peakUnacked(): number {
    return this.#window.peak;
  }

  /** Every task and how it ended (the handlers learn the token's access level from this). */
  taskRuns(): readonly Readonly<TaskRun>[] {
    return [...this.#runs.values()];
  }

  /**
   * Fingerprints the renderer sends after the start, in several messages, the
   * last with `total`, how many they all held. When fewer arrived (a message
   * refused or lost), none is used: a task known in part could hide a doubtful
   * item. Those arriving once lists have begun to use them (the last came, or
   * the wait ran out) are ignored.
   */
  addFingerprints(list: readonly PageFingerprintText[], total?: number): void {
    this.#comparer.add(list, total);
  }

  ack(pageId: number): void {
    this.#lastAckAt = this.#now();
    this.#window.ack(pageId);
  }

  /**
   * True when every page slot has waited `ms` for an acknowledgement: the
   * renderer that asked for this sync is gone (reloaded, closed), so a new
   * sync may replace this one.
   */
  stalled(ms: number): boolean {
    return this.#window.full && this.#now() - Math.max(this.#lastAckAt, this.#startedAt) >= ms;
  }

  cancel(): void {
    this.#stop('cancelled', {
      code: 'cancelled',
      message: 'The sync was cancelled. The next sync resumes where this one stopped.',
    });
  }

  async run(): Promise<SyncFinishedEvent> {
    this.#startedAt = this.#now();
    this.#progress(true);
    this.#phase = 'fetching';
    await new Promise<void>((resolve) => {
      this.#onIdle = resolve;
      this.#pump();
    });
    const stopped = this.#stopped;
    this.#phase = stopped ? stopped.outcome : 'completed';
    const finished: SyncFinishedEvent = {
      syncId: this.syncId,
      outcome: stopped ? stopped.outcome : 'completed',
      requests: this.#requestCount,
      plannedRequests: stopped ? null : this.plannedRequests(),
      collections: this.#collections(),
    };
    if (stopped) finished.error = stopped.error;
    else if (this.#checkpoints.size === 0) {
      // a fresh, complete pass counted every record: that is the total the next sync shows "N of M" against
      for (const c of Object.values(finished.collections))
        if (c.state === 'complete' && c.total === null) c.total = c.records;
    }
    this.#progress(true);
    this.#opts.emit('sync:finished', finished);
    return finished;
  }

  /** The plan's own request count (meaningful once every task has ended). */
  plannedRequests(): number {
    const outcomes: TaskOutcome[] = [];
    for (const run of this.#runs.values())
      outcomes.push({ rows: run.rows, hint: run.hint, requests: run.requests });
    return plannedRequests(outcomes, this.#paging);
  }

  /** Rows of each list this pass read whole, from its first row (for the next pass's `listSizes`). */
  listSizes(): Map<string, number> {
    const sizes = new Map<string, number>();
    for (const run of this.#runs.values())
      if (run.state === 'complete' && run.fromRow === 1 && run.rows !== null)
        sizes.set(run.task.taskId, run.rows);
    return sizes;
  }

  #add(announced: SyncTask): void {
    if (this.#runs.has(announced.taskId)) return;
    const task =
      announced.hint === null
        ? { ...announced, hint: this.#opts.listSizes?.get(announced.taskId) ?? null }
        : announced;
    const run: TaskRun = { task, state: 'pending', requests: 0, rows: null, hint: task.hint };
    this.#runs.set(task.taskId, run);
    this.#kept?.added(task);
    this.#pending.push(run);
  }

  #pump(): void {
    while (!this.#stopped && this.#active < this.#maxActive && this.#pending.length > 0) {
      const i = this.#nextPending();
      if (i < 0) break;
      const run = this.#pending.splice(i, 1)[0]!;
      this.#active++;
      void this.#runTask(run).finally(() => {
        this.#kept?.ended(run.task);
        this.#active--;
        this.#pump();
      });
    }
    if (this.#active === 0 && (this.#pending.length === 0 || this.#stopped)) this.#onIdle?.();
  }

  /**
   * Lists that grow the plan go first, so the plan is known early; holders of a kept site's people wait for them (-1:
   * none may start).
   */
  #nextPending(): number {
    const may = (r: TaskRun) => this.#kept?.mayStart(r.task) ?? true;
    const first = this.#pending.findIndex((r) => expandsPlan(r.task) && may(r));
    return first >= 0 ? first : this.#pending.findIndex(may);
  }

  async #runTask(run: TaskRun): Promise<void> {
    const { task } = run;
    const checkpoint = this.#checkpoints.get(task.taskId);
    const resumable = !expandsPlan(task);
    if (resumable && checkpoint?.done) {
      run.state = 'complete';
      run.rows = null;
      return;
    }
    const startrow = resumable && checkpoint ? checkpoint.nextStartrow : 1;
    run.fromRow = startrow;
    run.hint = remainingHint(task.hint, startrow);
    run.state = 'running';
    const signal = this.#controller.signal;
    try {
      const result = await readList<PageItem>(startrow, run.hint, this.#paging, {
        fetchPage: (s) =>
          this.#requests.run(signal, (aside) => {
            run.requests++;
            this.#requestCount++;
            const onRetry = (r: RetryNotice) => {
              this.#notice = retryNotice(task, this.#names.describe(task), r);
              this.#progress(true);
            };
            return this.#fetchPage(task, s, { onRetry, aside }, signal);
          }),
        keyOf: (item) => (item instanceof KnownItem ? item.key : itemKey(task, item)),
        onPage: (page) => this.#handlePage(run, page),
      });
      await this.#sendHeld(task);
      run.rows = result.rows;
      run.state = 'complete';
    } catch (err) {
      run.state = 'failed';
      if (signal.aborted) return;
      const error = toAppError(err);
      if (FATAL.has(error.code)) {
        this.#stop('failed', fatalInWords(error, task, this.#names.describe(task)));
        return;
      }
      // the pages read before the failure still count: a resume starts after them
      await this.#sendHeld(task).catch(() => undefined);
      run.error = error;
      this.#failCollections(task, error, err instanceof UnreadableRecord ? err.issue : undefined);
      this.#progress(true);
    }
  }

  /** `record`: the list was stopped by a record that could not be read, in words (UnreadableRecord) */
  #failCollections(task: SyncTask, error: AppError, record?: string): void {
    for (const collection of collectionsUnder(task.kind)) {
      if (this.#errors[collection]) continue;
      const own = KIND_SPECS[task.kind].fills.includes(collection);
      this.#errors[collection] = collectionFailure(error, task, this.#names.describe(task), own, record);
    }
  }

  async #handlePage(run: TaskRun, page: PagerPage<PageItem>): Promise<void> {
    const { task } = run;
    this.#notice = null;
    const full: AnyItem[] = [];
    const knownKeys: (string | number)[] = [];
    for (const item of page.items) {
      if (!(item instanceof KnownItem)) full.push(item);
      else {
        // record keys are made of numbers only (an assignment's link gives its user's id): no API text
        const key = recordKeyOfItemKey(task, item.key);
        // a holder known as received who is no longer a kept person is not delivered: the pass prunes them (kept.ts)
        if (key !== null && (this.#kept?.keeps(task, key) ?? true)) knownKeys.push(key);
      }
    }
    // a page that echoes the token (in any form the scrubber knows, in a key or a value) is not stored: it would sit in
    // IndexedDB.
    // Each string is checked as stored, not as JSON text, where a newline inside the token would read as "\n".
    // Known items store nothing new: they are those of a page that passed this check.
    if (full.length > 0 && containsSecretDeep(full)) {
      throw new ApiError(
        { code: 'malformed-response', message: tokenInPage(this.#names.describe(task), page.startrow) },
        { retryable: false },
      );
    }
    // the names of a page that passed the token check, before the lists it creates can fail
    this.#names.observe(task, full);
    this.#kept?.observe(task, full, knownKeys);
    this.#opts.identities?.observe(task, full, knownKeys.length);
    // a list read for main's identity index only: nothing of it leaves main
    if (KIND_SPECS[task.kind].fills.length === 0) {
      this.#pages++;
      this.#progress();
      return;
    }
    // only lists that neither grow the plan nor announce totals have known items (page-keys.ts)
    for (const child of childTasks(task, full)) this.#add(child);
    for (const [collection, n] of Object.entries(announcedTotals(task, full))) {
      const key = collection as CollectionName;
      this.#announced[key] = (this.#announced[key] ?? 0) + n;
    }
    this.#pump();
    if (page.unchanged) await this.#holdUnchanged(task, page, knownKeys);
    else {
      // the task's earlier pages go first: a checkpoint never passes one not sent
      await this.#sendHeld(task);
      await this.#sendRecords(task, page, full, knownKeys);
    }
    const counters = (this.#counters[task.collection] ??= { records: 0, pages: 0 });
    counters.pages++;
    this.#pages++;
    this.#progress();
  }

  /**
   * The page is what the cache holds: its keys (they count as delivered for
   * pruning) and its checkpoint go in one message with the task's next
   * unchanged pages (up to UNCHANGED_PAGES_PER_MESSAGE, within a message's
   * size), sent when a page that is not unchanged comes, the task ends, or it
   * is full. A message costs main, the bridge and the renderer about a
   * millisecond whatever it holds, and a resync of nothing changed is almost
   * only such pages.
   */
  async #holdUnchanged(task: SyncTask, page: PagerPage<PageItem>, keys: (string | number)[]): Promise<void> {
    const checkpoint: TaskCheckpoint = {
      taskId: task.taskId,
      collection: task.collection,
      nextStartrow: page.nextStartrow,
      done: page.done,
    };
    const bytes = keys.reduce<number>((n, k) => n + (typeof k === 'number' ? 16 : k.length + 8), 0);
    let held = this.#heldUnchanged.get(task.taskId);
    if (
      held &&
      (held.startrows.length >= UNCHANGED_PAGES_PER_MESSAGE || held.bytes + bytes > this.#maxBytes / 2)
    ) {
      await this.#sendHeld(task);
      held = undefined;
    }
    if (!held)
      this.#heldUnchanged.set(task.taskId, {
        startrows: [page.startrow],
        hash: page.hash ?? null,
        keys,
        bytes,
        checkpoint,
      });
    else {
      held.startrows.push(page.startrow);
      for (const k of keys) held.keys.push(k);
      held.bytes += bytes;
      held.checkpoint = checkpoint;
    }
    this.#count(task.collection, keys.length);
    if (page.done) await this.#sendHeld(task);
  }

  /** Sends the task's held unchanged pages as one message (nothing when none is held). */
  async #sendHeld(task: SyncTask): Promise<void> {
    const held = this.#heldUnchanged.get(task.taskId);
    if (!held) return;
    this.#heldUnchanged.delete(task.taskId);
    const pageId = this.#pageId++;
    await this.#window.send(pageId, this.#controller.signal, 0);
    if (this.#controller.signal.aborted) return;
    const [startrow, ...also] = held.startrows;
    const fingerprint = { startrow: startrow!, hash: held.hash, ...(also.length > 0 ? { also } : {}) };
    const event: SyncUnchangedEvent = {
      kind: 'unchanged',
      syncId: this.syncId,
      pageId,
      taskId: task.taskId,
      checkpoint: held.checkpoint,
      collection: task.collection,
      records: [],
      unchangedKeys: held.keys,
      fingerprint,
    };
    this.#opts.emit('sync:page', event);
  }

  #count(collection: CollectionName, records: number): void {
    const counters = (this.#counters[collection] ??= { records: 0, pages: 0 });
    counters.records += records;
    this.#records += records;
    this.#lastCollection = collection;
  }

  /** One page of a task: compared with the cache's fingerprints when its list has them (compare.ts). */
  async #fetchPage(
    task: SyncTask,
    startrow: number,
    lane: { onRetry: (r: RetryNotice) => void; aside: LaneAside },
    signal: AbortSignal,
  ): Promise<FetchedPage<PageItem>> {
    const options = { startrow, limit: this.#paging.limit, onRetry: lane.onRetry };
    if (!skippable(task))
      return this.#opts.client.getPage(task.path, task.wrapperKey, task.schema, options, signal);
    return this.#comparer.fetchPage(
      this.#opts.client,
      task,
      { ...options, aside: lane.aside },
      signal,
      this.#kept?.filterFor(task),
    );
  }

  /**
   * A page's validated items as records, split to fit one message each. The
   * last message carries the keys of the items the cache already holds and,
   * for a page with a fingerprint, its items' keys and hashes for the renderer
   * to store with the records.
   */
  async #sendRecords(
    task: SyncTask,
    page: PagerPage<PageItem>,
    items: AnyItem[],
    knownKeys: (string | number)[],
  ): Promise<void> {
    const listed = page.listed && page.hash !== undefined ? page.listed : undefined;
    const emailsListed = emailsListedOf(task, items);
    // room for what only the last message carries, and for the users' listed e-mails (at most all of them in one
    // message)
    const extra =
      knownKeys.length * 12 +
      (listed ? JSON.stringify(listed.keys).length + listed.hashes.length : 0) +
      emailsListedBytes(emailsListed);
    // every chunk but the last keeps the checkpoint where it was: a crash between them re-reads the page
    const records = this.#kept ? this.#kept.keep(task, toRecords(task, items)) : toRecords(task, items);
    const chunks = records.flatMap((batch) => splitBatch(batch, this.#maxBytes - extra));
    const nonEmpty = chunks.filter((c, i) => c.records.length > 0 || i === chunks.length - 1);
    for (let i = 0; i < nonEmpty.length; i++) {
      const chunk = nonEmpty[i]!;
      const last = i === nonEmpty.length - 1;
      const checkpoint: TaskCheckpoint = {
        taskId: task.taskId,
        collection: task.collection,
        nextStartrow: last ? page.nextStartrow : page.startrow,
        done: last && page.done,
      };
      const pageId = this.#pageId++;
      await this.#window.send(
        pageId,
        this.#controller.signal,
        shareOfPage(chunk.records, this.#paging.limit, this.#maxBytes),
      );
      if (this.#controller.signal.aborted) return;
      // toRecords pairs each collection with its own record type; the split keeps the pairing
      const event: SyncRecordsEvent = {
        kind: 'records',
        syncId: this.syncId,
        pageId,
        taskId: task.taskId,
        checkpoint,
        ...chunk,
      };
      if (event.collection === 'users' && emailsListed.size > 0)
        event.emailsListed = usersEmailsListed(event.records, emailsListed);
      if (last && knownKeys.length > 0) event.unchangedKeys = knownKeys;
      // the fingerprint goes with the page's last message: a page half written has none
      if (listed)
        event.fingerprint = last
          ? {
              startrow: page.startrow,
              hash: page.hash!,
              keys: listed.keys,
              hashes: listed.hashes,
              version: FINGERPRINT_VERSION,
            }
          : { startrow: page.startrow, hash: null };
      this.#opts.emit('sync:page', event);
      this.#count(chunk.collection, chunk.records.length + (last ? knownKeys.length : 0));
    }
  }

  #stop(outcome: 'cancelled' | 'failed', error: AppError): void {
    if (this.#stopped) return;
    this.#stopped = { outcome, error };
    this.#comparer.stop();
    this.#controller.abort(new ApiError(error, { retryable: false }));
    this.#pump();
  }

  #collections() {
    return collectionProgress({
      tasks: [...this.#runs.values()].map((r) => ({ kind: r.task.kind, state: r.state })),
      counters: this.#counters,
      errors: this.#errors,
      totals: this.#totals(),
      stopped: this.#stopped?.outcome ?? null,
      ...(this.#stopped?.outcome === 'failed' ? { stoppedBy: this.#stopped.error } : {}),
    });
  }

  #totals(): Partial<Record<CollectionName, number>> {
    return { ...this.#opts.previousTotals, ...this.#announced };
  }

  /**
   * The progress event: at once for a change of state (start, end, a failed
   * list, a retry), else at most every PROGRESS_EVERY_MS, the last one always
   * sent (a page takes a few ms; nobody reads a hundred updates a second).
   */
  #progress(now = false): void {
    const since = performance.now() - this.#progressAt;
    if (!now && since < PROGRESS_EVERY_MS) {
      this.#progressTimer ??= setTimeout(() => this.#progress(true), PROGRESS_EVERY_MS - since);
      return;
    }
    if (this.#progressTimer) clearTimeout(this.#progressTimer);
    this.#progressTimer = undefined;
    this.#progressAt = performance.now();
    const elapsed = Math.max(0.001, (this.#now() - this.#startedAt) / 1000);
    const totals = Object.values(this.#totals());
    const done =
      !this.#stopped && this.#active === 0 && this.#pending.length === 0 && this.#phase !== 'planning';
    const progress: SyncProgress = {
      syncId: this.syncId,
      phase: this.#phase,
      collection: this.#lastCollection,
      records: this.#records,
      pages: this.#pages,
      requests: this.#requestCount,
      plannedRequests: done ? this.plannedRequests() : null,
      rate: Math.round(this.#records / elapsed),
      total: totals.length > 0 ? totals.reduce((a, b) => a + b, 0) : null,
      collections: this.#collections(),
    };
    if (this.#notice !== null && !this.#stopped) progress.notice = this.#notice;
    this.#opts.emit('sync:progress', progress);
  }
}
