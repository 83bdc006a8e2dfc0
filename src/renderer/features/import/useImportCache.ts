/**
 * What the import plans against, read from the cache in its effective state:
 * the sites, the people and their e-mails with the Outbox's unsent ops applied
 * (so the same file dropped twice before a replay never queues anyone twice),
 * and the chosen site's profile groups by name; whether a sync has read everyone
 * (`unknownCache`: why not, undefined while it is read). `siteid` is null until a site
 * is chosen when the token sees more than one. The people and e-mails are read
 * a page at a time (20,000 people read at once were one long task of the window).
 */
import type { SiteRecord, UserRecord } from '../../../shared/records.ts';
import { useLiveQuery } from 'dexie-react-hooks';
import { useActiveDb } from '../../app/session.ts';
import { emailsApplier, usersApplier } from '../../outbox/pending.ts';
import { memoUnsentOps } from '../../outbox/ops-memo.ts';
import { appliedInSlices, memoUnsentInOrder, opsWhere } from '../../outbox/unsent-in-order.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { usePendingVersion } from '../../outbox/runtime.ts';
import { readInPages } from '../../../shared/read-in-pages.ts';
import { emailsByUserInSlices, type EmailsByUser, type GroupRef } from './match.ts';
import {
  NOTHING_QUEUED,
  queuedCreates,
  queuedRemovals,
  replacedIdentities,
  type QueuedState,
} from './queued.ts';
import { useMemo } from 'react';
import { NO_DELETIONS, queuedDeletions } from './queued-assignments.ts';
import { useSyncState } from '../../sync/store.ts';
import { unknownCacheReason } from './unknown-cache.ts';

const NONE: UserRecord[] = [];
const NO_SITES: SiteRecord[] = [];

const NO_PEOPLE = {
  users: NONE,
  replaced: NOTHING_QUEUED.replaced,
  creates: NOTHING_QUEUED.creates,
  deletions: NO_DELETIONS,
};
const NO_MAIL = {
  emails: new Map<number, Set<string>>() as EmailsByUser,
  removedByQueue: NOTHING_QUEUED.removedEmails,
};

const ASSIGNMENT_KINDS = new Set([
  'credentialAssignment.create',
  'credentialAssignment.delete',
  'trainingAssignment.create',
  'trainingAssignment.delete',
]);

/**
 * The people with the queue applied. Every read comes first (a live query
 * follows what it read before its first yield); then the work on up to
 * 100,000 queued ops runs a slice at a time.
 */
async function peopleAsQueued(db: FieldbookDb) {
  const [cached, unsent] = [await readInPages(db.users, (u) => u.userid), await memoUnsentOps(db)];
  // the course of each transcript a queued op deletes (few: read by id)
  const transcriptids: number[] = [];
  for (const { op } of unsent)
    if (op.kind === 'trainingAssignment.delete') transcriptids.push(op.transcriptid);
  const transcripts = new Map(
    (await db.trainingAssignments.bulkGet(transcriptids)).flatMap((t) =>
      t ? [[t.transcriptid, t] as const] : [],
    ),
  );
  const inOrder = await memoUnsentInOrder(db);
  const effective = await appliedInSlices(usersApplier(cached), inOrder);
  const [creates, assignments] = [
    await opsWhere(inOrder, (op) => op.op.kind === 'user.create'),
    await opsWhere(inOrder, (op) => ASSIGNMENT_KINDS.has(op.op.kind)),
  ];
  return {
    users: effective,
    replaced: replacedIdentities(cached, effective),
    creates: queuedCreates(creates),
    deletions: queuedDeletions(assignments, (id) => transcripts.get(id)),
  };
}

/** Each person's addresses with the queue applied, and those the queue removes. */
async function addressesAsQueued(db: FieldbookDb) {
  const [cached, inOrder] = [await readInPages(db.emails, (e) => e.emailid), await memoUnsentInOrder(db)];
  const effective = await appliedInSlices(emailsApplier(cached), inOrder);
  return { emails: await emailsByUserInSlices(effective), removedByQueue: queuedRemovals(effective) };
}

export function useImportCache(siteChoice: number | null) {
  const db = useActiveDb();
  const loadedSites = useLiveQuery(async () => (db ? db.sites.toArray() : []), [db]);
  const sites = loadedSites ?? NO_SITES;
  // read again when the queue changed (the outbox's version: a connection probe does not move it)
  const pendingVersion = usePendingVersion();
  // the people as they will be, and what the queue replaces or creates (queued.ts)
  const people = useLiveQuery(() => (db ? peopleAsQueued(db) : NO_PEOPLE), [db, pendingVersion]);
  const users = people?.users ?? NONE;
  // the addresses each person will have, and those queued changes remove (an import that lists one adds it back)
  const mail = useLiveQuery(() => (db ? addressesAsQueued(db) : NO_MAIL), [db, pendingVersion]);
  // a token that sees several sites: no default, the user chooses (a file for the second site must never land on the
  // first);
  // nothing synced yet: no site to check against (every row is new), as before the first sync
  const siteid = siteChoice ?? (!loadedSites || sites.length > 1 ? null : (sites[0]?.siteid ?? 0));
  // the site's groups by name: a Profile group column must name one of them
  const groups = useLiveQuery(
    async () =>
      new Map<string, GroupRef>(
        (db ? await db.groups.toArray() : [])
          .filter((g) => g.siteid === siteid)
          .map((g) => [g.groupname.toLowerCase(), { groupid: g.groupid, groupname: g.groupname }]),
      ),
    [db, siteid],
  );
  const queued = useMemo<QueuedState | undefined>(
    () =>
      people && mail
        ? {
            removedEmails: mail.removedByQueue,
            replaced: people.replaced,
            creates: people.creates,
            deletions: people.deletions,
          }
        : undefined,
    [people, mail],
  );
  // no create against a cache that never read everyone at the kept sites (unknown-cache.ts); the preview is made again
  // when a sync ends
  const syncing = useSyncState((s) => s.running);
  const collections = useLiveQuery(async () => (db ? db.syncCollections.toArray() : []), [db]);
  const unknownCache = collections && loadedSites && unknownCacheReason(collections, syncing, loadedSites);
  return { sites, users, emails: mail?.emails, queued, groups, siteid, unknownCache };
}
