/** What the e-mails of a person's page say about where they come from, in the coordinator's words. */
import { formatDateTime } from '../../app/format.ts';

/** Said under the list: fetched from the site just now, or this laptop's copy ("the cache" is ours, not theirs). */
export function emailsSource(fetchedAt: string | null): string {
  return fetchedAt ? `Fetched from the site ${formatDateTime(fetchedAt)}.` : "As of this laptop's last sync.";
}

export const NO_EMAILS = 'No e-mail address on this laptop.';
