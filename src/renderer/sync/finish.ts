/**
 * Closing a pass: removing what a complete full pass no longer saw, the
 * per-collection rows (last synced, error, total, the size the next pass starts
 * from) and the "since last sync" log entry. A pass that broke, was resumed or was
 * only seen in part (adopted after a reload) removes nothing.
 */
import type { SyncFinishedEvent } from '../../shared/ipc.ts';
import { COLLECTIONS, type CollectionName } from '../../shared/records.ts';
import { todayIso } from '../../shared/dates.ts';
import type { FieldbookDb, SyncCollectionRow } from '../db/index.ts';
import { collectionsToPrune, pruneCollection, pruneOrphanEmails } from './prune.ts';
import { removalChanges, TRACKED } from './changes.ts';
import { newlyDue, recordSyncChanges } from './log.ts';
import type { Pass } from './pass.ts';
import { startSnapshot, type StartedSnapshot } from '../history/snapshot.ts';
import { sitesReadAfterPass } from './sites-read.ts';

/**
 * Whether the pass's changes go to the "since last sync" log (not on a profile's first sync, nor a pass this renderer
 * did not start).
 */
export const tracksChanges = (p: Pass): boolean => p.previousSyncAt !== null && p.syncId !== null;

/** Removes what the pass no longer saw, where it may; returns how many records went. */
export async function prunePass(db: FieldbookDb, p: Pass, event: SyncFinishedEvent): Promise<number> {
  const pruned = p.broken
    ? []
    : collectionsToPrune({
        resumed: p.resumed,
        outcome: event.outcome,
        collections: event.collections,
        checkpoints: p.checkpoints,
      });
  await p.fingerprints.keepOnlySeen(pruned);
  // e-mails a re-read user no longer lists went as its page was written (emails.ts)
  let removed = p.emailsRemoved;
  const track = tracksChanges(p);
  /** collections known to hold exactly the keys the pass delivered */
  const exact = new Set<CollectionName>();
  for (const collection of pruned) {
    const delivered = p.delivered.get(collection) ?? new Set();
    // as many records held as keys delivered (each of them held): nothing else to find, no key to read
    if (await p.sizes?.nothingElse(collection, delivered.size)) {
      exact.add(collection);
      continue;
    }
    const onRemoved =
      track && TRACKED.has(collection)
        ? (records: Parameters<typeof removalChanges>[1]) =>
            p.changes.add(removalChanges(collection, records))
        : undefined;
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
  return removed;
}

/**
 * Each synced collection's row after the pass: complete ones with their time, total and exact size; the others keep
 * theirs.
 */
export async function collectionRows(
  db: FieldbookDb,
  p: Pass,
  event: SyncFinishedEvent,
  at: string,
): Promise<SyncCollectionRow[]> {
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
      // the sites whose people this pass read to the end (sites-read.ts)
      ...(collection === 'users' ? await sitesReadAfterPass(db, complete, before) : {}),
    });
  }
  return rows;
}

/**
 * Saves the rows. A table written by something else up to the write leaves no
 * size: looked at inside the write's own transaction, with nothing awaited
 * between, so a write from outside that comes later is forgotten by its guard
 * (fingerprints.ts), whose transaction runs after this one. Looked at before
 * it, a write landing between the two had its size forgotten first and then put back.
 */
export async function saveCollectionRows(
  db: FieldbookDb,
  p: Pass,
  rows: readonly SyncCollectionRow[],
): Promise<void> {
  await db.transaction('rw', db.syncCollections, async () => {
    await db.syncCollections.bulkPut(
      rows.map((row) => (p.fingerprints.tainted(row.collection) ? withoutHeld(row) : row)),
    );
  });
}

function withoutHeld(row: SyncCollectionRow): SyncCollectionRow {
  const { held: _, ...rest } = row;
  return rest;
}

/** The pass's entry in the "since last sync" log (with what fell due since the last sync, when it completed). */
export async function logPassChanges(
  db: FieldbookDb,
  p: Pass,
  event: SyncFinishedEvent,
  at: string,
  today: Date,
): Promise<void> {
  if (!tracksChanges(p) || p.previousSyncAt === null || p.syncId === null) return;
  const due =
    event.outcome === 'completed' && !p.broken
      ? await newlyDue(db, p.previousSyncAt.slice(0, 10), todayIso(today))
      : [];
  p.changes.add(due);
  const entry = p.changes.entry(p.syncId, at, p.broken ? 'failed' : event.outcome, p.previousSyncAt);
  // a pass that stopped is kept only when it changed something: the log holds 20 passes, and an empty broken one says
  // nothing
  if (entry.outcome === 'completed' || Object.keys(entry.counts).length > 0)
    await recordSyncChanges(db, entry);
}

/**
 * The compliance history's snapshot of a pass that completed (history/snapshot.ts), counted for
 * the local day it ended. A pass that stopped or broke leaves the cache part old, part new: no day.
 * Nor does a pass that completed without one of its lists (an answer refused, a server fault on
 * one list): that day's figures would count people or records the pass never read. Resolves once
 * the snapshot has read what it needs of the cache; its day is written after (`written`).
 */
export async function snapshotPass(
  db: FieldbookDb,
  p: Pass,
  event: SyncFinishedEvent,
  at: string,
  today: Date,
): Promise<StartedSnapshot | null> {
  if (event.outcome !== 'completed' || p.broken) return null;
  const everyListRead = Object.values(event.collections).every((c) => c?.state === 'complete');
  if (!everyListRead) return null;
  return startSnapshot(db, at, todayIso(today));
}
