/**
 * A person's row holds what changed of their fact since their previous row, not
 * the whole fact (issue 38's size target): the user fields or the groups when
 * they changed, each credential or training assignment added or changed (whole,
 * with its old dates kept in the row before), and the ids of those gone. Replaying
 * a person's rows in order gives their fact after each. Pure.
 */
import type { HistoryPersonRow, PersonFact } from './rows.ts';

/** The part of a person's row that says how their fact changed. */
export type FactChange = Pick<HistoryPersonRow, 'u' | 'g' | 'c' | 'cx' | 't' | 'tx'>;

type Keyed = readonly [string | number, ...unknown[]];

/**
 * Whether two parts of facts are the same: tuples and lists of numbers and text, compared item by item (what their
 * JSON texts compared, without making them: a day on `l` compares some 60,000).
 */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (!same(a[i], b[i])) return false;
  return true;
}

/** Whether two facts are the same, part by part. */
export const sameFact = (a: PersonFact, b: PersonFact): boolean =>
  same(a.u, b.u) && same(a.g, b.g) && same(a.c, b.c) && same(a.t, b.t);

const isSorted = (list: readonly string[]) => list.every((x, i) => i === 0 || list[i - 1]! <= x);

/**
 * The items of `a` not in `b`. Findings are kept sorted, so both lists are walked once side by side (a day on `l`
 * compares some 2,800 people's findings both ways); lists not sorted are compared through a set.
 */
export function minus(a: readonly string[], b: readonly string[]): string[] {
  if (!isSorted(a) || !isSorted(b)) {
    const other = new Set(b);
    return a.filter((x) => !other.has(x));
  }
  const out: string[] = [];
  let j = 0;
  for (const x of a) {
    while (j < b.length && b[j]! < x) j += 1;
    if (b[j] !== x) out.push(x);
  }
  return out;
}

/** The findings that appeared and went away, as a row holds them (absent: none). */
export function findingsChange(
  was: readonly string[],
  now: readonly string[],
): Pick<HistoryPersonRow, 'a' | 'r'> {
  const [a, r] = [minus(now, was), minus(was, now)];
  return { ...(a.length > 0 ? { a } : {}), ...(r.length > 0 ? { r } : {}) };
}

/** The assignments added or changed, and the keys of those gone. */
function rowsChange<T extends Keyed>(before: readonly T[], after: readonly T[]): { put: T[]; gone: T[0][] } {
  // most of a day's people changed one list only: the other is the same, in the same order (facts are sorted)
  if (same(before, after)) return { put: [], gone: [] };
  const was = new Map(before.map((r) => [r[0], r]));
  const now = new Set(after.map((r) => r[0]));
  return {
    put: after.filter((r) => !same(was.get(r[0]), r)),
    gone: before.filter((r) => !now.has(r[0])).map((r) => r[0]),
  };
}

/** How `after` differs from `before` (undefined: a person first seen, whose row holds all of the fact). */
export function factChange(before: PersonFact | undefined, after: PersonFact): FactChange {
  const out: FactChange = {};
  if (!before || !same(before.u, after.u)) out.u = after.u;
  if (!same(before?.g ?? [], after.g)) out.g = after.g;
  const c = rowsChange(before?.c ?? [], after.c);
  if (c.put.length > 0) out.c = c.put;
  if (c.gone.length > 0) out.cx = c.gone;
  const t = rowsChange(before?.t ?? [], after.t);
  if (t.put.length > 0) out.t = t.put;
  if (t.gone.length > 0) out.tx = t.gone;
  return out;
}

function applyRows<T extends Keyed>(
  before: readonly T[],
  put: readonly T[] | undefined,
  gone: readonly T[0][] | undefined,
  order: (a: T, b: T) => number,
): T[] {
  if (!put && !gone) return [...before];
  const rows = new Map(before.map((r) => [r[0], r]));
  for (const key of gone ?? []) rows.delete(key);
  for (const r of put ?? []) rows.set(r[0], r);
  return [...rows.values()].sort(order);
}

/** The fact after a row: null when the person is gone (or the row lacks what a first row holds). */
export function applyChange(before: PersonFact | undefined, row: HistoryPersonRow): PersonFact | null {
  const u = row.u ?? before?.u;
  if (row.gone || !u) return null;
  return {
    u,
    g: row.g ?? before?.g ?? [],
    c: applyRows(before?.c ?? [], row.c, row.cx, (a, b) => a[0].localeCompare(b[0])),
    t: applyRows(before?.t ?? [], row.t, row.tx, (a, b) => a[0] - b[0]),
  };
}

/** Rows in the order they were written. */
export const byWrite = (a: HistoryPersonRow, b: HistoryPersonRow): number =>
  a.seq - b.seq || (a.id ?? 0) - (b.id ?? 0);

/**
 * Each row with the person's fact after it (null: gone) and before it, replayed in the order written from `start`
 * (the facts before the first row; empty: from the history's beginning).
 */
export function replay(
  rows: readonly HistoryPersonRow[],
  start: ReadonlyMap<number, PersonFact> = new Map(),
): { row: HistoryPersonRow; before: PersonFact | undefined; fact: PersonFact | null }[] {
  const facts = new Map(start);
  return [...rows].sort(byWrite).map((row) => {
    const before = facts.get(row.userid);
    const fact = applyChange(before, row);
    if (fact) facts.set(row.userid, fact);
    else facts.delete(row.userid);
    return { row, before, fact };
  });
}

/** Every person's fact after the rows (replayed in the order written). */
export function factsAfter(rows: readonly HistoryPersonRow[]): Map<number, PersonFact> {
  const facts = new Map<number, PersonFact>();
  for (const { row, fact } of replay(rows)) {
    if (fact) facts.set(row.userid, fact);
    else facts.delete(row.userid);
  }
  return facts;
}

/** A person's row as version 6 of the database wrote it: their whole fact (null: gone). */
export interface WholeFactRow {
  id?: number;
  seq: number;
  userid: number;
  fact: PersonFact | null;
  appeared: string[];
  resolved: string[];
  unkept?: true;
}

/** Version 6's rows as changes (database version 7): each row holds what differs from the person's row before. */
export function rowsAsChanges(rows: readonly WholeFactRow[]): HistoryPersonRow[] {
  const facts = new Map<number, PersonFact>();
  const ordered = [...rows].sort((a, b) => a.seq - b.seq || (a.id ?? 0) - (b.id ?? 0));
  return ordered.map(({ id, seq, userid, fact, appeared, resolved, unkept }) => {
    const before = facts.get(userid);
    if (fact) facts.set(userid, fact);
    else facts.delete(userid);
    const change = fact
      ? factChange(before, fact)
      : { gone: unkept ? ('laptop' as const) : ('platform' as const) };
    return {
      ...(id === undefined ? {} : { id }),
      seq,
      userid,
      ...change,
      ...(appeared.length > 0 ? { a: appeared } : {}),
      ...(resolved.length > 0 && !unkept ? { r: resolved } : {}),
    };
  });
}
