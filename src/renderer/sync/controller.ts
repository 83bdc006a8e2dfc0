/**
 * Drives a sync from the renderer's side: starts (or resumes) it, writes each
 * streamed page before acknowledging it (backpressure: main never runs far
 * ahead of the writes), and closes the pass. Its parts, each of one concern:
 * pass.ts (what a pass starts from and what its pages delivered), page-queue.ts
 * (pages gathered into groups that share a transaction), acks.ts (acknowledging
 * what is written), finish.ts (pruning, per-collection state, the change log).
 */
import type {
  AppError,
  FieldbookApi,
  PageFingerprintText,
  SyncFinishedEvent,
  SyncPageEvent,
} from '../../shared/ipc.ts';
import type { CollectionName } from '../../shared/records.ts';
import type { FieldbookDb } from '../db/index.ts';
import { errorFromUnknown } from '../components/ErrorMessage.tsx';
import { listsEmails, writePages, type PageWrite, type PageWriteResult } from './ingest.ts';
import type { SyncStore, SyncUiState } from './store.ts';
import { createUiBatch } from './ui-batch.ts';
import { onForeignWrite, PassFingerprints } from './fingerprints.ts';
import { fingerprintMessages } from '../../shared/page-fingerprints.ts';
import { newPass, preparePass, recordPage, type Pass, type StartingPass } from './pass.ts';
import { createPageQueue } from './page-queue.ts';
import { createAcks, type Acks } from './acks.ts';
import { collectionRows, logPassChanges, prunePass, saveCollectionRows, snapshotPass } from './finish.ts';
import { untilNotHeld } from './hold.ts';
import { snapshotWritten } from '../history/snapshot.ts';

type SyncApi = Pick<FieldbookApi, 'sync:start' | 'sync:fingerprints' | 'sync:cancel' | 'sync:ack' | 'on'>;

export interface SyncController {
  /**
   * Starts a sync; resumes an interrupted pass unless `fresh`. While a hold is on (hold.ts) it waits for it to end,
   * then starts.
   */
  /**
   * `fresh`: every list from its first row, no fingerprints; `refreshIdentities`: the other sites' usernames and
   * e-mails read again now
   */
  start(options?: { fresh?: boolean; refreshIdentities?: boolean }): Promise<void>;
  cancel(): Promise<void>;
  /** resolves when every page received so far is written */
  idle(): Promise<void>;
  dispose(): void;
}

const errorOf = (e: unknown): AppError => errorFromUnknown(e, 'The cache could not be written');

/**
 * An unchanged page (its fingerprint matched) costs no transaction of its
 * own; the others are written together, and the unchanged pages among them
 * (and before them) have their checkpoints saved in the same transaction.
 */
async function writeOrSkip(
  db: FieldbookDb,
  p: Pass,
  pages: readonly SyncPageEvent[],
): Promise<PageWriteResult[]> {
  const first = pages[0]!;
  if (pages.length === 1 && PassFingerprints.isUnchanged(first))
    return [await p.fingerprints.unchanged(first)];
  const unchanged = new Map<number, PageWriteResult>();
  const writes: PageWrite[] = [];
  pages.forEach((page, i) => {
    if (PassFingerprints.isUnchanged(page)) {
      unchanged.set(i, p.fingerprints.unchangedInGroup(page));
      return;
    }
    p.fingerprints.supersede(page.checkpoint.taskId);
    const fingerprint = p.fingerprints.writeFor(page);
    const options = {
      knownEmpty: p.knownEmpty.has(page.collection),
      emailsKnownEmpty: p.knownEmpty.has('emails'),
      track: p.previousSyncAt !== null,
    };
    writes.push({ page, options: { ...options, ...(fingerprint ? { fingerprint } : {}) } });
  });
  const written = await writePages(db, writes, p.fingerprints.takeDeferred());
  let next = 0;
  return pages.map((_, i) => unchanged.get(i) ?? written[next++]!);
}

async function recordCollectionError(
  db: FieldbookDb,
  collection: CollectionName,
  error: AppError,
): Promise<void> {
  try {
    const row = await db.syncCollections.get(collection);
    await db.syncCollections.put({
      collection,
      lastSyncedAt: row?.lastSyncedAt ?? null,
      total: row?.total ?? null,
      lastError: error,
      ...(row?.sitesRead ? { sitesRead: row.sitesRead } : {}),
    });
  } catch {
    // the database itself is failing: the banner already says so
  }
}

/**
 * The shared UI store, until the controller is disposed (profile switched): pages still queued are written, the shown
 * state is the next profile's.
 */
function storeUntilDisposed(
  sharedStore: SyncStore,
  disposed: () => boolean,
): Pick<SyncStore, 'getState' | 'setState'> {
  return {
    getState: sharedStore.getState,
    setState: (partial: Partial<SyncUiState> | ((s: SyncUiState) => Partial<SyncUiState>)) => {
      if (!disposed()) sharedStore.setState(partial);
    },
  };
}

