/**
 * Page fingerprints: what each page of each sync task held the last time it was
 * written into the cache. A resync that fetches a page hashing the same skips
 * the page's work (parsing, secret scan, normalising, sending, reading,
 * comparing and writing): the cache already holds it. A page that changed is
 * compared item by item: only items whose hash is not the one the cache's copy
 * was made from are validated, sent and compared. Pure.
 */
import type { PageFingerprint } from './ipc.ts';
import { MAX_IPC_MESSAGE_BYTES } from './ipc-limits.ts';

/** Characters of one item's hash in `PageFingerprint.hashes` (48 bits of SHA-1, base64url). */
export const ITEM_HASH_CHARS = 8;

/** The most items one page holds: the Data API's largest `limit` (spec, "Limits"). */
export const MAX_PAGE_ITEMS = 1000;

/** The most page fingerprints one sync takes. */
export const MAX_FINGERPRINT_PAGES = 200_000;

/** Items in one `sync:fingerprints` message (its schema's bound; the byte budget below comes first in practice). */
export const MAX_FINGERPRINT_ITEMS_PER_MESSAGE = 100_000;

/** JSON bytes of fingerprints in one message: an IPC message's limit less room for its envelope. */
export const FINGERPRINT_MESSAGE_BYTES = MAX_IPC_MESSAGE_BYTES - 16_384;

/** JSON bytes of one fingerprint (its keys may be long text: an assignment known by its link). */
function jsonSize(f: PageFingerprint): number {
  let n = 64 + f.taskId.length + (f.hash?.length ?? 4) + f.hashes.length;
  for (const k of f.keys) n += typeof k === 'number' ? String(k).length + 1 : JSON.stringify(k).length + 1;
  return n;
}

/**
 * The fingerprints in messages of whole pages, each within FINGERPRINT_MESSAGE_BYTES
 * and `maxItems`. A task with a page that cannot fit in a message alone is left
 * out whole (its pages are compared in full; a task known in part could hide a
 * doubtful item). Pure.
 */
export function fingerprintMessages(list: readonly PageFingerprint[], maxItems = MAX_FINGERPRINT_ITEMS_PER_MESSAGE, maxBytes = FINGERPRINT_MESSAGE_BYTES): PageFingerprint[][] {
  const sized = list.map((f) => ({ f, bytes: jsonSize(f) }));
  const tooLarge = new Set(sized.filter((s) => s.bytes > maxBytes || s.f.keys.length > maxItems).map((s) => s.f.taskId));
  const out: PageFingerprint[][] = [];
  let current: PageFingerprint[] = [];
  let items = 0;
  let bytes = 0;
  for (const { f, bytes: size } of sized) {
    if (tooLarge.has(f.taskId)) continue;
    if (current.length > 0 && (items + f.keys.length > maxItems || bytes + size > maxBytes)) {
      out.push(current);
      current = [];
      items = 0;
      bytes = 0;
    }
    current.push(f);
    items += f.keys.length;
    bytes += size;
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
