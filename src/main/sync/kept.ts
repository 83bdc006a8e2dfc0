/**
 * The people of the kept sites, for a profile keeping some sites: credential
 * holders are listed per credential for the whole customer, so a holder list
 * waits until every kept site's users have been read, and only the rows of
 * those users leave main. The lists are still read whole (the pager pages by
 * the rows received); only what is sent to the renderer is filtered, the keys
 * of a page's fingerprint too (`filterFor`): the renderer learns nothing of the
 * holders at sites it does not keep.
 */
import { hash } from 'node:crypto';
import type { Parsed } from '../../shared/api/wire.ts';
import { recordKeyOfItemKey } from './page-keys.ts';
import type { RecordBatch, SyncTask } from './tasks.ts';

const OPENS_PEOPLE = new Set(['sites', 'siteUsers']);

/** A list whose pages keep only some rows (compare.ts). */
export interface PageFilter {
  /** mixed into the hash of a whole page: a page is skipped only while it is the same */
  salt: string;
  /** whether the item of this key is one the cache keeps */
  keeps: (itemKey: string | number) => boolean;
}

export class KeptPeople {
  readonly #userids = new Set<number>();
  /** lists that may still add people (the sites list, each kept site's users) not ended yet */
  #open = 0;
  /** the kept people as one hash, once they are all known */
  #salt: string | undefined;

  /** A task joined the pass. */
  added(task: SyncTask): void {
    if (OPENS_PEOPLE.has(task.kind)) this.#open++;
  }

  /** A task of the pass ended (read, failed or stopped). */
  ended(task: SyncTask): void {
    if (OPENS_PEOPLE.has(task.kind)) this.#open--;
  }

  /** Holder lists start once every kept site's users are known. */
  mayStart(task: SyncTask): boolean {
    return task.kind !== 'keptCredentialAssignments' || this.#open === 0;
  }

  /**
   * A page of a kept site's users: its validated items, and the keys of those
   * the cache holds as received (a page or item skipped by its fingerprint,
   * page-keys.ts): both are kept people.
   */
  observe(task: SyncTask, items: readonly unknown[], knownKeys: readonly (string | number)[]): void {
    if (task.kind !== 'siteUsers') return;
    for (const user of items as Parsed<'user'>[]) this.#userids.add(user.userid);
    for (const userid of knownKeys) if (typeof userid === 'number') this.#userids.add(userid);
  }

  /**
   * How a holder list's pages are compared with their fingerprints (compare.ts):
   * salted with the kept people (a page is skipped whole only while they are
   * those its fingerprint was written for: someone who moved to a kept site
   * makes every page read again), and listing only the kept people's rows.
   * Undefined for other lists. Asked once the kept people are known (`mayStart`).
   */
  filterFor(task: SyncTask): PageFilter | undefined {
    if (task.kind !== 'keptCredentialAssignments') return undefined;
    const salt =
      this.#salt ?? hash('sha256', [...this.#userids].sort((a, b) => a - b).join(','), 'base64url');
    if (this.#open === 0) this.#salt = salt;
    return { salt, keeps: (itemKey) => this.keeps(task, recordKeyOfItemKey(task, itemKey)) };
  }

  /**
   * Whether a record of `task` (by its key) goes to the renderer: for a holder list, only a kept person's row
   * ("credentialid-userid").
   */
  keeps(task: SyncTask, recordKey: string | number | null): boolean {
    if (task.kind !== 'keptCredentialAssignments') return recordKey !== null;
    if (recordKey === null) return false;
    const text = String(recordKey);
    return this.#userids.has(Number(text.slice(text.indexOf('-') + 1)));
  }

  /** A page's records as sent: holders only among the kept people. */
  keep(task: SyncTask, batches: RecordBatch[]): RecordBatch[] {
    if (task.kind !== 'keptCredentialAssignments') return batches;
    return batches.map((b) =>
      b.collection === 'credentialAssignments'
        ? { ...b, records: b.records.filter((r) => this.#userids.has(r.userid)) }
        : b,
    );
  }
}
