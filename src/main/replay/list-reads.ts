/**
 * Reads through list routes (issue 12): when many queued updates target
 * records one list route returns (the users the token sees, the holders of a
 * credential), main reads that list in pages of 1,000 just before sending and
 * the updates take their record from it, instead of one GET each.
 *
 * What is read is trusted no more than an individual GET:
 * - every page is validated (itemsOf, zod); a page that fails, or an error
 *   reading it, ends that list's read, and ops it did not cover read on their own;
 * - a record the pages do not hold is never "absent": its op reads it on its own;
 *   a record listed twice with different values is dropped (read on its own);
 * - freshness: a record read more than FRESH_MS before its write is read again,
 *   on its own. Within that bound, a change made on the server after the list
 *   was read is not seen by the conflict check: the bound is the window the
 *   check leaves open (with one GET per op, the window is that GET's answer to
 *   the PUT; here it is at most FRESH_MS);
 * - each copy serves one op: a write to a record (by any op: an update, a
 *   grant, a create...) drops its copy, and a copy whose read may predate a
 *   write of ours (read started before that write ended) is never used.
 */
import type { OpSpec, ReplayRequest } from '../../shared/ipc.ts';
import type { ReplayClient, ServerState } from './read.ts';
import { credentialAssignmentTargetKey, userTargetKey } from '../../shared/keys.ts';
import type { ListedRecord, ListRoute } from './kinds/definition.ts';
import { listRouteOf } from './kinds.ts';

/** A record read through a list more than this long before its write is read again on its own. */
export const FRESH_MS = 5_000;
/**
 * A batch reads a list again when its copies are older than this: its ops may wait their turn for a network slot before
 * writing.
 */
const REREAD_AFTER_MS = FRESH_MS / 2;
/** The largest page the API serves. */
export const LIST_PAGE_SIZE = 1_000;
/** Writes noted before the old ones are forgotten. */
const MAX_WRITES_NOTED = 10_000;
/** Most copies kept (a few lists of users): the oldest go first. */
const MAX_COPIES = 200_000;

const userKey = (userid: number) => userTargetKey(userid);
const assignmentKey = credentialAssignmentTargetKey;

/** Every record a write of this op may change (its side effects included: a grant makes a User a Supervisor). */
function keysWrittenBy(op: OpSpec): string[] {
  const keys: string[] = [];
  if ('userid' in op) keys.push(userKey(op.userid));
  if ('credentialid' in op && 'userid' in op) keys.push(assignmentKey(op.credentialid, op.userid));
  return keys;
}

interface Copy {
  state: ServerState;
  /** when its page was asked for (clock) */
  readAt: number;
  /** the order of events: the read started at this tick */
  seq: number;
}

export interface ListReadOptions {
  /** the injectable clock (ms) */
  now?: () => number;
  /** runs one page's request in a network slot (the replay's bounded concurrency), ahead of the ops waiting for one */
  inSlot?: <T>(run: () => Promise<T>) => Promise<T>;
}

/** What the batch read found for the replay of one op, and what it must tell the reads when it writes. */
export interface RecordSource {
  /** The op's record from a list read, fresh and unused, or null (then the op reads it on its own). */
  take(op: OpSpec): ServerState | null;
  /** Call before a write leaves; call the function returned once it has settled. */
  writing(op: OpSpec): () => void;
}

/**
 * The copies of records read through list routes, for one profile. Kept in
 * memory only (never past FRESH_MS of use), one copy per record.
 */
export class ListReads implements RecordSource {
  readonly #now: () => number;
  readonly #inSlot: <T>(run: () => Promise<T>) => Promise<T>;
  readonly #copies = new Map<string, Copy>();
  /** writes in flight per record key */
  readonly #writes = new Map<string, number>();
  /** the tick (and the time) at which the last write to a key settled */
  readonly #writtenAt = new Map<string, { seq: number; at: number }>();
  /** rows each list held when last read to its end */
  readonly #totals = new Map<string, number>();
  #seq = 0;

  constructor(opts: ListReadOptions = {}) {
    this.#now = opts.now ?? (() => Date.now());
    this.#inSlot = opts.inSlot ?? ((run) => run());
  }

