/**
 * Comparing a page with what the cache holds (the fingerprints the renderer
 * sent): the fingerprints themselves (they arrive after the start, in several
 * messages; lists' answers wait for them), and each page of a list that has
 * them: a body hashing as the one the cache was written from is its keys
 * only; otherwise each item is hashed (`itemHash`) and compared
 * (`heldAsReceived`) on the bytes a scan found or, for a body the scan gives
 * up on, on the parsed items: the same two functions on both paths.
 */
import type { PageFingerprint, PageFingerprintText } from '../../shared/ipc.ts';
import type { Parsed, SchemaName } from '../../shared/api/wire.ts';
import { ApiError } from '../api/errors.ts';
import { containsSecretDeep } from '../secrets/scrub.ts';
import {
  validateItems,
  wholeList,
  type ApiClient,
  type RetryNotice,
  type ScannedPage,
} from '../api/client.ts';
import {
  FingerprintBook,
  ITEM_HASH_CHARS,
  pageKey,
  taskItems,
  type TaskItems,
} from '../../shared/page-fingerprints.ts';
import { hash } from 'node:crypto';
import type { FetchedPage, ListedItems } from './pager.ts';
import type { LaneAside } from './flow.ts';
import { heldAsReceived, itemHash, KnownItem, rawItemKeys, scanFields, scannedKey } from './page-keys.ts';
import type { SyncTask } from './tasks.ts';
import type { PageFilter } from './kept.ts';
import { tokenInPage } from './names.ts';

/** Items found by a scan are decoded one by one (a page's own UTF-8: see `scanList`). */
const utf8 = new TextDecoder();

const FINGERPRINT_WAIT_MS = 10_000;

export type AnyItem = Parsed<SchemaName>;
/** a page's item: validated, or known by its key only (the cache holds it as received) */
export type PageItem = AnyItem | KnownItem;

type PageClient = Pick<ApiClient, 'getPage'>;
interface PageOptions {
  startrow: number;
  limit: number;
  onRetry: (r: RetryNotice) => void;
  /** the engine's request lane, given up while an answer waits for the fingerprints (flow.ts) */
  aside?: LaneAside;
}

export interface ComparerOptions {
  /** what each page held when the renderer last wrote it */
  fingerprints?: PageFingerprint[];
  /** the renderer sends them after the start (`add`, the last message with their total) */
  fingerprintsFollow?: boolean;
  /** how long lists wait for those (default 10 s); then they go on without any */
  fingerprintWaitMs?: number;
}

export class PageComparer {
  readonly #book = new FingerprintBook();
  /**
   * per task: what the cache holds of its items (from its pages' fingerprints, built when the task first reads a page)
   */
  readonly #taskItems = new Map<string, TaskItems>();
  /**
   * fingerprints received after the start, and whether the last message came (or the wait is over, or the sync stopped)
   */
  #received = 0;
  #done = false;
  /** resolved once #done */
  readonly #here: Promise<void>;
  #arrived: () => void = () => undefined;
  /** a list in the coordinator's words, for the refusal of a page that echoes the token (the engine's name book) */
  readonly #describe: (task: SyncTask) => string;

