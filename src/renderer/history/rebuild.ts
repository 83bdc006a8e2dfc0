/**
 * Any past day rebuilt from the history: the people as the last sync on or before
 * that day left them, the names and requirements of then, and the syncs on either
 * side. Pure; `loadDay` reads what it needs by index.
 */
import type { FieldbookDb } from '../db/index.ts';
import type { RequirementRow } from '../features/requirements/model.ts';
import { EMPTY_CATALOG, type Catalog } from './facts.ts';
import { factsAfter } from './change.ts';
import { readPeopleRows } from './packs.ts';
import { readSyncs } from './sync-figures.ts';
import { readShared } from './shared-rows.ts';
import type { HistoryPersonRow, HistorySharedRow, HistorySyncRow, PersonFact } from './rows.ts';

export interface HistoryRecords {
  syncs: readonly HistorySyncRow[];
  people: readonly HistoryPersonRow[];
  shared: readonly HistorySharedRow[];
}

export interface RebuiltDay {
  day: string;
  /** the first sync this laptop's history holds; null: none yet */
  first: HistorySyncRow | null;
  /** the last sync on or before the day, which the day is rebuilt from; null: the history does not reach the day */
  before: HistorySyncRow | null;
  /** the last sync before the day itself (the same as `before` when the day had none) */
  previous: HistorySyncRow | null;
  /** the first sync after the day; null: none since */
  after: HistorySyncRow | null;
  /** whether a sync ran on the day itself (`before` is then that day's last) */
  syncedThatDay: boolean;
  facts: Map<number, PersonFact>;
  catalog: Catalog;
  requirements: RequirementRow[];
  /** a site the day's names lack: its name and the last sync that kept it on this laptop (null: none ever did) */
  lastKept: (siteid: number) => KeptSite | null;
}

export interface KeptSite {
  name: string;
  sync: HistorySyncRow;
}

const bySeq = <T extends { seq?: number }>(a: T, b: T) => (a.seq ?? 0) - (b.seq ?? 0);

/** The syncs around a day: the last on or before it, the last before it, the first after it. */
export function syncsAround(syncs: readonly HistorySyncRow[], day: string) {
  const ordered = [...syncs].sort(bySeq);
  const before = ordered.filter((s) => s.day <= day).at(-1) ?? null;
  const previous = ordered.filter((s) => s.day < day).at(-1) ?? null;
  const after = ordered.find((s) => s.day > day) ?? null;
  return { first: ordered[0] ?? null, before, previous, after };
}

function sharedAsOf<T>(
  shared: readonly HistorySharedRow[],
  kind: HistorySharedRow['kind'],
  seq: number,
  empty: T,
): T {
  const row = shared
    .filter((r) => r.kind === kind && r.seq <= seq)
    .sort((a, b) => (a.id ?? 0) - (b.id ?? 0))
    .at(-1);
  return row ? (JSON.parse(row.value) as T) : empty;
}

/**
 * The last sync up to `upTo` whose names held the site: a site the coordinator stopped keeping on this laptop has
 * its history stop there. A names row holds from its sync until the sync of the next one.
 */
export function lastKeptSite(history: HistoryRecords, siteid: number, upTo: number): KeptSite | null {
  const catalogs = history.shared
    .filter((r) => r.kind === 'catalog' && r.seq <= upTo)
    .sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
  let found: { name: string; until: number } | null = null;
  catalogs.forEach((row, i) => {
    const site = (JSON.parse(row.value) as Catalog).s.find(([id]) => id === siteid);
    if (site) found = { name: site[1], until: (catalogs[i + 1]?.seq ?? upTo + 1) - 1 };
  });
  if (!found) return null;
  const { name, until } = found;
  const sync = [...history.syncs]
    .sort(bySeq)
    .filter((s) => (s.seq ?? 0) <= until)
    .at(-1);
  return sync ? { name, sync } : null;
}

export function rebuildDay(history: HistoryRecords, day: string): RebuiltDay {
  const { first, before, previous, after } = syncsAround(history.syncs, day);
  const upTo = before?.seq ?? -1;
  const facts = factsAfter(history.people.filter((r) => r.seq <= upTo));
  return {
    day,
    first,
    before,
    previous,
    after,
    syncedThatDay: before?.day === day,
    facts,
    catalog: sharedAsOf(history.shared, 'catalog', upTo, EMPTY_CATALOG),
    requirements: sharedAsOf<RequirementRow[]>(history.shared, 'requirements', upTo, []),
    lastKept: (siteid) => lastKeptSite(history, siteid, upTo),
  };
}

/** Reads the history a day needs (the people's rows up to the last sync on or before it) and rebuilds it. */
export async function loadDay(db: FieldbookDb, day: string): Promise<RebuiltDay> {
  const syncs = await readSyncs(db);
  const { before } = syncsAround(syncs, day);
  const people = before ? await readPeopleRows(db, { upTo: before.seq! }) : [];
  const shared = await readShared(db);
  return rebuildDay({ syncs, people, shared }, day);
}
