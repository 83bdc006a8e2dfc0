/**
 * One pass of a sync as the renderer follows it: what it was started from (resumed
 * or not, the tables known empty, when the profile last synced, the stored
 * fingerprints), and what its pages delivered (keys, checkpoints, changes). A pass
 * this renderer did not start (it saw only pages of it, e.g. after a reload) counts
 * as resumed: it removes nothing at its end.
 */
import type { FieldbookDb } from '../db/index.ts';
import { COLLECTIONS, type CollectionName } from '../../shared/records.ts';
import type { PageWriteResult } from './ingest.ts';
import { ChangeCollector } from './log.ts';
import { fingerprintOwner, loadFingerprints, PassFingerprints, takeForeignWrites } from './fingerprints.ts';
import type { PageFingerprintText, SyncPageEvent, TaskCheckpoint } from '../../shared/ipc.ts';
import { settleSitesRead } from './sites-read.ts';
import { emptyTables, PassSizes, takeHeldSizes, type HeldSizes } from './sizes.ts';

export interface Pass {
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
  /**
   * resolves once the stored fingerprints are read (the pass writes nothing before: a page's write may drop its row)
   */
  fingerprintsRead: Promise<void>;
  /** e-mails removed because their users' items no longer list them (emails.ts) */
  emailsRemoved: number;
}

interface PassStart {
  knownEmpty?: Set<CollectionName>;
  previousSyncAt?: string | null;
  /** the keys of the fingerprint rows, filled once read (`fingerprintsRead`) */
  stored?: Set<string>;
  fingerprintsRead?: Promise<void>;
  /**
   * the tables are counted as the pass starts (but for those whose size is `held`); without it, their sizes are not
   * followed
   */
  sizes?: { held: HeldSizes } | null;
}

export function newPass(db: FieldbookDb, resumed: boolean, start: PassStart = {}): Pass {
  const fingerprints = new PassFingerprints(db, start.stored ?? new Set());
  // counted now, before the pass writes anything; a table written by anyone else meanwhile is not trusted
  const sizes = start.sizes
    ? new PassSizes(db, (collection) => fingerprints.tainted(collection), start.sizes.held)
    : null;
  return {
    syncId: null,
    resumed,
    knownEmpty: start.knownEmpty ?? new Set(),
    delivered: new Map(),
    checkpoints: new Map(),
    broken: false,
    previousSyncAt: start.previousSyncAt ?? null,
    changes: new ChangeCollector(),
    fingerprints,
    sizes,
    fingerprintsRead: start.fingerprintsRead ?? Promise.resolve(),
    emailsRemoved: 0,
  };
}

/** What a written page tells the pass: its keys delivered, its checkpoint, its records inserted and changed. */
export function recordPage(p: Pass, page: SyncPageEvent, result: PageWriteResult): void {
  const seen = p.delivered.get(page.collection) ?? new Set();
  // a collection empty when the pass began holds only what the pass wrote (its pages are not compared, so not read)
  p.sizes?.inserted(
    page.collection,
    p.knownEmpty.has(page.collection)
      ? result.keys.reduce<number>((n, k) => (seen.has(k) ? n : n + 1), 0)
      : result.inserted,
  );
  p.sizes?.removed('emails', result.emailsRemoved ?? 0);
  p.emailsRemoved += result.emailsRemoved ?? 0;
  p.changes.add(result.changes);
  for (const k of result.keys) seen.add(k);
  p.delivered.set(page.collection, seen);
  p.checkpoints.set(page.checkpoint.taskId, page.checkpoint);
}

export interface StartingPass {
  pass: Pass;
  checkpoints: TaskCheckpoint[];
  previousTotals: Partial<Record<CollectionName, number>>;
  /** the fingerprints to send main, once read (an error reading them sends none: every page is compared in full) */
  fingerprintsToSend: Promise<PageFingerprintText[]>;
}

/**
 * What the cache says a new pass starts from: its checkpoints (a resume), the tables' totals and held sizes, the
 * fingerprints.
 */
export async function preparePass(
  db: FieldbookDb,
  onFingerprintError: (e: unknown) => void,
): Promise<StartingPass> {
  // before the pass's sites list can add a site: the sites an older build's row read (sites-read.ts)
  await settleSitesRead(db);
  const checkpoints = await db.syncCheckpoints.toArray();
  const previousTotals: Partial<Record<CollectionName, number>> = {};
  let previousSyncAt: string | null = null;
  // the sizes the last complete pass left are this pass's to start from, and no longer anyone else's
  const { rows: syncRows, held } = await takeHeldSizes(db);
  for (const row of syncRows) {
    if (row.total !== null) previousTotals[row.collection] = row.total;
    if (row.lastSyncedAt !== null && (previousSyncAt === null || row.lastSyncedAt > previousSyncAt))
      previousSyncAt = row.lastSyncedAt;
  }
  const knownEmpty = new Set<CollectionName>(await emptyTables(db));
  // e-mails may be empty while users are not: only users' own emptiness says their pages' fingerprints are void
  const foreignWrites = takeForeignWrites(db);
  const skip = new Set([...knownEmpty, ...foreignWrites]);
  // a table this window wrote since (whose size the guard may not have forgotten yet) is counted
  for (const collection of COLLECTIONS)
    if (foreignWrites.has(fingerprintOwner(collection))) delete held[collection];
  // read while main starts (its first lists are read in full; the others' answers wait for these)
  const stored = new Set<string>();
  const fingerprintsToSend = loadFingerprints(db, skip).then(
    (loaded) => {
      for (const key of loaded.keys) stored.add(key);
      return loaded.send;
    },
    (e: unknown): PageFingerprintText[] => {
      onFingerprintError(e);
      return [];
    },
  );
  const pass = newPass(db, checkpoints.length > 0, {
    knownEmpty,
    previousSyncAt,
    stored,
    fingerprintsRead: fingerprintsToSend.then(() => undefined),
    sizes: { held },
  });
  return { pass, checkpoints, previousTotals, fingerprintsToSend };
}