  constructor(opts: ComparerOptions, describe: (task: SyncTask) => string) {
    this.#describe = describe;
    this.#book.add(opts.fingerprints ?? []);
    this.#here = new Promise<void>((resolve) => {
      if (!opts.fingerprintsFollow) {
        this.#done = true;
        return resolve();
      }
      const timer = setTimeout(() => {
        // some never came (the renderer was reloaded, a message was refused): a task known in part could hide a
        // doubtful item
        this.#book.clear();
        this.#arrived();
      }, opts.fingerprintWaitMs ?? FINGERPRINT_WAIT_MS);
      this.#arrived = () => {
        clearTimeout(timer);
        this.#done = true;
        resolve();
      };
    });
  }

  /**
   * Fingerprints the renderer sends after the start, in several messages, the
   * last with `total`, how many they all held. When fewer arrived (a message
   * refused or lost), none is used: a task known in part could hide a doubtful
   * item. Those arriving once lists have begun to use them (the last came, or
   * the wait ran out) are ignored.
   */
  add(list: readonly PageFingerprintText[], total?: number): void {
    if (this.#done) return;
    this.#book.add(list);
    this.#received += list.length;
    if (total === undefined) return;
    if (this.#received !== total) this.#book.clear();
    this.#arrived();
  }
  /** The sync stopped: lists waiting for fingerprints go on (and end). */
  stop(): void {
    this.#arrived();
  }

  /** What the cache holds of `task`'s items, from the fingerprints of its pages (built once per pass). */
  #itemsOf(task: SyncTask): TaskItems {
    let items = this.#taskItems.get(task.taskId);
    if (!items) {
      items = taskItems(this.#book.pagesOf(task.taskId));
      this.#taskItems.set(task.taskId, items);
    }
    return items;
  }

  /**
   * One page of a list whose pages have fingerprints (page-keys.ts, `skippable`):
   * a body hashing as the one the cache was written from comes back as the
   * keys its fingerprint lists, unparsed; otherwise each item is hashed, and
   * only those the cache does not hold as received are validated.
   */
  async fetchPage(
    client: PageClient,
    task: SyncTask,
    options: PageOptions,
    signal: AbortSignal,
    filter?: PageFilter,
  ): Promise<FetchedPage<PageItem>> {
    const { startrow } = options;
    const key = pageKey(task.taskId, startrow);
    // the request goes at once; its answer is looked at once the renderer's fingerprints are here,
    // its lane free for another request meanwhile (lists that plan others need none of them)
    const ready = () => (this.#done ? Promise.resolve() : (options.aside?.(this.#here) ?? this.#here));
    const wholeHash = (): string | undefined => {
      const hash = this.#book.page(task.taskId, startrow)?.hash;
      return hash && !this.#itemsOf(task).doubtful.has(key) ? hash : undefined;
    };
    const unchanged = (hash: string) =>
      filter ? filteredHash(hash, filter) === filteredPart(wholeHash())?.hash : hash === wholeHash();
    const page = await client.getPage(
      task.path,
      task.wrapperKey,
      task.schema,
      {
        startrow,
        limit: options.limit,
        onRetry: options.onRetry,
        fingerprint: true,
        validate: false,
        scan: scanFields(task),
        ready,
        unchanged,
      },
      signal,
    );
    const stored = this.#book.page(task.taskId, startrow);
    const held = this.#itemsOf(task);
    if (page.unchanged && stored) {
      const items = stored.keys.map((k) => new KnownItem(k));
      // a filtered page's fingerprint lists the kept rows only; the pager still needs how many the page held
      return filter
        ? { items, empty: false, hash: stored.hash!, unchanged: true, rows: filteredPart(stored.hash)!.rows }
        : { items, empty: false, hash: page.hash!, unchanged: true };
    }
    if (page.empty) return { items: [], empty: true };
    const read = this.#readPage(task, page, held, startrow);
    return filter && read.hash !== undefined ? filtered(read, read.hash, filter) : read;
  }

  /** A page that is not skipped whole: its items, each known (held as received) or validated. */
  #readPage(
    task: SyncTask,
    page: Awaited<ReturnType<PageClient['getPage']>>,
    held: TaskItems,
    startrow: number,
  ): FetchedPage<PageItem> {
    const where = { startrow };
    const hash = page.hash !== undefined ? { hash: page.hash } : {};
    if (page.scanned) {
      const read = this.#scannedItems(task, page.scanned, held, where);
      if (read) return { ...read, empty: false, ...hash };
    }
    const raw = page.raw ?? (page.scanned ? wholeList(page.scanned, task.wrapperKey) : []);
    const keys = rawItemKeys(task, raw);
    // an item whose key fields do not fit: the full validation says which and why
    if (!keys) return { items: validateItems(task.schema, raw, where), empty: false };
    let hashes = '';
    const fresh: number[] = [];
    for (let i = 0; i < raw.length; i++) {
      const itemHashed = itemHash(JSON.stringify(raw[i]));
      hashes += itemHashed;
      if (!heldAsReceived(held, keys[i]!, itemHashed)) fresh.push(i);
    }
    this.#refuseTokenInKeys(task, startrow, keys);
    const parsed = validateItems(task.schema, raw, where, fresh.length === raw.length ? undefined : fresh);
    const items: PageItem[] = keys.map((k) => new KnownItem(k));
    fresh.forEach((index, j) => (items[index] = parsed[j]!));
    return { items, empty: false, ...hash, listed: { keys, hashes } };
  }

  /**
   * The items of a page found by a scan of its bytes: each item's bytes are
   * hashed, and one hashing as the cache's copy of the item its key fields
   * name was made from is kept as that key, unparsed. The others are parsed
   * for their keys; those still hashing as the cache's copy of that key are
   * kept as keys too (a key the scan does not read: sent as text, named
   * twice), the rest validated. Null when an item does not parse or its key
   * fields do not fit: the page is then read whole (whose errors say which
   * item and why).
   */
  #scannedItems(
    task: SyncTask,
    scanned: ScannedPage,
    held: TaskItems,
    where: { startrow: number },
  ): Pick<FetchedPage<PageItem>, 'items' | 'listed'> | null {
    const { bytes, spans } = scanned;
    const count = spans.length / 2;
    const items: PageItem[] = new Array<PageItem>(count);
    const keys: (string | number)[] = new Array<string | number>(count);
    const hashes: string[] = new Array<string>(count);
    // the parsed items at their indexes (validateItems names a bad one by its row)
    const list: unknown[] = new Array<unknown>(count);
    const unread: number[] = [];
    for (let i = 0; i < count; i++) {
      const itemBytes = bytes.subarray(spans[2 * i], spans[2 * i + 1]);
      const itemHashed = itemHash(itemBytes);
      hashes[i] = itemHashed;
      const key = scannedKey(task, scanned.keys, i);
      if (key !== undefined && heldAsReceived(held, key, itemHashed)) {
        items[i] = new KnownItem(key);
        keys[i] = key;
        continue;
      }
      try {
        list[i] = JSON.parse(utf8.decode(itemBytes));
      } catch {
        return null;
      }
      unread.push(i);
    }
    const unreadKeys = rawItemKeys(
      task,
      unread.map((i) => list[i]),
    );
    if (!unreadKeys) return null;
    const fresh: number[] = [];
    unread.forEach((index, j) => {
      const key = unreadKeys[j]!;
      keys[index] = key;
      if (heldAsReceived(held, key, hashes[index]!)) items[index] = new KnownItem(key);
      else fresh.push(index);
    });
    this.#refuseTokenInKeys(task, where.startrow, keys);
    const parsed = validateItems(task.schema, list, where, fresh.length === count ? undefined : fresh);
    fresh.forEach((index, j) => (items[index] = parsed[j]!));
    return { items, listed: { keys, hashes: hashes.join('') } };
  }

  /**
   * The items' keys travel to the renderer with the fingerprint, those of known
   * and de-duplicated items too (not scanned with the records): an assignment
   * known by its link has API text in its key.
   */
  #refuseTokenInKeys(task: SyncTask, startrow: number, keys: readonly (string | number)[]): void {
    const text = keys.filter((k) => typeof k === 'string');
    if (text.length > 0 && containsSecretDeep(text)) {
      throw new ApiError(
        { code: 'malformed-response', message: tokenInPage(this.#describe(task), startrow) },
        { retryable: false },
      );
    }
  }
}

/**
 * The fingerprint hash of a filtered page (a holder list among the kept
 * people, kept.ts): the body's hash salted with the kept people, then how many
 * rows the body held ("<hash>.<rows>"), which the pager needs of a page skipped
 * whole (its fingerprint lists the kept rows only).
 */
function filteredHash(bodyHash: string, filter: PageFilter): string {
  return hash('sha256', `${bodyHash}\n${filter.salt}`, 'base64url');
}

/** A filtered page's fingerprint hash read back; null when it is not one (the page is then read). */
function filteredPart(stored: string | null | undefined): { hash: string; rows: number } | null {
  const match = stored ? /^([\w-]+)\.(\d{1,4})$/.exec(stored) : null;
  return match ? { hash: match[1]!, rows: Number(match[2]) } : null;
}

/** A read page of a filtered list: every item for the pager, a fingerprint of the kept rows only. */
function filtered(read: FetchedPage<PageItem>, bodyHash: string, filter: PageFilter): FetchedPage<PageItem> {
  const hashOfPage = `${filteredHash(bodyHash, filter)}.${read.items.length}`;
  return { ...read, hash: hashOfPage, ...(read.listed ? { listed: keptListed(read.listed, filter) } : {}) };
}

function keptListed(listed: ListedItems, filter: PageFilter): ListedItems {
  const keys: (string | number)[] = [];
  let hashes = '';
  listed.keys.forEach((key, i) => {
    if (!filter.keeps(key)) return;
    keys.push(key);
    hashes += listed.hashes.slice(i * ITEM_HASH_CHARS, (i + 1) * ITEM_HASH_CHARS);
  });
  return { keys, hashes };
}
