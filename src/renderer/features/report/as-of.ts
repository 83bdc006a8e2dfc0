/**
 * The report "as of" a past day: the same report as today's, built by the same
 * computation (build.ts) from the compliance history (history/rebuild.ts) instead
 * of the cache, with page 1's words on how it was rebuilt and where the history
 * does not reach. Nothing pending counts: the Outbox holds today's changes, not that day's.
 */
import type { FieldbookDb } from '../../db/index.ts';
import { formatDate, formatDateTime } from '../../app/format.ts';
import { todayIso } from '../../../shared/dates.ts';
import { NOT_ON_THIS_LAPTOP as NOT_HERE } from '../../app/words.ts';
import { inputOf } from '../../history/facts.ts';
import { loadDay, type RebuiltDay } from '../../history/rebuild.ts';
import type { HistorySyncRow, PersonFact } from '../../history/rows.ts';
import type { LoadedReport, ReportScope } from './queries.ts';

export interface LoadedAsOf extends LoadedReport {
  /** the day the report is as of (ISO date) */
  day: string;
  /** whether the history holds that day (a sync on or before it) */
  reached: boolean;
  /** page 1's sentences: how the report was rebuilt, the nearest syncs, where the history does not reach */
  history: string[];
}

export const isAsOf = (loaded: LoadedReport): loaded is LoadedAsOf => 'history' in loaded;

const droppedOn = (at: string) => formatDate(todayIso(new Date(at)));

/** Where the history starts: this laptop's first sync, or the first kept when older history was dropped. */
function startLine(first: HistorySyncRow): string {
  const start = formatDate(first.day);
  if (!first.droppedBefore) return `Rebuilt from this laptop's syncs since its first sync, on ${start}.`;
  const dropped = droppedOn(first.droppedBefore);
  return `Rebuilt from this laptop's syncs since ${start}: the history before it was dropped on ${dropped}.`;
}

/** Page 1's sentences for a rebuilt day. Pure. */
export function historyNote(rebuilt: RebuiltDay): string[] {
  const { day, first, before, previous, after } = rebuilt;
  const on = formatDate(day);
  if (!first)
    return [
      `This laptop keeps no history yet: it starts with the next complete sync, so ${on} cannot be shown.`,
    ];
  const lines = [startLine(first)];
  if (!before) {
    const nearest = formatDateTime(after!.at);
    const known = first.droppedBefore
      ? `what was known of that day was dropped from this laptop on ${droppedOn(first.droppedBefore)}`
      : 'nothing is known of that day here';
    lines.push(`The history does not reach ${on}: ${known}. The nearest sync after it: ${nearest}.`);
    return lines;
  }
  const next = after ? formatDateTime(after.at) : 'none yet';
  if (rebuilt.syncedThatDay) {
    const earlier = previous ? formatDateTime(previous.at) : 'none (the history starts that day)';
    lines.push(
      `As the sync of ${formatDateTime(before.at)} left it. The syncs on either side: ${earlier}, and ${next}.`,
    );
  } else {
    lines.push(
      `No sync on ${on}: shown as the sync of ${formatDateTime(before.at)} left it, with dates counted on ${on}. ` +
        `Changes made on the platform between that sync and the next (${next}) are not known here.`,
    );
  }
  return lines;
}

function keepOf(scope: ReportScope): (userid: number, fact: PersonFact) => boolean {
  if (scope.kind === 'site') return (_, fact) => fact.u[0] === scope.siteid;
  if (scope.kind === 'group') return (_, fact) => fact.g.includes(scope.groupid);
  const chosen = new Set(scope.userids);
  return (userid) => chosen.has(userid);
}

function scopeLabelOf(rebuilt: RebuiltDay, scope: ReportScope, people: number): string {
  const site = (siteid: number) =>
    rebuilt.catalog.s.find(([id]) => id === siteid)?.[1] ?? rebuilt.lastKept(siteid)?.name ?? NOT_HERE.site;
  if (scope.kind === 'site') return site(scope.siteid);
  if (scope.kind === 'people') return `${people} ${people === 1 ? 'person' : 'people'} chosen`;
  const group = rebuilt.catalog.g.find(([id]) => id === scope.groupid);
  return group ? `${group[3]} (${site(group[1])})` : NOT_HERE.group;
}

/** Page 1's sentence for a site the coordinator no longer kept on this laptop on the day; none for another scope. */
export function unkeptSiteNote(rebuilt: RebuiltDay, scope: ReportScope): string[] {
  if (scope.kind !== 'site' || !rebuilt.before) return [];
  if (rebuilt.catalog.s.some(([id]) => id === scope.siteid)) return [];
  const kept = rebuilt.lastKept(scope.siteid);
  if (!kept) return [];
  return [
    `${kept.name} was not kept on this laptop on that day: its history here stops at the sync of ` +
      `${formatDateTime(kept.sync.at)}.`,
  ];
}

/** A day the history does not reach holds no names: its scope is named as the cache names it today. */
async function todaysScopeLabel(db: FieldbookDb, scope: ReportScope, fallback: string): Promise<string> {
  if (scope.kind === 'site') return (await db.sites.get(scope.siteid))?.sitename ?? fallback;
  if (scope.kind !== 'group') return fallback;
  const group = await db.groups.get(scope.groupid);
  if (!group) return fallback;
  const site = await db.sites.get(group.siteid);
  return `${group.groupname} (${site?.sitename ?? NOT_HERE.site})`;
}

/** The report's input as of `day`, for `scope`, from the history. */
export async function loadReportAsOf(db: FieldbookDb, scope: ReportScope, day: string): Promise<LoadedAsOf> {
  const rebuilt = await loadDay(db, day);
  const input = inputOf(rebuilt.facts, rebuilt.catalog, rebuilt.requirements, keepOf(scope));
  const reached = rebuilt.before !== null;
  const label = scopeLabelOf(rebuilt, scope, input.people.length);
  return {
    input,
    day,
    reached,
    history: [...historyNote(rebuilt), ...unkeptSiteNote(rebuilt, scope)],
    scopeLabel: reached ? label : await todaysScopeLabel(db, scope, label),
    dataAsOf: rebuilt.before?.at ?? null,
    pendingIncluded: 0,
    pendingInOutbox: 0,
  };
}
