/**
 * The history's horizon: what is older than it can be dropped (after the
 * coordinator exported it, dashboard). Dropping keeps the last sync before the
 * horizon as the history's new start and folds the people's rows up to it into
 * one row per person still there, holding their whole record and their open
 * findings, so every day from that sync on is rebuilt exactly as before; the
 * names and requirements in force then are kept the same way.
 */
import { addDaysIso } from '../../shared/dates.ts';
import type { FieldbookDb } from '../db/index.ts';
import { factChange, replay } from './change.ts';
import { appendRows, packRows, unpackAll } from './packs.ts';
import { syncOf } from './sync-figures.ts';
import type { HistoryPersonRow, HistorySyncRow, KeptSharedRow, PersonFact } from './rows.ts';

/** The horizon the coordinator is offered first: two years, as the issue asks. */
export const DEFAULT_HORIZON_YEARS = 2;

/** The first day the history keeps with a horizon of `years` on `today`. */
export const horizonDay = (today: string, years: number): string =>
  addDaysIso(today, -Math.round(years * 365.25));

/** What dropping before a day would do: the syncs dropped, and the sync the history would then start from. */
export interface DropPlan {
  /** the syncs before the new start, dropped with their figures */
  dropped: number;
  /** the last sync before the horizon, kept as the start; null: nothing to drop */
  start: HistorySyncRow | null;
}

export async function dropPlan(db: FieldbookDb, firstKept: string): Promise<DropPlan> {
  const older = (await db.historySyncs.where('day').below(firstKept).toArray()).map(syncOf);
  const start = older.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0)).at(-1) ?? null;
  return { dropped: Math.max(0, older.length - 1), start: older.length > 1 ? start : null };
}

/** Each person's fact and open findings after the rows (the rows of everyone up to a sync). Pure. */
export function foldedRows(rows: readonly HistoryPersonRow[], seq: number): HistoryPersonRow[] {
  const facts = new Map<number, PersonFact>();
  const open = new Map<number, Set<string>>();
  for (const { row, fact } of replay(rows)) {
    const findings = open.get(row.userid) ?? new Set<string>();
    for (const key of row.r ?? []) findings.delete(key);
    for (const key of row.a ?? []) findings.add(key);
    open.set(row.userid, findings);
    if (fact) facts.set(row.userid, fact);
    else {
      facts.delete(row.userid);
      open.delete(row.userid);
    }
  }
  return [...facts].map(([userid, fact]) => {
    const a = [...(open.get(userid) ?? [])].sort();
    return { seq, userid, ...factChange(undefined, fact), ...(a.length > 0 ? { a } : {}) };
  });
}

/** The names and requirements up to the start: the latest of each kind, moved to the start's sync. */
function foldedShared(shared: readonly KeptSharedRow[], seq: number): KeptSharedRow[] {
  const ordered = [...shared].sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
  return (['catalog', 'requirements'] as const).flatMap((kind) => {
    const latest = ordered.filter((r) => r.kind === kind).at(-1);
    return latest ? [{ ...latest, seq }] : [];
  });
}

/**
 * Folds the people's rows up to the sync `seq` (inside the caller's transaction). A pack begun by then may hold rows
 * of later syncs (history/packs.ts, the open pack): they are stored again after the folded rows, by sync.
 */
async function foldPacks(db: FieldbookDb, seq: number): Promise<void> {
  const begun = db.historyPacks.where('seq').belowOrEqual(seq);
  const rows = unpackAll(await begun.toArray());
  await begun.delete();
  const upToStart = rows.filter((r) => r.seq <= seq);
  await db.historyPacks.bulkAdd(packRows(foldedRows(upToStart, seq), seq));
  const later = [...new Set(rows.filter((r) => r.seq > seq).map((r) => r.seq))];
  for (const s of later) {
    const ofSync = rows.filter((r) => r.seq === s).map(({ id: _, seq: __, ...r }) => r);
    await appendRows(db, ofSync, s);
  }
}

/**
 * Drops the history before the last sync before `firstKept`, in one transaction; returns how many syncs went.
 * The days from that sync on are rebuilt as before; that sync keeps when (`at`) the history before it was dropped.
 */
export async function dropHistoryBefore(
  db: FieldbookDb,
  firstKept: string,
  at: string = new Date().toISOString(),
): Promise<number> {
  const tables = [db.historySyncs, db.historyPacks, db.historyShared];
  return db.transaction('rw', tables, async () => {
    const { dropped, start } = await dropPlan(db, firstKept);
    if (!start?.seq) return 0;
    const seq = start.seq;
    await foldPacks(db, seq);
    const shared = db.historyShared.where('seq').belowOrEqual(seq);
    const kept = foldedShared(await shared.toArray(), seq);
    await shared.delete();
    await db.historyShared.bulkPut(kept);
    await db.historySyncs.where('seq').below(seq).delete();
    await db.historySyncs.update(seq, { droppedBefore: at });
    return dropped;
  });
}
