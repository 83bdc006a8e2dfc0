/**
 * A head's fact is kept deflated (database version 9): the heads are one whole fact per person, read and compared
 * at every snapshot and rewritten when a person's next date moves, and their JSON text was a fifth of a year's
 * history. fflate's synchronous deflate, as the packs (history/packs.ts): heads are compared and written inside the
 * day's transaction. Pure.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import type { HistoryHeadRow, PersonFact } from './rows.ts';

/** A fact's JSON text as a head keeps it. */
export const packFact = (text: string): Uint8Array => deflateSync(strToU8(text));

/** The fact's JSON text a head keeps. */
export const factText = (head: Pick<HistoryHeadRow, 'fact'>): string => strFromU8(inflateSync(head.fact));

export const headFact = (head: Pick<HistoryHeadRow, 'fact'>): PersonFact =>
  JSON.parse(factText(head)) as PersonFact;
