/**
 * Page fingerprints: what each page of each sync task held the last time it was
 * written into the cache. A resync that fetches a page hashing the same skips
 * the page's work (parsing, secret scan, normalising, sending, reading,
 * comparing and writing): the cache already holds it. A page that changed is
 * compared item by item: only items whose hash is not the one the cache's copy
 * was made from are validated, sent and compared. Pure.
 */
import { MAX_IPC_MESSAGE_BYTES } from './ipc-limits.ts';

/**
 * What one page of one task held the last time it was written: the body's hash,
 * and every item of the page in the body's order, by the key the sync
 * de-duplicates it with and a hash of the item as received. Part of the IPC
 * contract (shared/ipc.ts re-exports it); here, so this module imports nothing of ipc.ts.
 */
export interface PageFingerprint {
  taskId: string;
  startrow: number;
  /** a hash of the page's response body; null when the page must never be skipped whole */
  hash: string | null;
  /** the items' keys (as the sync de-duplicates them), in the body's order */
  keys: (string | number)[];
  /** ITEM_HASH_CHARS characters per item, in the same order: a hash of each item as received */
  hashes: string;
  /** FINGERPRINT_VERSION of the build that made it (one of another version counts as absent) */
  version: number;
}

/**
 * A page fingerprint as the renderer stores and sends it: the keys as JSON
 * text. One string crosses IPC (and the schema) as one value, where 1,000
 * keys would be checked and copied one by one; main parses and checks them
 * (readFingerprint, below).
 */
export interface PageFingerprintText extends Omit<PageFingerprint, 'keys'> {
  /** JSON text of PageFingerprint.keys */
  keys: string;
}

/**
 * Characters of one item's hash in `PageFingerprint.hashes`: 132 bits of
 * SHA-256, base64url. Enough that nobody who can edit a record on the platform
 * can search for an edit hashing as the cached one (and so hide it from every
 * resync); 48 bits were not.
 */
export const ITEM_HASH_CHARS = 22;

/**
 * The version of the code that makes what a fingerprint vouches for: how main
 * reads, validates and normalises an item into cache records (shared/api/wire.ts,
 * shared/records.ts, main/sync/tasks.ts) and how it hashes pages and items
 * (main/sync/page-keys.ts, ITEM_HASH_CHARS). Every fingerprint carries the one
 * it was made by; one of another version counts as absent (its page is read in
 * full), so records an older build normalised are made again after an update.
 * Raise it with any change to that code (fingerprint-golden.test.ts notices one that changes the output).
 */
export const FINGERPRINT_VERSION = 2;

/**
 * Per FINGERPRINT_VERSION, a hash of what that version makes of fixed wire
 * pages (records, keys, item hashes: src/main/sync/fingerprint-golden.test.ts).
 * The test fails when the output changes and the version does not: raise the
 * version and add its line here, as the test's message says. Lines are never edited.
 */
export const FINGERPRINT_GOLDEN: Readonly<Record<number, string>> = {
  2: '0e8a60e7d3bc48a2a6dd58ece8536368',
};

/** The most items one page holds: the Data API's largest `limit` (spec, "Limits"). */
export const MAX_PAGE_ITEMS = 1000;

/** The most page fingerprints one sync takes. */
export const MAX_FINGERPRINT_PAGES = 200_000;

/** Items in one `sync:fingerprints` message (its schema's bound; the byte budget below comes first in practice). */
export const MAX_FINGERPRINT_ITEMS_PER_MESSAGE = 100_000;

/** JSON bytes of fingerprints in one message: an IPC message's limit less room for its envelope. */
export const FINGERPRINT_MESSAGE_BYTES = MAX_IPC_MESSAGE_BYTES - 16_384;

/** The longest item key a fingerprint may hold (an assignment known by its link is the longest). */
const MAX_ITEM_KEY_CHARS = 2_000;

/** JSON bytes of one fingerprint in a message (its keys' text is escaped once more there). */
function jsonSize(f: PageFingerprintText): number {
  return (
    64 +
    JSON.stringify(f.taskId).length +
    (f.hash?.length ?? 4) +
    f.hashes.length +
    JSON.stringify(f.keys).length
  );
}

/** Items a fingerprint holds (one hash each). */
function itemCount(f: PageFingerprintText): number {
  return Math.ceil(f.hashes.length / ITEM_HASH_CHARS);
}

/** A page fingerprint as stored (keys as JSON text), for a message. */
export function fingerprintText(f: PageFingerprint): PageFingerprintText {
  return {
    taskId: f.taskId,
    startrow: f.startrow,
    hash: f.hash,
    keys: JSON.stringify(f.keys),
    hashes: f.hashes,
    version: f.version,
  };
}

