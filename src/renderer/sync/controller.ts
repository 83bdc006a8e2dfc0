/**
 * Drives a sync from the renderer's side: starts (or resumes) it, writes each
 * streamed page before acknowledging it (backpressure: main never runs far
 * ahead of the writes), and closes the pass: per-collection state, pruning,
 * checkpoints cleared after a completed pass.
 */
import type { AppError, FieldbookApi, SyncFinishedEvent, SyncPageEvent, TaskCheckpoint } from '../../shared/ipc.ts';
import { MAX_ACKS_PER_MESSAGE } from '../../shared/ipc-limits.ts';
import { COLLECTIONS, type CollectionName } from '../../shared/records.ts';
import type { FieldbookDb, SyncCollectionRow } from '../db/index.ts';
import { errorFromUnknown } from '../components/ErrorMessage.tsx';
import { listsEmails, writePages, type PageWrite, type PageWriteResult } from './ingest.ts';
import { collectionsToPrune, pruneCollection, pruneOrphanEmails } from './prune.ts';
import type { SyncStore, SyncUiState } from './store.ts';
import { createUiBatch } from './ui-batch.ts';
import { removalChanges, TRACKED } from './changes.ts';
import { ChangeCollector, newlyDue, recordSyncChanges } from './log.ts';
import { todayIso } from '../../shared/dates.ts';
import { fingerprintOwner, loadFingerprints, onForeignWrite, PassFingerprints, takeForeignWrites } from './fingerprints.ts';
import { fingerprintMessages } from '../../shared/page-fingerprints.ts';
import { emptyTables, PassSizes, takeHeldSizes, type HeldSizes } from './sizes.ts';

type SyncApi = Pick<FieldbookApi, 'sync:start' | 'sync:fingerprints' | 'sync:cancel' | 'sync:ack' | 'on'>;

interface Pass {
  syncId: string | null;
  resumed: boolean;
  knownEmpty: Set<CollectionName>;
  delivered: Map<CollectionName, Set<string | number>>;
  checkpoints: Map<string, TaskCheckpoint>;
  /** a page could not be stored: later pages of this pass are not written either */
  broken: boolean;
  /** when the profile last completed a sync: null on its first (which records no changes) */
  previousSyncAt: string | null;
  changes: ChangeCollector;
  /** page fingerprints: what to forget, save and keep (fingerprints.ts) */
  fingerprints: PassFingerprints;
  /** the tables' sizes through the pass (sizes.ts); none for a pass this renderer did not start */
  sizes: PassSizes | null;
  /** resolves once the stored fingerprints are read (the pass writes nothing before: a page's write may drop its row) */
  fingerprintsRead: Promise<void>;
  /** e-mails removed because their users' items no longer list them (emails.ts) */
  emailsRemoved: number;
}

export interface SyncController {
  /** Starts a sync; resumes an interrupted pass unless `fresh`. */
  start(options?: { fresh?: boolean }): Promise<void>;
  cancel(): Promise<void>;
  /** resolves when every page received so far is written */
  idle(): Promise<void>;
  dispose(): void;
}

/** Unchanged pages acknowledged together at most this many at a time (main sends up to 64 of them ahead: flow.ts). */
const ACK_EVERY = 16;
/**
 * Pages with records written in one transaction at most, and records in all
 * (main sends up to 64 small pages ahead: flow.ts). Every transaction that
 * writes costs Chromium a clean-up task after its commit (its undo log is
 * deleted), which takes tens of milliseconds on a large cache: a resync's
 * hundreds of small changed pages are written in as few transactions as
 * they allow.
 */
const GROUP_PAGES = 48;
/** Messages in one group at most, unchanged pages among them included (they are not written: only their checkpoints). */
const GROUP_MESSAGES = 64;
const GROUP_RECORDS = 5_000;
/**
 * Pages that hold fewer records than this together wait up to GATHER_MS for
 * others to share their transaction (a resync's changed pages carry a few
 * records each, and every transaction costs Chromium about as much as a few
 * records). Larger pages are written at once: they fill a transaction alone.
 */
const GATHER_RECORDS = 500;
const GATHER_MS = 150;

const errorOf = (e: unknown): AppError => errorFromUnknown(e, 'The cache could not be written');

