/** Display of dates and numbers in the user's locale. Wire dates are never shown raw when an ISO form exists. */

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(locale: string | undefined): Intl.DateTimeFormat {
  const key = locale ?? '';
  let f = dateFormats.get(key);
  if (!f) {
    // the ISO date is a calendar day: format it in UTC so no time zone shifts it
    f = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
    dateFormats.set(key, f);
  }
  return f;
}

/** `YYYY-MM-DD` as the user's locale writes it; '' (unset or unreadable) as "No date". */
export function formatDate(iso: string, locale?: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return 'No date';
  return dateFormat(locale).format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))));
}

// Formatters are made once per locale: making one costs far more than formatting with it
// (the sync status formats a dozen counts on every page a sync writes).
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

/** An instant (ISO timestamp) as local date and time, or "Never". */
export function formatDateTime(instant: string | null | undefined, locale?: string): string {
  if (!instant) return 'Never';
  const t = Date.parse(instant);
  if (Number.isNaN(t)) return 'Never';
  const key = locale ?? '';
  let f = dateTimeFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    dateTimeFormats.set(key, f);
  }
  return f.format(new Date(t));
}

export function formatCount(n: number, locale?: string): string {
  const key = locale ?? '';
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale);
    numberFormats.set(key, f);
  }
  return f.format(n);
}

/** "1,234 of 5,000" when the total is known (and not already passed: totals are estimates), else "1,234". */
export function formatProgress(done: number, total: number | null, locale?: string): string {
  return total !== null && total > 0 && total >= done
    ? `${formatCount(done, locale)} of ${formatCount(total, locale)}`
    : formatCount(done, locale);
}

export function formatRate(perSecond: number, locale?: string): string {
  return `${formatCount(Math.round(perSecond), locale)} records/s`;
}
