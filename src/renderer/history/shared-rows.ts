/**
 * The names and requirements as the history keeps them (database version 12): their JSON text deflated. The names
 * row (every site, group, credential and course) is written again each time one changes, and as text it was some
 * 0.1 MB a year per 1,000 people on a small site, a twentieth of the 2 MB target. fflate's synchronous deflate, as
 * the packs' (history/packs.ts): the rows are written inside the day's transaction. Pure but `readShared`.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import type { FieldbookDb } from '../db/rows.ts';
import type { HistorySharedRow, KeptSharedRow } from './rows.ts';

/** A names or requirements row as the table keeps it. */
export const keptShared = (row: HistorySharedRow): KeptSharedRow => ({
  ...row,
  value: deflateSync(strToU8(row.value)),
});

/** A kept row with its JSON text, as the readers take it. */
export const sharedOf = (row: KeptSharedRow): HistorySharedRow => ({
  ...row,
  value: strFromU8(inflateSync(row.value)),
});

/** Every names and requirements row, read back as text. */
export async function readShared(db: FieldbookDb): Promise<HistorySharedRow[]> {
  return (await db.historyShared.toArray()).map(sharedOf);
}