// eslint-disable-next-line max-lines-per-function -- on purpose: the pass, the write queue and the store are one controller's state; its steps are the named inner functions.
export function createSyncController(api: SyncApi, db: FieldbookDb, sharedStore: SyncStore, now: () => Date = () => new Date()): SyncController {
  let pass: Pass | null = null;
  let disposed = false;
  // after dispose (profile switched) the pages still queued are written into
  // this profile's cache, but the shared UI state belongs to the next profile
  const store = {
    getState: sharedStore.getState,
    setState: (partial: Partial<SyncUiState> | ((s: SyncUiState) => Partial<SyncUiState>)) => {
      if (!disposed) sharedStore.setState(partial);
    },
  };
  let queue: Promise<void> = Promise.resolve();
  /** pages received and not yet handled, in order */
  const incoming: SyncPageEvent[] = [];
  /** a queued task is writing `incoming` (more pages join it as they arrive) */
  let draining = false;
  /** wakes the write loop waiting for pages to gather (see gathered) */
  let wakeGatherer: (() => void) | null = null;
  /** pages written and not yet acknowledged (see acknowledge) */
  const unacked: { syncId: string; pageId: number }[] = [];
  const ui = createUiBatch(store);

  /**
   * `stored`: the keys of the fingerprint rows, filled once read (`fingerprintsRead`);
   * `sizes`: the tables are counted as the pass starts (but for those whose size is
   * `held`); without it, their sizes are not followed
   */
  function newPass(resumed: boolean, knownEmpty = new Set<CollectionName>(), previousSyncAt: string | null = null, stored = new Set<string>(), fingerprintsRead = Promise.resolve(), sizes: { held: HeldSizes } | null = null): Pass {
    const fingerprints = new PassFingerprints(db, stored);
    // counted now, before the pass writes anything; a table written by anyone else meanwhile is not trusted
    const passSizes = sizes ? new PassSizes(db, (collection) => fingerprints.tainted(collection), sizes.held) : null;
    return { syncId: null, resumed, knownEmpty, delivered: new Map(), checkpoints: new Map(), broken: false, previousSyncAt, changes: new ChangeCollector(), fingerprints, sizes: passSizes, fingerprintsRead, emailsRemoved: 0 };
  }

  // A page of a sync this renderer did not start (e.g. after a reload mid-sync)
  // is still stored, but the pass counts as resumed: it removes nothing.
  function passFor(syncId: string): Pass {
    if (!pass || (pass.syncId !== null && pass.syncId !== syncId)) pass = newPass(true);
    pass.syncId ??= syncId;
    return pass;
  }

  /**
   * An unchanged page (its fingerprint matched) costs no transaction of its
   * own; the others are written together, and the unchanged pages among them
   * (and before them) have their checkpoints saved in the same transaction.
   */
  async function writeOrSkip(p: Pass, pages: readonly SyncPageEvent[]): Promise<PageWriteResult[]> {
    const first = pages[0]!;
    if (pages.length === 1 && PassFingerprints.isUnchanged(first)) return [await p.fingerprints.unchanged(first)];
    const unchanged = new Map<number, PageWriteResult>();
    const writes: PageWrite[] = [];
    pages.forEach((page, i) => {
      if (PassFingerprints.isUnchanged(page)) {
        unchanged.set(i, p.fingerprints.unchangedInGroup(page));
        return;
      }
      p.fingerprints.supersede(page.checkpoint.taskId);
      const fingerprint = p.fingerprints.writeFor(page);
      const options = { knownEmpty: p.knownEmpty.has(page.collection), emailsKnownEmpty: p.knownEmpty.has('emails'), track: p.previousSyncAt !== null };
      writes.push({ page, options: { ...options, ...(fingerprint ? { fingerprint } : {}) } });
    });
    const written = await writePages(db, writes, p.fingerprints.takeDeferred());
    let next = 0;
    return pages.map((_, i) => unchanged.get(i) ?? written[next++]!);
  }

  /** What a written page tells the pass: its keys delivered, its checkpoint, its records inserted and changed. */
  function recordPage(p: Pass, page: SyncPageEvent, result: PageWriteResult, took: number): void {
    const seen = p.delivered.get(page.collection) ?? new Set();
    // a collection empty when the pass began holds only what the pass wrote (its pages are not compared, so not read)
    p.sizes?.inserted(page.collection, p.knownEmpty.has(page.collection) ? result.keys.reduce<number>((n, k) => (seen.has(k) ? n : n + 1), 0) : result.inserted);
    p.sizes?.removed('emails', result.emailsRemoved ?? 0);
    p.emailsRemoved += result.emailsRemoved ?? 0;
    p.changes.add(result.changes);
    for (const k of result.keys) seen.add(k);
    p.delivered.set(page.collection, seen);
    p.checkpoints.set(page.checkpoint.taskId, page.checkpoint);
    ui.page(result.rowsWritten, took);
  }

  /** Pages of one sync, written in one transaction (takeGroup), or one unchanged page. */
  async function handlePages(pages: readonly SyncPageEvent[]): Promise<void> {
    const first = pages[0]!;
    const p = passFor(first.syncId);
    if (p.broken) return;
    try {
      // pages that write records wait for their table's count (sizes.ts: taken before any such write); unchanged
      // pages write none (their checkpoints go to a table no count reads), so they need not wait for it: on a
      // large cache the counts take seconds, and a resync with nothing changed is mostly unchanged pages
      // (and a users page that lists e-mails may remove some: emails.ts)
      const written = pages.filter((page) => !PassFingerprints.isUnchanged(page));
      await p.sizes?.counted([...written.map((page) => page.collection), ...(written.some(listsEmails) ? ['emails' as const] : [])]);
      await p.fingerprintsRead;
      const started = performance.now();
      const results = await writeOrSkip(p, pages);
      const took = (performance.now() - started) / pages.length;
      pages.forEach((page, i) => recordPage(p, page, results[i]!, took));
    } catch (e) {
      // not acknowledged: main stops at its backpressure limit, and we cancel so it does not wait
      p.broken = true;
      const error = errorOf(e);
      store.setState({ error });
      await recordCollectionError(first.collection, error);
      await api['sync:cancel']({ syncId: first.syncId });
      return;
    }
    for (const page of pages) unacked.push({ syncId: page.syncId, pageId: page.pageId });
    // pages that cost a write go at once (main sends few of those ahead); unchanged ones go together
    if (pages.some((page) => page.records.length > 0)) acknowledge();
  }

  /**
   * The next pages to handle: an unchanged page alone, or the pages with
   * records that wait in a row (of one sync, within GROUP_PAGES and
   * GROUP_RECORDS), to be written in one transaction. Small pages wait a
   * little for company (groupComplete, gathered); large ones only while the
   * previous ones are being written.
   */
  function takeGroup(): SyncPageEvent[] {
    const first = incoming.shift()!;
    const group = [first];
    if (PassFingerprints.isUnchanged(first)) return group;
    let records = first.records.length;
    let written = 1;
    for (let next = incoming[0]; next && written < GROUP_PAGES && group.length < GROUP_MESSAGES; next = incoming[0]) {
      if (next.syncId !== first.syncId || records + next.records.length > GROUP_RECORDS) break;
      group.push(incoming.shift()!);
      records += next.records.length;
      if (!PassFingerprints.isUnchanged(next)) written++;
    }
    return group;
  }

  /**
   * Whether the next group is as large as it will get: an unchanged page first
   * (handled alone, at once), enough pages or records, or a page of another
   * sync behind it. Otherwise it waits for more to arrive. Unchanged pages
   * behind the first join the group: a resync's changed pages come between
   * unchanged ones, and each group that writes costs a transaction.
   */
  function groupComplete(): boolean {
    const first = incoming[0];
    if (!first || PassFingerprints.isUnchanged(first)) return true;
    let records = 0;
    let written = 0;
    for (const [i, page] of incoming.entries()) {
      if (page.syncId !== first.syncId) return true;
      records += page.records.length;
      if (!PassFingerprints.isUnchanged(page)) written++;
      if (written >= GROUP_PAGES || i + 1 >= GROUP_MESSAGES || records >= GATHER_RECORDS) return true;
    }
    return false;
  }

  /** Resolves when the next group is complete (groupComplete), a pass ends, or GATHER_MS have passed. */
  function gathered(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(wake, GATHER_MS);
      function wake() {
        clearTimeout(timer);
        wakeGatherer = null;
        resolve();
      }
      wakeGatherer = wake;
    });
  }

  /**
   * Acknowledges the pages written and not yet acknowledged, one message per
   * sync. Not awaited: the next page's write need not wait for the round trip.
   */
  function acknowledge(): void {
    const bySync = new Map<string, number[]>();
    for (const { syncId, pageId } of unacked.splice(0)) {
      const ids = bySync.get(syncId) ?? [];
      ids.push(pageId);
      bySync.set(syncId, ids);
    }
    for (const [syncId, ids] of bySync) {
      for (let i = 0; i < ids.length; i += MAX_ACKS_PER_MESSAGE) {
        void api['sync:ack']({ syncId, pageIds: ids.slice(i, i + MAX_ACKS_PER_MESSAGE) }).then((result) => {
          if (!result.ok && result.error.code !== 'cancelled') store.setState({ error: result.error });
        });
      }
    }
  }

  /** A page arrived: written in turn (with those waiting beside it); once no page waits, the ones written are acknowledged. */
  function receivePage(page: SyncPageEvent): void {
    incoming.push(page);
    if (wakeGatherer && groupComplete()) wakeGatherer();
    if (draining) return;
    draining = true;
    enqueue(async () => {
      try {
        while (incoming.length > 0) {
          if (!groupComplete()) {
            // main waits for these before sending more of its window
            acknowledge();
            await gathered();
          }
          // one group failing past its own handling (the cancel itself refused) leaves the pages after it to be written
          await handlePages(takeGroup()).catch((e: unknown) => store.setState({ error: errorOf(e) }));
          if (incoming.length === 0 || unacked.length >= ACK_EVERY) acknowledge();
        }
      } finally {
        draining = false;
      }
    });
  }

  async function recordCollectionError(collection: CollectionName, error: AppError): Promise<void> {
    try {
      const row = await db.syncCollections.get(collection);
      await db.syncCollections.put({ collection, lastSyncedAt: row?.lastSyncedAt ?? null, total: row?.total ?? null, lastError: error });
    } catch {
      // the database itself is failing: the banner already says so
    }
  }

  async function finishPass(event: SyncFinishedEvent): Promise<void> {
    const p = passFor(event.syncId);
    const at = now().toISOString();
    // the checkpoints of a pass that completed are cleared below: only one that stopped saves its unchanged pages'
    if (!p.broken && event.outcome !== 'completed') await p.fingerprints.flushCheckpoints();
    const pruned = p.broken ? [] : collectionsToPrune({ resumed: p.resumed, outcome: event.outcome, collections: event.collections, checkpoints: p.checkpoints });
    await p.fingerprints.keepOnlySeen(pruned);
    let removed = p.emailsRemoved;
    const track = p.previousSyncAt !== null && p.syncId !== null;
    /** collections known to hold exactly the keys the pass delivered */
    const exact = new Set<CollectionName>();
    for (const collection of pruned) {
      const delivered = p.delivered.get(collection) ?? new Set();
      // as many records held as keys delivered (each of them held): nothing else to find, no key to read
      if (await p.sizes?.nothingElse(collection, delivered.size)) {
        exact.add(collection);
        continue;
      }
      const onRemoved = track && TRACKED.has(collection) ? (records: Parameters<typeof removalChanges>[1]) => p.changes.add(removalChanges(collection, records)) : undefined;
      const gone = await pruneCollection(db, collection, delivered, onRemoved);
      p.sizes?.removed(collection, gone.removed);
      p.sizes?.removed('emails', gone.emails);
      removed += gone.removed + gone.emails;
    }
    // e-mails go with their users (pruneCollection); looked for one by one only when users were written by
    // something else meanwhile or could not be counted (a user removed from outside leaves its e-mails behind)
    if (pruned.includes('users') && !exact.has('users')) {
      const gone = await pruneOrphanEmails(db);
      p.sizes?.removed('emails', gone);
      removed += gone;
    }
    const rows: SyncCollectionRow[] = [];
    for (const collection of COLLECTIONS) {
      const progress = event.collections[collection];
      if (!progress) continue;
      const before = await db.syncCollections.get(collection);
      const complete = progress.state === 'complete' && !p.broken;
      // known exactly (sizes.ts): the total, and the size the next pass starts from
      const size = complete ? await p.sizes?.size(collection) : null;
      rows.push({
        collection,
        lastSyncedAt: complete ? at : (before?.lastSyncedAt ?? null),
        lastError: complete ? null : (progress.error ?? before?.lastError ?? null),
        total: complete ? (size ?? (await db.table(collection).count())) : (before?.total ?? null),
        ...(typeof size === 'number' ? { held: size } : {}),
      });
    }
    // a table written by something else while these were worked out leaves no size (its guard's forgetting comes after this write)
    for (const row of rows) if (p.fingerprints.tainted(row.collection)) delete row.held;
    await db.syncCollections.bulkPut(rows);
    if (track && p.previousSyncAt !== null && p.syncId !== null) {
      const due = event.outcome === 'completed' && !p.broken ? await newlyDue(db, p.previousSyncAt.slice(0, 10), todayIso(now())) : [];
      p.changes.add(due);
      const entry = p.changes.entry(p.syncId, at, p.broken ? 'failed' : event.outcome, p.previousSyncAt);
      // a pass that stopped is kept only when it changed something: the log holds 20 passes, and an empty broken one says nothing
      if (entry.outcome === 'completed' || Object.keys(entry.counts).length > 0) await recordSyncChanges(db, entry);
    }
    if (event.outcome === 'completed' && !p.broken) await db.syncCheckpoints.clear();
    ui.flush();
    store.setState((s) => ({
      running: false,
      finished: event,
      rowsRemoved: removed,
      error: s.error ?? (event.outcome === 'failed' ? (event.error ?? null) : null),
    }));
    pass = null;
  }

  function enqueue(work: () => Promise<void>): void {
    queue = queue.then(work).catch((e: unknown) => store.setState({ error: errorOf(e) }));
  }

  const unsubscribe = [
    api.on['sync:page'](receivePage),
    // A pass runs until its last pages are written and its state recorded (finishPass): a final
    // progress event does not end it, or the views would show "done" over a half-written cache.
    api.on['sync:progress']((progress) => ui.progress(progress)),
    // finish after the pages received before it are written
    api.on['sync:finished']((event) => {
      wakeGatherer?.(); // no page comes after this one
      enqueue(() => finishPass(event));
    }),
    onForeignWrite((dbName, collection) => {
      if (dbName !== db.name || !pass) return;
      pass.fingerprints.taint(collection);
    }),
  ];

  return {
    async start(options = {}) {
      if (options.fresh) await db.syncCheckpoints.clear();
      const checkpoints = await db.syncCheckpoints.toArray();
      const resumed = checkpoints.length > 0;
      const previousTotals: Partial<Record<CollectionName, number>> = {};
      const knownEmpty = new Set<CollectionName>();
      let previousSyncAt: string | null = null;
      // the sizes the last complete pass left are this pass's to start from, and no longer anyone else's
      const { rows: syncRows, held } = await takeHeldSizes(db);
      for (const row of syncRows) {
        if (row.total !== null) previousTotals[row.collection] = row.total;
        if (row.lastSyncedAt !== null && (previousSyncAt === null || row.lastSyncedAt > previousSyncAt)) previousSyncAt = row.lastSyncedAt;
      }
      for (const collection of await emptyTables(db)) knownEmpty.add(collection);
      // e-mails may be empty while users are not: only users' own emptiness says their pages' fingerprints are void
      const foreignWrites = takeForeignWrites(db.name);
      const skip = new Set([...knownEmpty, ...foreignWrites]);
      // a table this window wrote since (whose size the guard may not have forgotten yet) is counted
      for (const collection of COLLECTIONS) if (foreignWrites.has(fingerprintOwner(collection))) delete held[collection];
      // read while main starts (its first lists are read in full; the others' answers wait for these)
      const stored = new Set<string>();
      const loading = loadFingerprints(db, skip).then(
        (loaded) => {
          for (const key of loaded.keys) stored.add(key);
          return loaded.send;
        },
        (e: unknown) => {
          store.setState({ error: errorOf(e) });
          return [];
        },
      );
      pass = newPass(resumed, knownEmpty, previousSyncAt, stored, loading.then(() => undefined), { held });
      ui.reset();
      store.setState({ running: true, resumed, progress: null, finished: null, rowsWritten: 0, pagesWritten: 0, writeMs: 0, rowsRemoved: 0, error: null });
      const result = await api['sync:start']({ ...(resumed ? { checkpoints } : {}), previousTotals, ...(options.fresh ? {} : { fingerprintsFollow: true as const }) });
      if (!result.ok) {
        pass = null;
        store.setState({ running: false, error: result.error });
        return;
      }
      const { syncId } = result.value;
      if (pass) pass.syncId ??= syncId;
      store.setState({ syncId });
      const send = await loading;
      if (options.fresh) return;
      // Lists wait for the last of these (10 s at most), which says how many there were: if one is lost, every
      // page is compared in full. Sent one after the other without waiting for each answer (main takes them in order).
      const sent = fingerprintMessages(send);
      const total = sent.reduce((n, m) => n + m.length, 0);
      if (sent.length === 0) sent.push([]);
      await Promise.all(sent.map((fingerprints, i) => api['sync:fingerprints']({ syncId, fingerprints, ...(i === sent.length - 1 ? { total } : {}) })));
    },
    async cancel() {
      const syncId = store.getState().syncId ?? pass?.syncId;
      if (!syncId) return;
      const result = await api['sync:cancel']({ syncId });
      if (!result.ok) store.setState({ error: result.error });
    },
    idle: () => queue.then(() => ui.flush()),
    dispose() {
      disposed = true;
      for (const off of unsubscribe) off();
    },
  };
}
