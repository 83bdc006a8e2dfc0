/**
 * The day's figures as a sync's row keeps them (database version 11): a scope a tuple of numbers, its scope, people,
 * compliant and the count of each finding type in a fixed order, trailing zeros left out. A small site writes a sync
 * row a day whatever happened, and its figures with the report's words for keys were half of a small site's year
 * (about 430 bytes a day for three scopes; some 120 as tuples). Pure but `readSyncs`.
 */
import type { FieldbookDb } from '../db/rows.ts';
import type { FindingType } from '../features/report/finding-types.ts';
import type { HistorySyncRow, KeptFigures, KeptSyncRow, ScopeFigures } from './rows.ts';

/** The order of a kept scope's counts, fixed here: kept rows read by it, whatever order the report lists types in. */
const KEPT_ORDER: readonly FindingType[] = [
  'Missing',
  'Expired',
  'Training overdue',
  'Expires soon',
  'Training due soon',
];

function keptScope(f: ScopeFigures): KeptFigures[number] {
  const unknown = Object.keys(f.findings).find((t) => !KEPT_ORDER.includes(t as FindingType));
  if (unknown) throw new Error(`No place in the history's figures for the finding type ${unknown}.`);
  const counts = KEPT_ORDER.map((t) => f.findings[t] ?? 0);
  while (counts.at(-1) === 0) counts.pop();
  return [f.scope, f.people, f.compliant, ...counts];
}

function scopeOf([scope, people, compliant, ...counts]: KeptFigures[number]): ScopeFigures {
  const findings: ScopeFigures['findings'] = {};
  counts.forEach((n, i) => {
    if (n > 0) findings[KEPT_ORDER[i]!] = n;
  });
  return { scope, people, compliant, findings };
}

export const keptFigures = (figures: readonly ScopeFigures[]): KeptFigures => figures.map(keptScope);

/** A sync's row as the history's readers take it, its figures in words. */
export const syncOf = (row: KeptSyncRow): HistorySyncRow => ({ ...row, figures: row.figures.map(scopeOf) });

/** Every sync of the history, as its readers take them. */
export const readSyncs = async (db: FieldbookDb): Promise<HistorySyncRow[]> =>
  (await db.historySyncs.toArray()).map(syncOf);
