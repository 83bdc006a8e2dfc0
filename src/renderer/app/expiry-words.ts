/**
 * How far an expiry date is, as a coordinator says it beside the date:
 * "expires today", "expires tomorrow", "expires in 12 days", "expired
 * yesterday", "expired 3 days ago". Whole calendar days from the local today. Pure.
 */
import { plural } from './words.ts';

const DAY_MS = 86_400_000;

/** Calendar days from `todayIso` to `iso` (both `YYYY-MM-DD`); null when either is not a date. */
export function daysFrom(todayIso: string, iso: string): number | null {
  const at = (d: string) => (/^\d{4}-\d{2}-\d{2}$/.test(d) ? Date.parse(`${d}T00:00:00Z`) : NaN);
  const diff = Math.round((at(iso) - at(todayIso)) / DAY_MS);
  return Number.isFinite(diff) ? diff : null;
}

/** "expires in 12 days"; '' when the date is not known. */
export function expiryWords(expirationIso: string, todayIso: string): string {
  const days = daysFrom(todayIso, expirationIso);
  if (days === null) return '';
  if (days === 0) return 'expires today';
  if (days === 1) return 'expires tomorrow';
  if (days > 1) return `expires in ${plural(days, 'day')}`;
  if (days === -1) return 'expired yesterday';
  return `expired ${plural(-days, 'day')} ago`;
}
