/**
 * The heads of some people read by ranges of userids rather than one request a person. A day on `l` reads some 2,860
 * of 20,000 heads, one request each (some 0.07 ms a request); a range between two people asked for reads the heads
 * between them too (some 430 bytes each), so two are joined only when few heads lie between them. The heads'
 * userids are known from everyone's findings record (history/head-state.ts), which holds a person for each head.
 */
import type { FieldbookDb } from '../db/rows.ts';
import type { KeptHeadRow } from './rows.ts';

/** How many heads not asked for a range may read between two asked for. */
export const RANGE_GAP = 3;

/**
 * The ranges of userids (first and last, both included) that read the heads of `wanted` (sorted): consecutive people
 * among `all` (the heads' userids, sorted) are joined when at most `gap` heads lie between them; a person not among
 * `all` is a range alone. Pure.
 */
export function headRanges(
  wanted: readonly number[],
  all: readonly number[],
  gap = RANGE_GAP,
): [number, number][] {
  const ranges: [number, number][] = [];
  let [i, lastAt] = [0, -1];
  for (const userid of wanted) {
    while (i < all.length && all[i]! < userid) i += 1;
    const range = ranges.at(-1);
    if (all[i] !== userid) ranges.push([userid, userid]);
    else if (range && lastAt >= 0 && range[1] === all[lastAt] && i - lastAt - 1 <= gap) range[1] = userid;
    else ranges.push([userid, userid]);
    if (all[i] === userid) lastAt = i;
  }
  return ranges;
}

/** The heads of `userids` (undefined: none), in their order, read by `headRanges` in one transaction. */
export async function readHeads(
  db: FieldbookDb,
  userids: readonly number[],
  all: readonly number[],
): Promise<(KeptHeadRow | undefined)[]> {
  const wanted = new Set(userids);
  const ranges = headRanges(
    [...wanted].sort((a, b) => a - b),
    all,
  );
  const read = (first: number, last: number) =>
    first === last
      ? db.historyHeads.get(first).then((row) => (row ? [row] : []))
      : db.historyHeads.where(':id').between(first, last, true, true).toArray();
  const rows = await db.transaction('r', db.historyHeads, () =>
    Promise.all(ranges.map(([first, last]) => read(first, last))),
  );
  const byUser = new Map<number, KeptHeadRow>();
  for (const row of rows.flat()) if (wanted.has(row.userid)) byUser.set(row.userid, row);
  return userids.map((userid) => byUser.get(userid));
}