  take(op: OpSpec): ServerState | null {
    const found = listRouteOf(op);
    if (!found) return null;
    const copy = this.#copies.get(found.key);
    if (!copy) return null;
    this.#copies.delete(found.key);
    if (this.#now() - copy.readAt > FRESH_MS) return null;
    if ((this.#writes.get(found.key) ?? 0) > 0 || copy.seq <= (this.#writtenAt.get(found.key)?.seq ?? -1))
      return null;
    return copy.state;
  }

  writing(op: OpSpec): () => void {
    const keys = keysWrittenBy(op);
    for (const key of keys) {
      this.#copies.delete(key);
      this.#writes.set(key, (this.#writes.get(key) ?? 0) + 1);
    }
    let settled = false;
    return () => {
      if (settled) return;
      settled = true;
      const written = { seq: ++this.#seq, at: this.#now() };
      for (const key of keys) {
        const left = (this.#writes.get(key) ?? 1) - 1;
        if (left > 0) this.#writes.set(key, left);
        else this.#writes.delete(key);
        this.#writtenAt.set(key, written);
      }
      if (this.#writtenAt.size > MAX_WRITES_NOTED) this.#forgetOldWrites();
    };
  }

  /** A write settled more than FRESH_MS ago can only predate copies too old to be used anyway. */
  #forgetOldWrites(): void {
    const now = this.#now();
    for (const [key, written] of this.#writtenAt)
      if (now - written.at > FRESH_MS) this.#writtenAt.delete(key);
  }

  /**
   * Before a batch is sent: for each list route its ops share, read the list
   * when that costs fewer requests than the ops' own reads (pages needed vs
   * ops with no fresh copy). Never throws: what it could not read is read op by op.
   */
  async prefetch(
    client: ReplayClient,
    requests: readonly ReplayRequest[],
    signal?: AbortSignal,
  ): Promise<void> {
    const wanted = new Map<string, { route: ListRoute; keys: Set<string> }>();
    for (const req of requests) {
      // an op that may have been sent before is verified with its own read, as always
      if (req.verifyFirst) continue;
      const found = listRouteOf(req.op);
      if (!found || this.#hasFreshCopy(found.key)) continue;
      const group = wanted.get(found.route.path) ?? { route: found.route, keys: new Set<string>() };
      group.keys.add(found.key);
      wanted.set(found.route.path, group);
    }
    await Promise.all(
      [...wanted.values()].map(async ({ route, keys }) => {
        if (!this.#worthReading(route.path, keys.size)) return;
        await this.#readList(client, route, keys, signal).catch(() => undefined);
      }),
    );
  }

  /**
   * Pages a full read of the list costs, from the rows it held when last read to its end (a list one row longer needs
   * the next page too).
   */
  #pagesOf(total: number): number {
    return Math.floor(total / LIST_PAGE_SIZE) + 1;
  }

  /**
   * Whether reading the list costs fewer requests than `reads` GETs: with its
   * size known, fewer pages than reads; before that, a try from two reads on,
   * stopped as soon as it could no longer save any (see #readList).
   */
  #worthReading(path: string, reads: number): boolean {
    const total = this.#totals.get(path);
    return total === undefined ? reads >= 2 : this.#pagesOf(total) < reads;
  }

  /** Whether the op has a copy it could use now (so it need not wait for a list read under way). */
  hasCopy(op: OpSpec): boolean {
    const found = listRouteOf(op);
    const copy = found ? this.#copies.get(found.key) : undefined;
    return copy !== undefined && this.#now() - copy.readAt <= FRESH_MS;
  }

  #hasFreshCopy(key: string): boolean {
    const copy = this.#copies.get(key);
    return copy !== undefined && this.#now() - copy.readAt <= REREAD_AFTER_MS;
  }

  /**
   * Pages of a list: those the remembered size says, at once (through the
   * network slots), then one by one until a short page. Before the list's size
   * is known, one by one, stopping once every wanted record was found or when
   * the pages read reach the ops' own reads (no saving left to make). A page
   * that fails ends the read: the valid pages read so far are kept.
   */
  async #readList(
    client: ReplayClient,
    route: ListRoute,
    wanted: Set<string>,
    signal?: AbortSignal,
  ): Promise<void> {
    const known = this.#totals.get(route.path);
    const listed: Listed = { seen: new Map(), found: new Set(), rows: 0 };
    let pages = known === undefined ? 0 : this.#pagesOf(known);
    try {
      const firstPages = await Promise.allSettled(
        Array.from({ length: pages }, (_, i) => this.#readPage(client, route, i, signal)),
      );
      for (const page of firstPages)
        if (page.status === 'fulfilled') this.#collect(page.value, listed, wanted);
      const failed = firstPages.find((page) => page.status === 'rejected');
      if (failed) throw failed.reason;
      let last =
        firstPages.at(-1)?.status === 'fulfilled'
          ? (firstPages.at(-1) as PromiseFulfilledResult<Page>).value
          : undefined;
      while (last === undefined || last.items.length === LIST_PAGE_SIZE) {
        if (known === undefined && (listed.found.size === wanted.size || pages >= wanted.size)) return;
        last = await this.#readPage(client, route, pages++, signal);
        this.#collect(last, listed, wanted);
      }
      this.#totals.set(route.path, listed.rows);
    } finally {
      this.#keep(listed.seen);
    }
  }

  async #readPage(
    client: ReplayClient,
    route: ListRoute,
    index: number,
    signal?: AbortSignal,
  ): Promise<Page> {
    return this.#inSlot(async () => {
      const readAt = this.#now();
      const seq = ++this.#seq;
      const query = { startrow: index * LIST_PAGE_SIZE + 1, limit: LIST_PAGE_SIZE };
      const answer = await client.request('GET', route.path, {
        query,
        retry: 'auto',
        ...(signal ? { signal } : {}),
      });
      return { items: route.recordsOf(answer.body, query.startrow), readAt, seq };
    });
  }

  /** Notes a page's records: a record listed twice with different values is dropped (null). */
  #collect(page: Page, listed: Listed, wanted: Set<string>): void {
    listed.rows += page.items.length;
    for (const one of page.items) {
      if (!one) continue;
      const before = listed.seen.get(one.key);
      if (before === undefined)
        listed.seen.set(one.key, { state: one.state, readAt: page.readAt, seq: page.seq });
      else if (before === null || JSON.stringify(before.state) !== JSON.stringify(one.state))
        listed.seen.set(one.key, null);
      if (wanted.has(one.key)) listed.found.add(one.key);
    }
  }

  #keep(seen: Map<string, Copy | null>): void {
    for (const [key, copy] of seen) {
      this.#copies.delete(key);
      if (copy !== null) this.#copies.set(key, copy);
    }
    // oldest first out (a Map keeps insertion order)
    for (const key of this.#copies.keys()) {
      if (this.#copies.size <= MAX_COPIES) break;
      this.#copies.delete(key);
    }
  }
}

interface Page {
  /** the page's records (null: one that is not of this list), one per row */
  items: (ListedRecord | null)[];
  readAt: number;
  seq: number;
}

interface Listed {
  /** null: listed twice with different values, so trusted for nothing */
  seen: Map<string, Copy | null>;
  found: Set<string>;
  rows: number;
}