/** Sends the stored fingerprints main compares pages with; the last message says how many there were. */
async function sendFingerprints(
  api: SyncApi,
  syncId: string,
  send: readonly PageFingerprintText[],
): Promise<void> {
  // Lists wait for the last of these (10 s at most): if one is lost, every page is compared in full.
  // Sent one after the other without waiting for each answer (main takes them in order).
  const sent = fingerprintMessages(send);
  const total = sent.reduce((n, m) => n + m.length, 0);
  if (sent.length === 0) sent.push([]);
  await Promise.all(
    sent.map((fingerprints, i) =>
      api['sync:fingerprints']({ syncId, fingerprints, ...(i === sent.length - 1 ? { total } : {}) }),
    ),
  );
}

interface PageHandlerDeps {
  db: FieldbookDb;
  api: SyncApi;
  store: Pick<SyncStore, 'setState'>;
  ui: ReturnType<typeof createUiBatch>;
  acks: Acks;
  passFor(syncId: string): Pass;
}

/** Pages of one sync, written in one transaction, or one unchanged page; acknowledged once stored, never when not. */
async function handlePages(
  { db, api, store, ui, acks, passFor }: PageHandlerDeps,
  pages: readonly SyncPageEvent[],
): Promise<void> {
  const first = pages[0]!;
  const p = passFor(first.syncId);
  if (p.broken) return;
  try {
    // pages that write records wait for their table's count (sizes.ts: taken before any such write); unchanged
    // pages write none (their checkpoints go to a table no count reads), so they need not wait for it: on a
    // large cache the counts take seconds, and a resync with nothing changed is mostly unchanged pages
    // (and a users page that lists e-mails may remove some: emails.ts)
    const written = pages.filter((page) => !PassFingerprints.isUnchanged(page));
    await p.sizes?.counted([
      ...written.map((page) => page.collection),
      ...(written.some(listsEmails) ? ['emails' as const] : []),
    ]);
    await p.fingerprintsRead;
    const started = performance.now();
    const results = await writeOrSkip(db, p, pages);
    const took = (performance.now() - started) / pages.length;
    pages.forEach((page, i) => {
      recordPage(p, page, results[i]!);
      ui.page(results[i]!.rowsWritten, took);
    });
  } catch (e) {
    // not acknowledged: main stops at its backpressure limit, and we cancel so it does not wait
    p.broken = true;
    const error = errorOf(e);
    store.setState({ error });
    await recordCollectionError(db, first.collection, error);
    await api['sync:cancel']({ syncId: first.syncId });
    return;
  }
  for (const page of pages) acks.written(page);
  // pages that cost a write go at once (main sends few of those ahead); unchanged ones go together
  if (pages.some((page) => page.records.length > 0)) acks.flush();
}

/**
 * A pass runs from the click on (the last outcome leaves the screen at once, and a second
 * click starts no second pass); then what it starts from is read. Null: it cannot start
 * (one is running, a hold refuses it, or the cache cannot be read, which the banner says).
 */
async function beginPass(
  db: FieldbookDb,
  store: Pick<SyncStore, 'getState' | 'setState'>,
  fresh: boolean,
): Promise<StartingPass | null> {
  // held: something is changing what the sync would read (the kept sites being saved: hold.ts)
  if (store.getState().running || store.getState().held !== null) return null;
  store.setState({
    running: true,
    progress: null,
    finished: null,
    rowsWritten: 0,
    pagesWritten: 0,
    writeMs: 0,
    rowsRemoved: 0,
    error: null,
  });
  try {
    if (fresh) await db.syncCheckpoints.clear();
    return await preparePass(db, (e) => store.setState({ error: errorOf(e) }));
  } catch (e) {
    store.setState({ running: false, error: errorOf(e) });
    return null;
  }
}

type StartOptions = NonNullable<Parameters<SyncController['start']>[0]>;

/**
 * What a pass asks main for: its checkpoints when resumed, the last totals, whether fingerprints follow, and a refresh
 * of the other sites' identities.
 */
function startArgOf(starting: NonNullable<Awaited<ReturnType<typeof beginPass>>>, options: StartOptions) {
  return {
    ...(starting.pass.resumed ? { checkpoints: starting.checkpoints } : {}),
    previousTotals: starting.previousTotals,
    ...(options.fresh ? {} : { fingerprintsFollow: true as const }),
    ...(options.refreshIdentities ? { refreshIdentities: true as const } : {}),
  };
}

/**
 * Writes what a finished pass leaves in the cache (removals, each list's state, the log) and says
 * so in the store; returns when it ended.
 */
