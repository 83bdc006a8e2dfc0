/**
 * The heads kept in pages (database version 15): the heads of the people of one bucket of userids (userid modulo
 * HEAD_PAGES) in one IndexedDB record, each head's bytes one after the other, not compressed. IndexedDB costs some
 * 0.2-0.3 ms of CPU a record whatever it holds (docs/decisions/scale.md), and a day on `l` read some 2,800 heads and
 * rewrote as many, one record each: the record count was the snapshot's floor. A day writes people spread over every
 * userid, so nearly every page is read and rewritten each day; a page of some 160 people on `l` is some 60 kB, which
 * IndexedDB copies in far less than the cost of its record. A page is rewritten by copying the bytes of the heads
 * that did not change as they are, and encoding only those that did. Pure, but for `readHeads`/`writeHeads`.
 *
 * A head's entry: its userid, its next day (the day number + 1, 0: none), the length of the rest, then the rest:
 * how many findings, each finding's length and text, and the fact's bytes (history/heads.ts) to the entry's end.
 */
import type { FieldbookDb } from '../db/index.ts';
import { dayNumber, dayText, readVarint, writeVarint, type Reader } from './heads.ts';
import type { HeadPageRow, HistoryHeadRow } from './rows.ts';

/**
 * How many pages the heads are kept in: some 80 people a page on `l` (20,000 people), some 38 kB. A page must stay
 * under 64 kB: Chromium keeps a larger value as a blob file of its own, and 128 pages of 76 kB took 1.4-3.2 s to read.
 */
export const HEAD_PAGES = 256;

export const pageOf = (userid: number): number => ((userid % HEAD_PAGES) + HEAD_PAGES) % HEAD_PAGES;

/** A head's place in its page, and its next day (day number + 1; 0: none), read without the rest. */
interface Entry {
  page: number;
  start: number;
  /** where the findings begin */
  rest: number;
  end: number;
  next: number;
}

