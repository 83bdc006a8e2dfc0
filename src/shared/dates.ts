/**
 * Wire dates and their normalised ISO form. The cache keeps the wire value and
 * stores `YYYY-MM-DD` beside it for indexing and comparison; an unset or
 * unreadable date normalises to '' (never a guess).
 */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function valid(y: number, m: number, d: number): boolean {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d)) return false;
  if (y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

function iso(y: number, m: number, d: number): string {
  return valid(y, m, d) ? `${pad(y, 4)}-${pad(m)}-${pad(d)}` : '';
}

/**
 * Normalise any date the API uses to `YYYY-MM-DD`:
 * `MM/DD/YYYY` (results), `YYYY-MM-DD` (inputs), and
 * `<Month name> DD YYYY HH:MM:SS` (training assignments). Returns '' otherwise.
 */
export function toIsoDate(wire: string | null | undefined): string {
  if (!wire) return '';
  const s = wire.trim();
  return fastIsoDate(s) ?? toIsoDateByPattern(s);
}

/** Digits at s[from, from+count) as a number, or -1. */
function digitsAt(s: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/**
 * The two fixed-width shapes a sync meets millions of times (`MM/DD/YYYY`,
 * `Month DD YYYY HH:MM:SS`) read without regular expressions; null means "use
 * the general patterns". Gives the same answer as toIsoDateByPattern.
 */
function fastIsoDate(s: string): string | null {
  if (s.length === 10 && s.charCodeAt(2) === 47 && s.charCodeAt(5) === 47) {
    const month = digitsAt(s, 0, 2);
    const day = digitsAt(s, 3, 2);
    const year = digitsAt(s, 6, 4);
    return month < 0 || day < 0 || year < 0 ? null : iso(year, month, day);
  }
  const space = s.indexOf(' ');
  // "March 05 2026 00:00:00": month name, then exactly "DD YYYY HH:MM:SS"
  if (
    space > 2 &&
    s.length === space + 17 &&
    s.charCodeAt(space + 3) === 32 &&
    s.charCodeAt(space + 8) === 32
  ) {
    const month = MONTHS.indexOf(s.slice(0, space).toLowerCase()) + 1;
    const day = digitsAt(s, space + 1, 2);
    const year = digitsAt(s, space + 4, 4);
    const time = s.slice(space + 9);
    if (month > 0 && day >= 0 && year >= 0 && /^\d{2}:\d{2}:\d{2}$/.test(time)) return iso(year, month, day);
  }
  return null;
}

/** The general patterns (reference behaviour of toIsoDate, for trimmed input). */
export function toIsoDateByPattern(s: string): string {
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (m) return iso(Number(m[3]), Number(m[1]), Number(m[2]));
  m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(s);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^([A-Za-z]+)\s+(\d{1,2}),?\s+(\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?$/.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[1]!.toLowerCase()) + 1;
    if (month > 0) return iso(Number(m[3]), month, Number(m[2]));
  }
  return '';
}

/** `YYYY-MM-DD` to the results format `MM/DD/YYYY` ('' stays ''). */
export function isoToWireDate(isoDate: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : '';
}

/** `YYYY-MM-DD` to the training format `<Month name> DD YYYY 00:00:00`. */
export function isoToLongDate(isoDate: string, time = '00:00:00'): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!m) return '';
  const name = MONTHS[Number(m[2]) - 1]!;
  return `${name[0]!.toUpperCase()}${name.slice(1)} ${m[3]} ${m[1]} ${time}`;
}

/** Today's date as `YYYY-MM-DD` in local time (what the user means by "today"). */
export function todayIso(now: Date = new Date()): string {
  return `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function computeAddDaysIso(isoDate: string, days: number): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!m) return '';
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days));
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** The results kept, by days added then date: the report asks "today + 30" once a credential or course a person. */
const added = new Map<number, Map<string, string>>();
const ADDED_KEPT = { counts: 16, dates: 20_000 };

/**
 * Add whole days to an ISO date. Remembered (a few hundred thousand calls a report or a history snapshot on `l`,
 * with few distinct arguments): at most 16 counts of days and 20,000 dates each, emptied past that.
 */
export function addDaysIso(isoDate: string, days: number): string {
  let byDate = added.get(days);
  if (!byDate) {
    if (added.size >= ADDED_KEPT.counts) added.clear();
    byDate = new Map();
    added.set(days, byDate);
  }
  let out = byDate.get(isoDate);
  if (out === undefined) {
    if (byDate.size >= ADDED_KEPT.dates) byDate.clear();
    out = computeAddDaysIso(isoDate, days);
    byDate.set(isoDate, out);
  }
  return out;
}
