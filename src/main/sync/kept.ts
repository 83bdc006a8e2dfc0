/**
 * The people of the kept sites, for a profile keeping some sites: credential
 * holders are listed per credential for the whole customer, so a holder list
 * waits until every kept site's users have been read, and only the rows of
 * those users leave main. The lists are still read whole (the pager pages by
 * the rows received); only what is sent to the renderer is filtered.
 */
import type { Parsed } from '../../shared/api/wire.ts';
import type { RecordBatch, SyncTask } from './tasks.ts';

const OPENS_PEOPLE = new Set(['sites', 'siteUsers']);

export class KeptPeople {
  readonly #userids = new Set<number>();
  /** lists that may still add people (the sites list, each kept site's users) not ended yet */
  #open = 0;

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

  /** The validated items of a page: a kept site's users are the kept people. */
  observe(task: SyncTask, items: readonly unknown[]): void {
    if (task.kind !== 'siteUsers') return;
    for (const user of items as Parsed<'user'>[]) this.#userids.add(user.userid);
  }

  /** A page's records as sent: holders only among the kept people. */
  keep(task: SyncTask, batches: RecordBatch[]): RecordBatch[] {
    if (task.kind !== 'keptCredentialAssignments') return batches;
    return batches.map((b) => (b.collection === 'credentialAssignments' ? { ...b, records: b.records.filter((r) => this.#userids.has(r.userid)) } : b));
  }
}
