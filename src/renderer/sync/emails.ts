/**
 * E-mails the server dropped. A users list item lists its user's e-mails (a
 * complete read of them); a cached e-mail of that user it does not list is
 * gone from the server, and is removed with the user's write, in the same
 * transaction: the page's fingerprint then promises the cache holds what the
 * item said, e-mails included, and a later pass that skips the unchanged item
 * would never look again. Removed only when the item listed some e-mail (the
 * list carries them) or the cached one came with the list (`fromList`): a
 * server whose list items carry no e-mails (the spec's samples) leaves those
 * read one user at a time alone.
 */
import type { UserEmailsListed } from '../../shared/ipc.ts';
import type { EmailRecord } from '../../shared/records.ts';
import type { FieldbookDb } from '../db/index.ts';

/** The ids of cached e-mails the users' items no longer list (pure). */
export function unlistedEmails(
  cached: readonly EmailRecord[],
  listed: readonly UserEmailsListed[],
): number[] {
  const byUser = new Map(listed.map((l) => [l.userid, l.emailids]));
  const out: number[] = [];
  for (const e of cached) {
    const ids = byUser.get(e.userid);
    if (!ids || ids.includes(e.emailid)) continue;
    if (ids.length > 0 || e.fromList === true) out.push(e.emailid);
  }
  return out;
}

/** Removes them; call inside the transaction that writes the users (it must hold `emails`). Returns how many went. */
export async function removeUnlistedEmails(
  db: FieldbookDb,
  listed: readonly UserEmailsListed[],
): Promise<number> {
  if (listed.length === 0) return 0;
  const cached = await db.emails
    .where('userid')
    .anyOf(listed.map((l) => l.userid))
    .toArray();
  const gone = unlistedEmails(cached, listed);
  if (gone.length > 0) await db.emails.bulkDelete(gone);
  return gone.length;
}
