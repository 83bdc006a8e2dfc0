/**
 * The sites not kept on this laptop, for the import (issue 28): usernames and
 * e-mail addresses are unique across the customer, but the cache holds only
 * the kept sites' people. Main keeps a light index of the others' (hashed
 * usernames and addresses per site, filled by the sync) and answers for the
 * values a file holds (`identities:check`), offline too. Pure, but for
 * `askSitesNotKept`, which asks main.
 */
import { MAX_IDENTITIES_PER_CHECK, type FieldbookApi, type IdentitiesCheck } from '../../../shared/ipc.ts';
import { plural } from '../../app/words.ts';
import { forEachSliced } from '../../../shared/sliced.ts';
import type { ImportRow } from './file-row.ts';

/** What main's index says of the file's values: who holds one, by site name; or why they could not all be checked. */
export interface SitesNotKept {
  /** a lower-cased username → the name of the site not kept where someone has it */
  username: ReadonlyMap<string, string>;
  email: ReadonlyMap<string, string>;
  /** why those sites could not be checked, in words (null: they were) */
  unchecked: string | null;
  /** when a sync read those sites' people, the oldest of them (null: not asked, or never read) */
  readAt: string | null;
}

export const NONE_NOT_KEPT: SitesNotKept = {
  username: new Map(),
  email: new Map(),
  unchecked: null,
  readAt: null,
};

/**
 * The distinct usernames and e-mails of the rows (lower-cased), in messages of
 * MAX_IDENTITIES_PER_CHECK at most. A slice at a time: on a 100,000-row file
 * the rows' 200,000 values took one task of 73 ms on the window's thread
 * (`npm run bench -- import`, profiled), longer than the 50 ms a task may take.
 */
export async function valuesToCheck(
  rows: readonly ImportRow[],
  stopped?: () => boolean,
): Promise<{ usernames: string[]; emails: string[] }[] | null> {
  const usernames = new Set<string>();
  const emails = new Set<string>();
  const read = await forEachSliced(
    rows.length,
    (i) => {
      const { values } = rows[i]!;
      const username = values.username || rows[i]!.derived;
      if (username && username.length <= 320) usernames.add(username.toLowerCase());
      if (values.email && values.email.length <= 320) emails.add(values.email.toLowerCase());
    },
    stopped ? { stopped } : {},
  );
  if (!read) return null;
  const all = [...[...usernames].map((v) => ['u', v] as const), ...[...emails].map((v) => ['e', v] as const)];
  const out: { usernames: string[]; emails: string[] }[] = [];
  for (let at = 0; at < all.length; at += MAX_IDENTITIES_PER_CHECK) {
    const part = all.slice(at, at + MAX_IDENTITIES_PER_CHECK);
    out.push({
      usernames: part.filter(([k]) => k === 'u').map(([, v]) => v),
      emails: part.filter(([k]) => k === 'e').map(([, v]) => v),
    });
  }
  return out;
}

/** "North Depot", "North Depot and Quarry", "North Depot and 3 other sites". */
function sitesInWords(names: readonly string[]): string {
  if (names.length <= 2) return names.join(' and ');
  return `${names[0]} and ${plural(names.length - 1, 'other site')}`;
}

/** Main's answers, merged, as the matching reads them. */
export function sitesNotKeptOf(answers: readonly IdentitiesCheck[]): SitesNotKept {
  const username = new Map<string, string>();
  const email = new Map<string, string>();
  for (const a of answers)
    for (const h of a.held)
      (h.field === 'username' ? username : email).set(h.value.toLowerCase(), h.sitename);
  const first = answers[0];
  let unchecked: string | null = null;
  if (first?.notSynced)
    unchecked =
      'The usernames and e-mails of the sites not kept on this laptop are not known here until a sync has read them';
  else if (first && first.unknownSites.length > 0) {
    const sites = sitesInWords(first.unknownSites);
    unchecked = `The usernames and e-mails of ${sites}, not kept on this laptop, are not known here until a sync has read them`;
  }
  const readAt =
    answers
      .map((a) => a.syncedAt)
      .filter((t): t is string => t !== null)
      .sort()[0] ?? null;
  return { username, email, unchecked, readAt };
}

/** The index could not be asked at all (main answered with an error): nothing was checked. */
export function notAsked(message: string): SitesNotKept {
  return {
    ...NONE_NOT_KEPT,
    unchecked: `The sites not kept on this laptop could not be checked (${message.replace(/\.$/, '')})`,
  };
}

/**
 * Asks main about the rows' values (several messages for a large file); the
 * sites the cache holds are not asked about. Null when stopped (the file or
 * the settings changed meanwhile).
 */
export async function askSitesNotKept(
  api: FieldbookApi,
  rows: readonly ImportRow[],
  cachedSites: readonly number[],
  stopped?: () => boolean,
): Promise<SitesNotKept | null> {
  const answers: IdentitiesCheck[] = [];
  const parts = await valuesToCheck(rows, stopped);
  if (!parts) return null;
  for (const part of parts.length > 0 ? parts : [{ usernames: [], emails: [] }]) {
    const res = await api['identities:check']({ ...part, cachedSites: [...cachedSites] });
    if (!res.ok) return notAsked(res.error.message);
    answers.push(res.value);
  }
  return sitesNotKeptOf(answers);
}
