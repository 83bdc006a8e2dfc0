/**
 * Page fingerprints: what each page of each sync task held the last time it was
 * written into the cache. A resync that fetches a page hashing the same skips
 * the page's work (parsing, secret scan, normalising, sending, reading,
 * comparing and writing): the cache already holds it. A page that changed is
 * compared item by item: only items whose hash is not the one the cache's copy
 * was made from are validated, sent and compared. Pure.
 */
import type { PageFingerprint } from './ipc.ts';

/** Characters of one item's hash in `PageFingerprint.hashes` (48 bits of SHA-1, base64url). */
export const ITEM_HASH_CHARS = 8;

/** The most items one page holds: the Data API's largest `limit` (spec, "Limits"). */
export const MAX_PAGE_ITEMS = 1000;

/** The most page fingerprints one sync takes. */
export const MAX_FINGERPRINT_PAGES = 200_000;

/** Items in one `sync:fingerprints` message (about 2 MB). */
export const MAX_FINGERPRINT_ITEMS_PER_MESSAGE = 100_000;

/** The fingerprints in messages of at most `max` items (whole pages; a page holds at most MAX_PAGE_ITEMS). Pure. */
export function fingerprintMessages(list: readonly PageFingerprint[], max = MAX_FINGERPRINT_ITEMS_PER_MESSAGE): PageFingerprint[][] {
  const out: PageFingerprint[][] = [];
  let current: PageFingerprint[] = [];
  let items = 0;
  for (const f of list) {
    if (current.length > 0 && items + f.keys.length > max) {
      out.push(current);
      current = [];
      items = 0;
    }
    current.push(f);
    items += f.keys.length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** The map key of a task's page. */
export function pageKey(taskId: string, startrow: number): string {
  return `${taskId}@${startrow}`;
}

/** A fingerprint whose hashes fit its keys (one of ITEM_HASH_CHARS characters per key). */
export function isWellFormed(f: PageFingerprint): boolean {
  return f.hashes.length === f.keys.length * ITEM_HASH_CHARS;
}

/** The hash of the page's item `i`. */
export function itemHashAt(f: Pick<PageFingerprint, 'hashes'>, i: number): string {
  return f.hashes.slice(i * ITEM_HASH_CHARS, (i + 1) * ITEM_HASH_CHARS);
}

export function fingerprintMap(list: readonly PageFingerprint[] | undefined): Map<string, PageFingerprint> {
  return new Map((list ?? []).filter(isWellFormed).map((f) => [pageKey(f.taskId, f.startrow), f]));
}

/**
 * What the cache holds of one task's items, from the fingerprints of all its
 * pages: item key → item hash. A key two pages give different hashes (a record
 * that moved while it changed) is doubtful: it maps to nothing, and the pages
 * holding it may not be skipped whole, so its item is compared again.
 */
export interface TaskItems {
  hashes: Map<string | number, string>;
  /** page keys that hold a doubtful item */
  doubtful: Set<string>;
}

export function taskItems(pages: readonly PageFingerprint[]): TaskItems {
  const hashes = new Map<string | number, string>();
  const doubtfulKeys = new Set<string | number>();
  for (const f of pages) {
    for (let i = 0; i < f.keys.length; i++) {
      const key = f.keys[i]!;
      const hash = itemHashAt(f, i);
      const known = hashes.get(key);
      if (known === undefined) hashes.set(key, hash);
      else if (known !== hash) doubtfulKeys.add(key);
    }
  }
  const doubtful = new Set<string>();
  if (doubtfulKeys.size > 0) {
    for (const key of doubtfulKeys) hashes.delete(key);
    for (const f of pages) if (f.keys.some((k) => doubtfulKeys.has(k))) doubtful.add(pageKey(f.taskId, f.startrow));
  }
  return { hashes, doubtful };
}