/**
 * The fingerprint `f` stands for, or null when it does not read as one: keys
 * that are not JSON, not an array of numbers and texts (of at most
 * MAX_ITEM_KEY_CHARS), more than a page holds, or not one hash per key. Pure.
 */
export function readFingerprint(f: PageFingerprintText): PageFingerprint | null {
  let keys: unknown;
  try {
    keys = JSON.parse(f.keys);
  } catch {
    return null;
  }
  if (!Array.isArray(keys) || keys.length > MAX_PAGE_ITEMS) return null;
  for (const k of keys as unknown[]) {
    if (typeof k === 'number' ? !Number.isFinite(k) : typeof k !== 'string' || k.length > MAX_ITEM_KEY_CHARS)
      return null;
  }
  const read: PageFingerprint = {
    taskId: f.taskId,
    startrow: f.startrow,
    hash: f.hash,
    keys: keys as (string | number)[],
    hashes: f.hashes,
    version: f.version,
  };
  return isWellFormed(read) ? read : null;
}

/**
 * The fingerprints in messages of whole pages, each within FINGERPRINT_MESSAGE_BYTES
 * and `maxItems`. A task with a page that cannot fit in a message alone is left
 * out whole (its pages are compared in full; a task known in part could hide a
 * doubtful item). Pure.
 */
export function fingerprintMessages(
  list: readonly PageFingerprintText[],
  maxItems = MAX_FINGERPRINT_ITEMS_PER_MESSAGE,
  maxBytes = FINGERPRINT_MESSAGE_BYTES,
): PageFingerprintText[][] {
  const sized = list.map((f) => ({ f, bytes: jsonSize(f), items: itemCount(f) }));
  const tooLarge = new Set(
    sized.filter((s) => s.bytes > maxBytes || s.items > maxItems).map((s) => s.f.taskId),
  );
  const out: PageFingerprintText[][] = [];
  let current: PageFingerprintText[] = [];
  let items = 0;
  let bytes = 0;
  for (const { f, bytes: size, items: count } of sized) {
    if (tooLarge.has(f.taskId)) continue;
    if (current.length > 0 && (items + count > maxItems || bytes + size > maxBytes)) {
      out.push(current);
      current = [];
      items = 0;
      bytes = 0;
    }
    current.push(f);
    items += count;
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

/**
 * The fingerprints a sync may use, by page and by task. A task with any page
 * that does not read (readFingerprint) or does not fit its keys is used for
 * nothing: a task known in part could hide a doubtful item.
 */
export class FingerprintBook {
  readonly #pages = new Map<string, PageFingerprint>();
  readonly #byTask = new Map<string, PageFingerprint[]>();
  readonly #refused = new Set<string>();

  /**
   * Adds fingerprints as stored (keys as text) or already read; one of another version (FINGERPRINT_VERSION) counts as
   * absent.
   */
  add(list: readonly (PageFingerprint | PageFingerprintText)[]): void {
    for (const f of list) {
      if (f.version !== FINGERPRINT_VERSION) continue;
      const read =
        typeof f.keys === 'string'
          ? readFingerprint(f as PageFingerprintText)
          : isWellFormed(f as PageFingerprint)
            ? (f as PageFingerprint)
            : null;
      if (!read) {
        this.#refused.add(f.taskId);
        continue;
      }
      this.#pages.set(pageKey(read.taskId, read.startrow), read);
      const pages = this.#byTask.get(read.taskId);
      if (pages) pages.push(read);
      else this.#byTask.set(read.taskId, [read]);
    }
  }

  /** Forgets them all (some never came). */
  clear(): void {
    this.#pages.clear();
    this.#byTask.clear();
  }

  get size(): number {
    return this.#pages.size;
  }

  /** The fingerprint of a task's page, if the task's may be used. */
  page(taskId: string, startrow: number): PageFingerprint | undefined {
    return this.#refused.has(taskId) ? undefined : this.#pages.get(pageKey(taskId, startrow));
  }

  /** Every fingerprint of a task whose fingerprints may be used (none for a refused one). */
  pagesOf(taskId: string): readonly PageFingerprint[] {
    return this.#refused.has(taskId) ? [] : (this.#byTask.get(taskId) ?? []);
  }
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
    for (const f of pages)
      if (f.keys.some((k) => doubtfulKeys.has(k))) doubtful.add(pageKey(f.taskId, f.startrow));
  }
  return { hashes, doubtful };
}
