/** What the "Since last sync" view and the dashboard summary show, from the change log. Pure. */
import { CHANGE_KINDS, type ChangeEntry, type ChangeKind } from '../../sync/changes.ts';
import type { SyncChangeLog } from '../../sync/log.ts';
import { NOT_ON_THIS_LAPTOP as NOT_HERE } from '../../app/words.ts';

export interface DatedChange extends ChangeEntry {
  /** when the sync that saw it ended */
  at: string;
}

/** The changes of the syncs from `fromSeq` on (all kept syncs when null), newest first. */
export function changesSince(logs: readonly SyncChangeLog[], fromSeq: number | null): DatedChange[] {
  const out: DatedChange[] = [];
  const chosen = logs
    .filter((log) => fromSeq === null || (log.seq ?? 0) >= fromSeq)
    .sort((a, b) => (b.seq ?? 0) - (a.seq ?? 0));
  for (const log of chosen) for (const change of log.changes) out.push({ ...change, at: log.at });
  return out;
}

/** Changes counted but not listed (a sync with more than the log lists). */
export function omittedSince(logs: readonly SyncChangeLog[], fromSeq: number | null): number {
  return logs
    .filter((log) => fromSeq === null || (log.seq ?? 0) >= fromSeq)
    .reduce((sum, log) => sum + log.omitted, 0);
}

/** One sync's counts by kind in the fixed order: every change counted, also those beyond what the log lists. */
export function countsOfSync(log: Pick<SyncChangeLog, 'counts'>): { kind: ChangeKind; count: number }[] {
  return CHANGE_KINDS.filter((k) => (log.counts[k] ?? 0) > 0).map((kind) => ({
    kind,
    count: log.counts[kind]!,
  }));
}

export interface ChangeFilter {
  siteid: number | null;
  /** members of the chosen group (null: any group) */
  members: ReadonlySet<number> | null;
}

export function filterChanges(
  changes: readonly DatedChange[],
  filter: ChangeFilter,
  siteOf: (userid: number) => number | undefined,
): DatedChange[] {
  return changes.filter((c) => {
    if (filter.members && !filter.members.has(c.u)) return false;
    if (filter.siteid !== null && (c.s ?? siteOf(c.u)) !== filter.siteid) return false;
    return true;
  });
}

export function countsByKind(changes: readonly ChangeEntry[]): { kind: ChangeKind; count: number }[] {
  const counts = new Map<ChangeKind, number>();
  for (const c of changes) counts.set(c.k, (counts.get(c.k) ?? 0) + 1);
  return CHANGE_KINDS.filter((k) => counts.has(k)).map((kind) => ({ kind, count: counts.get(kind)! }));
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
function formatter(
  locale: string | undefined,
  timeZone: string | undefined,
  style: 'day' | 'time' | 'dateTime',
): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${timeZone ?? ''}|${style}`;
  let f = dayFormats.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      style === 'day'
        ? { year: 'numeric', month: '2-digit', day: '2-digit' }
        : style === 'time'
          ? { timeStyle: 'short' }
          : { dateStyle: 'medium', timeStyle: 'short' };
    f = new Intl.DateTimeFormat(locale, { ...options, ...(timeZone ? { timeZone } : {}) });
    dayFormats.set(key, f);
  }
  return f;
}

export interface PeriodOptions {
  /** the day the reader is in (its date is left out when both ends fall on it) */
  now?: Date;
  locale?: string;
  timeZone?: string;
}

/**
 * The time a set of syncs covers, as a person says it: "from 10:55 to 11:01" (today),
 * "from Mar 2, 2026, 9:10 PM to 11:01 AM" (the next day). `fromIso` '' (the sync before
 * is not known): "up to 11:01".
 */
export function periodWords(
  fromIso: string,
  toIso: string,
  { now = new Date(), locale, timeZone }: PeriodOptions = {},
): string {
  const day = (d: Date) => formatter(locale, timeZone, 'day').format(d);
  const to = new Date(toIso);
  const from = fromIso ? new Date(fromIso) : null;
  const startDay = from ?? to;
  const first = day(startDay) === day(now) ? 'time' : 'dateTime';
  const toText = formatter(
    locale,
    timeZone,
    day(to) === day(startDay) && (from !== null || first === 'time') ? 'time' : 'dateTime',
  ).format(to);
  if (!from || Number.isNaN(from.getTime())) return `up to ${toText}`;
  const fromText = formatter(locale, timeZone, first).format(from);
  // two syncs within a minute: "from 8:37 to 8:37" reads as a mistake
  return fromText === toText ? `at ${toText}` : `from ${fromText} to ${toText}`;
}

/** The names a change's words refer to by id. */
export interface ChangeNames {
  sites: ReadonlyMap<number, string>;
  credentials: ReadonlyMap<number, string>;
  groups: ReadonlyMap<number, string>;
  features: ReadonlyMap<number, string>;
  courses: ReadonlyMap<number, string>;
}

/**
 * What changed, in words: the log keeps ids ("credential 5003: 2026-06-01 → 2027-06-01",
 * "group 2001", "101 → 102" for a move); the reader gets the names and dates.
 */
export function changeWords(
  change: Pick<ChangeEntry, 'k' | 'd'>,
  names: ChangeNames,
  formatDay: (iso: string) => string,
): string {
  if (change.k === 'person.removed') return 'Removed';
  let text = change.d ?? '';
  if (change.k === 'person.site')
    text = text.replace(/\d+/g, (id) => names.sites.get(Number(id)) ?? NOT_HERE.site);
  const named = (map: ReadonlyMap<number, string>, unknown: string) => (_whole: string, id: string) =>
    map.get(Number(id)) ?? unknown;
  text = text
    .replace(/\bcredential (\d+)/g, named(names.credentials, NOT_HERE.credential))
    .replace(/\bgroup (\d+)/g, named(names.groups, NOT_HERE.group))
    .replace(/\bfeature (\d+)/g, named(names.features, NOT_HERE.feature))
    .replace(/\bcourse (\d+)/g, named(names.courses, NOT_HERE.course))
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, (iso) => formatDay(iso))
    .replace(/(^|: ) →/g, '$1(none) →')
    .replace(/→ $/, '→ (none)');
  return text;
}
