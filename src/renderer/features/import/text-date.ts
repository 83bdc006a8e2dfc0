/**
 * A date typed as text in a spreadsheet cell, in the common forms: ISO
 * (2026-03-04), with a month name (4 Mar 2026, March 4, 2026, 04-Mar-2026),
 * or numeric with slashes, dots or dashes (03/04/2026, 3.4.26). A numeric
 * date whose day and month could be either way round is never guessed: it is
 * ambiguous unless the user chose the order for the file. Pure.
 */
export type DayMonthOrder = 'dmy' | 'mdy';
export type TextDate = { iso: string } | { error: string };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function monthOf(name: string): number {
  const lower = name.toLowerCase().replace(/\.$/, '');
  if (lower.length < 3) return 0;
  const i = MONTHS.indexOf(lower.slice(0, 3));
  return i >= 0 &&
    'january february march april may june july august september october november december sept'.includes(
      lower,
    )
    ? i + 1
    : 0;
}

function fullYear(y: string): number {
  const n = Number(y);
  return y.length === 2 ? 2000 + n : n;
}

function isoOf(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2199 || month < 1 || month > 12 || day < 1) return null;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The ISO date a cell shows, or why it is not one (ambiguous day/month order named as such). */
export function parseTextDate(text: string, order?: DayMonthOrder): TextDate {
  const s = text.trim();
  const bad = { error: `"${s.slice(0, 40)}" is not a date (write it as 2026-03-04 or 4 Mar 2026).` };
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ]\d{1,2}:\d{2}(?::\d{2})?)?$/.exec(s);
  if (m) return wrap(isoOf(Number(m[1]), Number(m[2]), Number(m[3])), bad);
  m = /^(\d{1,2})[\s-]+([A-Za-z]+\.?)[\s-,]+(\d{2}|\d{4})$/.exec(s);
  if (m) return wrap(monthOf(m[2]!) ? isoOf(fullYear(m[3]!), monthOf(m[2]!), Number(m[1])) : null, bad);
  m = /^([A-Za-z]+\.?)\s+(\d{1,2}),?\s+(\d{4})$/.exec(s);
  if (m) return wrap(monthOf(m[1]!) ? isoOf(Number(m[3]), monthOf(m[1]!), Number(m[2])) : null, bad);
  m = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{2}|\d{4})$/.exec(s);
  if (!m) return bad;
  const a = Number(m[1]);
  const b = Number(m[3]);
  const year = fullYear(m[4]!);
  const dmy = isoOf(year, b, a);
  const mdy = isoOf(year, a, b);
  if (order === 'dmy') return wrap(dmy, bad);
  if (order === 'mdy') return wrap(mdy, bad);
  if (dmy && mdy && dmy !== mdy) {
    const [dayFirst, monthFirst] = [longDate(dmy), longDate(mdy)];
    return {
      error: `"${s}" could be ${dayFirst} or ${monthFirst}: choose how the file writes dates (day first or month first).`,
    };
  }
  return wrap(dmy ?? mdy, bad);
}

function wrap(iso: string | null, bad: { error: string }): TextDate {
  return iso ? { iso } : bad;
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function longDate(iso: string): string {
  const [y, mo, d] = iso.split('-');
  const month = MONTH_NAMES[Number(mo) - 1];
  return `${Number(d)} ${month} ${y}`;
}
