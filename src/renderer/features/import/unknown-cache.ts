/**
 * Never create against an unknown cache (issue 37): until a sync has read
 * everyone at the kept sites at least once, a person the file names may be on
 * the platform without being on this laptop, and a "create" would make them
 * twice. So while the people were never read in full (never synced, or a
 * first sync cut short, which counts the same), a row that would create
 * someone is skipped, saying why. Updates of people the cache holds still
 * queue: they target known ids (docs/decisions.md, "Never create against an
 * unknown cache"). Pure.
 */
import type { SyncCollectionRow } from '../../db/index.ts';
import type { SiteRecord } from '../../../shared/records.ts';
import { sitesNotRead } from '../../sync/sites-read.ts';
import type { RowPlan } from './row-plan.ts';

type CollectionRows = readonly Pick<SyncCollectionRow, 'collection' | 'lastSyncedAt' | 'sitesRead'>[];
type Sites = readonly Pick<SiteRecord, 'siteid' | 'sitename'>[];

const listFormat = new Intl.ListFormat('en', { type: 'conjunction' });

/**
 * Why the cache cannot say who is on the site, in the coordinator's words; null once a sync has read everyone
 * at every site it holds (`sites`: a site kept later whose first sync stopped early is held, its people not read).
 */
export function unknownCacheReason(rows: CollectionRows, syncing: boolean, sites: Sites): string | null {
  const users = rows.find((r) => r.collection === 'users');
  if (users?.lastSyncedAt) return unreadSitesReason(users, syncing, sites);
  if (syncing) return 'The first sync of this laptop is still reading who is on the site';
  if (rows.length === 0)
    return 'This laptop has not synced yet, so it does not know who is already on the site';
  return 'The first sync of this laptop stopped before it had read everyone on the site, so it does not know who is already there';
}

/** A sync has read everyone, but not at a site kept since (null: it read every site held). */
function unreadSitesReason(users: CollectionRows[number], syncing: boolean, sites: Sites): string | null {
  const unread = new Set(
    sitesNotRead(
      users,
      sites.map((s) => s.siteid),
    ),
  );
  if (unread.size === 0) return null;
  const names = listFormat.format(sites.filter((s) => unread.has(s.siteid)).map((s) => s.sitename));
  if (syncing) return `The sync is still reading who is at ${names}`;
  return `The last sync stopped before it had read everyone at ${names}, so this laptop does not know who is already there`;
}

/**
 * A row that would create someone while the cache is unknown: skipped, saying why (the person may already be on the
 * site).
 */
export function skipCreateOnUnknownCache(plan: RowPlan, reason: string | null | undefined): RowPlan {
  if (!reason || plan.action !== 'create') return plan;
  const name =
    `${plan.values.firstname ?? ''} ${plan.values.lastname ?? ''}`.trim() ||
    plan.values.username ||
    'this person';
  const because = `${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
  return {
    rowNumber: plan.rowNumber,
    action: 'skipped',
    reason: `Not created: ${because}, and ${name} may already be there. Sync: the preview is made again when it ends.`,
  };
}