/** The pages as read, and each head's place in them. */
export interface KeptHeads {
  pages: ReadonlyMap<number, Uint8Array>;
  entries: ReadonlyMap<number, Entry>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A head's entry in a page. */
function entryOf(head: HistoryHeadRow): Uint8Array {
  const rest: number[] = [];
  writeVarint(rest, head.findings.length);
  for (const finding of head.findings) {
    const text = encoder.encode(finding);
    writeVarint(rest, text.length);
    for (const byte of text) rest.push(byte);
  }
  const out: number[] = [];
  writeVarint(out, head.userid);
  writeVarint(out, nextNumber(head.next));
  writeVarint(out, rest.length + head.fact.length);
  const entry = new Uint8Array(out.length + rest.length + head.fact.length);
  entry.set(out);
  entry.set(rest, out.length);
  entry.set(head.fact, out.length + rest.length);
  return entry;
}

/** A next day as a page keeps it; refuses one that would not read back the same. */
function nextNumber(next: string | undefined): number {
  if (next === undefined) return 0;
  const n = dayNumber(next);
  if (n === null) throw new Error(`A head cannot keep the next day ${next}`);
  return n + 1;
}

/** Each head's place in a page, read without its findings or fact. */
function addEntries(page: number, bytes: Uint8Array, entries: Map<number, Entry>): void {
  const r: Reader = { bytes, at: 0, strings: [] };
  while (r.at < bytes.length) {
    const start = r.at;
    const userid = readVarint(r);
    const next = readVarint(r);
    const length = readVarint(r);
    const rest = r.at;
    r.at += length;
    if (r.at > bytes.length) throw new Error('A page of heads is cut short');
    entries.set(userid, { page, start, rest, end: r.at, next });
  }
}

/** The pages, as read. */
export function keptHeadsOf(rows: readonly HeadPageRow[]): KeptHeads {
  const pages = new Map(rows.map((row) => [row.page, row.heads]));
  const entries = new Map<number, Entry>();
  for (const [page, bytes] of pages) addEntries(page, bytes, entries);
  return { pages, entries };
}

/** Every page of heads (one read of some HEAD_PAGES records). */
export async function readHeads(db: FieldbookDb): Promise<KeptHeads> {
  return keptHeadsOf(await db.historyHeadPages.toArray());
}

/** A person's head, read from their page (absent: no head). */
export function headOf(kept: KeptHeads, userid: number): HistoryHeadRow | undefined {
  const entry = kept.entries.get(userid);
  if (!entry) return undefined;
  const r: Reader = { bytes: kept.pages.get(entry.page)!, at: entry.rest, strings: [] };
  const findings: string[] = [];
  for (let n = readVarint(r); n > 0; n -= 1) {
    const length = readVarint(r);
    findings.push(decoder.decode(r.bytes.subarray(r.at, r.at + length)));
    r.at += length;
  }
  const fact = r.bytes.subarray(r.at, entry.end);
  return { userid, fact, findings, ...(entry.next > 0 ? { next: dayText(entry.next - 1) } : {}) };
}

/** The heads whose next day is `day` or before: the people whose findings change with the date alone. */
export function dueHeads(kept: KeptHeads, day: string): HistoryHeadRow[] {
  const upTo = dayNumber(day);
  if (upTo === null) throw new Error(`Not a day: ${day}`);
  const due: HistoryHeadRow[] = [];
  for (const [userid, { next }] of kept.entries)
    if (next > 0 && next - 1 <= upTo) due.push(headOf(kept, userid)!);
  return due;
}

/** Every head, by userid. */
export const allHeads = (kept: KeptHeads): HistoryHeadRow[] =>
  [...kept.entries.keys()].sort((a, b) => a - b).map((userid) => headOf(kept, userid)!);

/** A page's bytes: its heads' entries by userid. */
function pageBytes(entries: ReadonlyMap<number, Uint8Array>): Uint8Array {
  const ordered = [...entries].sort(([a], [b]) => a - b);
  const out = new Uint8Array(ordered.reduce((n, [, e]) => n + e.length, 0));
  let at = 0;
  for (const [, entry] of ordered) {
    out.set(entry, at);
    at += entry.length;
  }
  return out;
}

/** The pages some heads put and some people gone change: each page's new bytes (empty: no head left). */
export function changedPages(
  kept: KeptHeads,
  put: readonly HistoryHeadRow[],
  gone: readonly number[],
): Map<number, Uint8Array> {
  const touched = new Set([...put.map((h) => pageOf(h.userid)), ...gone.map(pageOf)]);
  const entries = new Map([...touched].map((page) => [page, new Map<number, Uint8Array>()]));
  for (const [userid, { page, start, end }] of kept.entries)
    entries.get(page)?.set(userid, kept.pages.get(page)!.subarray(start, end));
  for (const head of put) entries.get(pageOf(head.userid))!.set(head.userid, entryOf(head));
  for (const userid of gone) entries.get(pageOf(userid))!.delete(userid);
  return new Map([...entries].map(([page, heads]) => [page, pageBytes(heads)]));
}

/** Writes the heads put and takes away those gone (inside the caller's transaction); returns the pages written. */
export async function writeHeads(
  db: FieldbookDb,
  kept: KeptHeads,
  put: readonly HistoryHeadRow[],
  gone: readonly number[],
): Promise<number> {
  const pages = [...changedPages(kept, put, gone)];
  const rows = pages.filter(([, heads]) => heads.length > 0).map(([page, heads]) => ({ page, heads }));
  await db.historyHeadPages.bulkPut(rows);
  await db.historyHeadPages.bulkDelete(pages.filter(([, heads]) => heads.length === 0).map(([page]) => page));
  return pages.length;
}

/** Heads as pages, for an upgrade that writes them all. */
export const pagesOfHeads = (heads: readonly HistoryHeadRow[]): HeadPageRow[] =>
  [...changedPages(keptHeadsOf([]), heads, [])].map(([page, bytes]) => ({ page, heads: bytes }));
