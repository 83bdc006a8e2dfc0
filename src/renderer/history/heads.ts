/**
 * A head's fact is kept deflated (database version 9): the heads are one whole fact per person, read and compared
 * at every snapshot and rewritten when a person's next date moves, and their JSON text was a fifth of a year's
 * history. fflate's synchronous gzip, as the packs' deflate (history/packs.ts): heads are compared and written
 * inside the day's transaction. Gzip, not raw deflate, for its 18 bytes: its trailer gives the text's length, so
 * inflating a head allocates it once (0.02 ms a head in Node, against 0.7 ms for raw deflate, whose output buffer
 * fflate grows by guesses). Pure.
 */
import { gunzipSync, gzipSync, strFromU8, strToU8 } from 'fflate';
import type { HistoryHeadRow, PersonFact } from './rows.ts';

/** A fact's JSON text as a head keeps it: the same bytes for the same text (no time in the header). */
export const packFact = (text: string): Uint8Array => gzipSync(strToU8(text), { mtime: 0 });

/** The fact's JSON text a head keeps. */
export const factText = (head: Pick<HistoryHeadRow, 'fact'>): string => strFromU8(gunzipSync(head.fact));

export const headFact = (head: Pick<HistoryHeadRow, 'fact'>): PersonFact =>
  JSON.parse(factText(head)) as PersonFact;
