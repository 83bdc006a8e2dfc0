/**
 * The compliance trend: % of active people compliant per site, day by day, from
 * the history's daily figures (history/snapshot.ts). A day without a sync has no
 * value (drawn as a gap, not a flat line); the days the requirements changed are
 * marked. Pure, but for `loadTrend`.
 */
import { addDaysIso } from '../../../shared/dates.ts';
import type { FieldbookDb } from '../../db/index.ts';
import type { HistorySharedRow, HistorySyncRow } from '../../history/rows.ts';
import { readSyncs } from '../../history/sync-figures.ts';

export const TREND_SPANS = [30, 90, 365] as const;
export type TrendSpan = (typeof TREND_SPANS)[number];

export interface TrendDay {
  day: string;
  /** "site:101" → % compliant that day (one decimal); absent: no sync that day, or nobody in scope */
  percent: Record<string, number | null>;
}

export interface Trend {
  days: TrendDay[];
  /** the site scopes drawn ("site:101") */
  scopes: string[];
  /** the days within the span the requirements changed */
  requirementDays: string[];
}

const percentOf = (compliant: number, people: number): number | null =>
  people === 0 ? null : Math.round((compliant / people) * 1000) / 10;

/** The trend over the `span` days ending `today`, of one site or (siteid null) of every site the history holds. */
export function trendOf(
  syncs: readonly HistorySyncRow[],
  requirements: readonly Pick<HistorySharedRow, 'seq'>[],
  span: TrendSpan,
  today: string,
  siteid: number | null,
): Trend {
  const from = addDaysIso(today, 1 - span);
  const lastOfDay = new Map<string, HistorySyncRow>();
  for (const sync of [...syncs].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))) lastOfDay.set(sync.day, sync);
  const allScopes = [...lastOfDay.values()].flatMap((s) => s.figures.map((f) => f.scope));
  const scopes = [...new Set(allScopes)]
    .filter((scope) => scope.startsWith('site:') && (siteid === null || scope === `site:${siteid}`))
    .sort();
  const days: TrendDay[] = [];
  for (let day = from; day <= today; day = addDaysIso(day, 1)) {
    const figures = lastOfDay.get(day)?.figures ?? [];
    const percent: TrendDay['percent'] = {};
    for (const scope of scopes) {
      const f = figures.find((x) => x.scope === scope);
      percent[scope] = f ? percentOf(f.compliant, f.people) : null;
    }
    days.push({ day, percent });
  }
  // the first requirements row is the history's start, not a change
  const dayOfSeq = new Map(syncs.map((s) => [s.seq, s.day]));
  const changed = [...requirements]
    .sort((a, b) => a.seq - b.seq)
    .slice(1)
    .map((r) => dayOfSeq.get(r.seq))
    .filter((d): d is string => d !== undefined && d >= from && d <= today);
  return { days, scopes, requirementDays: [...new Set(changed)] };
}

/** The days of the trend with a figure for at least one of its sites. */
export function syncedDays(trend: Trend): TrendDay[] {
  return trend.days.filter((d) => trend.scopes.some((s) => d.percent[s] !== null));
}

/**
 * What a trend with too few days to draw a line says beside it (null when it has two days or more):
 * a lone day is a dot, and a coordinator would otherwise take it for a stray mark.
 */
export function sparseTrendWords(trend: Trend, dateWords: (day: string) => string): string | null {
  const synced = syncedDays(trend);
  if (synced.length !== 1) return null;
  return (
    `One day synced in this period so far (${dateWords(synced[0]!.day)}): ` +
    'each day with a sync adds a point, and the days between syncs stay gaps.'
  );
}

/** Reads the history's syncs (one small row a sync) and requirement changes, and makes the trend. */
export async function loadTrend(
  db: FieldbookDb,
  span: TrendSpan,
  today: string,
  siteid: number | null,
): Promise<Trend> {
  const [syncs, shared] = await Promise.all([readSyncs(db), db.historyShared.toArray()]);
  const requirements = shared.filter((r) => r.kind === 'requirements');
  return trendOf(syncs, requirements, span, today, siteid);
}