async function recordFinishedPass(
  { db, store, ui }: Pick<PageHandlerDeps, 'db' | 'store' | 'ui'>,
  p: Pass,
  event: SyncFinishedEvent,
  now: () => Date,
): Promise<string> {
  const at = now().toISOString();
  // the checkpoints of a pass that completed are cleared below: only one that stopped saves its unchanged pages'
  if (!p.broken && event.outcome !== 'completed') await p.fingerprints.flushCheckpoints();
  const removed = await prunePass(db, p, event);
  await saveCollectionRows(db, p, await collectionRows(db, p, event, at));
  await logPassChanges(db, p, event, at, now());
  if (event.outcome === 'completed' && !p.broken) await db.syncCheckpoints.clear();
  ui.flush();
  store.setState((s) => ({
    running: false,
    finished: event,
    rowsRemoved: removed,
    error: s.error ?? (event.outcome === 'failed' ? (event.error ?? null) : null),
  }));
  return at;
}

/** Main's sync events, each to its step; returns the unsubscriptions. */
function listenToMain(
  api: SyncApi,
  db: FieldbookDb,
  steps: {
    pages: ReturnType<typeof createPageQueue>;
    ui: ReturnType<typeof createUiBatch>;
    onFinished: (event: SyncFinishedEvent) => void;
    taint: (collection: CollectionName) => void;
  },
): (() => void)[] {
  const { pages, ui } = steps;
  return [
    api.on['sync:page']((page) => pages.receive(page)),
    // A pass runs until its last pages are written and its state recorded (finishPass): a final
    // progress event does not end it, or the views would show "done" over a half-written cache.
    api.on['sync:progress']((progress) => ui.progress(progress)),
    // finish after the pages received before it are written
    api.on['sync:finished']((event) => {
      pages.noMore();
      steps.onFinished(event);
    }),
    onForeignWrite(db, (collection) => steps.taint(collection)),
  ];
}

export function createSyncController(
  api: SyncApi,
  db: FieldbookDb,
  sharedStore: SyncStore,
  now: () => Date = () => new Date(),
): SyncController {
  let pass: Pass | null = null;
  let disposed = false;
  const store = storeUntilDisposed(sharedStore, () => disposed);
  let queue: Promise<void> = Promise.resolve();
  const ui = createUiBatch(store);
  const acks = createAcks(api, (error) => store.setState({ error }));
  const enqueue = (work: () => Promise<void>): void => {
    queue = queue.then(work).catch((e: unknown) => store.setState({ error: errorOf(e) }));
  };

  // A page of a sync this renderer did not start (e.g. after a reload mid-sync)
  // is still stored, but the pass counts as resumed: it removes nothing.
  function passFor(syncId: string): Pass {
    if (!pass || (pass.syncId !== null && pass.syncId !== syncId)) pass = newPass(db, true);
    pass.syncId ??= syncId;
    return pass;
  }

  async function finishPass(event: SyncFinishedEvent): Promise<void> {
    const finished = passFor(event.syncId);
    const at = await recordFinishedPass({ db, store, ui }, finished, event, now);
    pass = null;
    // The day of compliance history comes after the sync says it is done: the coordinator does not wait
    // for it. It holds the queue only while it reads the cache, so the day is the cache as this pass left
    // it; the next pass's pages do not wait for the day to be made and written. A day it cannot write is a
    // gap in the trend, never a sync left "running".
    const started = await snapshotPass(db, finished, event, at, now()).catch(() => null);
    started?.written.catch(() => undefined);
  }

  const handlerDeps: PageHandlerDeps = { db, api, store, ui, acks, passFor };
  const pages = createPageQueue({
    enqueue,
    handle: (group) => handlePages(handlerDeps, group),
    onError: (e) => store.setState({ error: errorOf(e) }),
    acks,
  });
  const unsubscribe = listenToMain(api, db, {
    pages,
    ui,
    onFinished: (event) => enqueue(() => finishPass(event)),
    taint: (collection) => pass?.fingerprints.taint(collection),
  });

  return {
    async start(options = {}) {
      // the kept sites being saved: this sync runs once they are (a profile switched meanwhile ends the wait)
      // (not held: nothing is awaited before the pass begins, so a second click finds it running)
      if (sharedStore.getState().held !== null && (!(await untilNotHeld(sharedStore)) || disposed)) return;
      const starting = await beginPass(db, store, options.fresh === true);
      if (!starting) return;
      pass = starting.pass;
      const resumed = starting.pass.resumed;
      ui.reset();
      store.setState({ resumed });
      const result = await api['sync:start'](startArgOf(starting, options));
      if (!result.ok) {
        pass = null;
        store.setState({ running: false, error: result.error });
        return;
      }
      const { syncId } = result.value;
      if (pass) pass.syncId ??= syncId;
      store.setState({ syncId });
      const send = await starting.fingerprintsToSend;
      if (!options.fresh) await sendFingerprints(api, syncId, send);
    },
    async cancel() {
      const syncId = store.getState().syncId ?? pass?.syncId;
      if (!syncId) return;
      const result = await api['sync:cancel']({ syncId });
      if (!result.ok) store.setState({ error: result.error });
    },
    idle: () => queue.then(() => snapshotWritten(db)).then(() => ui.flush()),
    dispose() {
      disposed = true;
      for (const off of unsubscribe) off();
    },
  };
}
