/**
 * Each person's findings and next day of a change by date, kept for everyone in one record (database version 15),
 * apart from their head's fact (`historyHeads`, one record a person). A day on `l` looks at some 1,350 people only
 * because their findings change with the date: their fact did not change, so their head is no longer rewritten;
 * only this record is, once a day (some 76 bytes a person on `l`, whose people have many findings: 1.5 MB; IndexedDB
 * costs some 0.2-0.3 ms a record and some 0.08 µs a byte each way, docs/benchmarks.md, "The heads in pages", so
 * 1,350 records cost about what 1.5 MB read and rewritten does: see docs/decisions/history.md for what is left).
 * Pure, but for `readHeadState`/`writeHeads`.
 *
 * The record's bytes: for each person, their userid, their next day (its day number + 1; 0: none), how many
 * findings, and each finding's length and text.
 */
import type { FieldbookDb } from '../db/rows.ts';
import { dayNumber, dayText, readUtf8, readVarint, writeVarint, type Reader } from './heads.ts';
import type { HistoryHeadRow, KeptHeadRow } from './rows.ts';

/** A person's findings on the last snapshot that looked at them, and their next day of a change by date. */
export type HeadState = Pick<HistoryHeadRow, 'findings' | 'next'>;
export type HeadStates = Map<number, HeadState>;

/** The key of the one record. */
export const HEAD_STATE_KEY = 1;

const encoder = new TextEncoder();

/** A next day as the record keeps it; refuses one that would not read back the same. */
function nextNumber(next: string | undefined): number {
  if (next === undefined) return 0;
  const n = dayNumber(next);
  if (n === null) throw new Error(`The history cannot keep the next day ${next}`);
  return n + 1;
}

/** A finding key's length and UTF-8 bytes (keys are ASCII: their bytes are their characters, no encoder call). */
function writeFinding(out: number[], finding: string): void {
  let ascii = true;
  for (let i = 0; i < finding.length && ascii; i += 1) ascii = finding.charCodeAt(i) < 0x80;
  const bytes = ascii ? null : encoder.encode(finding);
  writeVarint(out, bytes ? bytes.length : finding.length);
  if (bytes) for (const byte of bytes) out.push(byte);
  else for (let i = 0; i < finding.length; i += 1) out.push(finding.charCodeAt(i));
}

/** Everyone's findings and next day as the record keeps them. */
export function packStates(states: ReadonlyMap<number, HeadState>): Uint8Array {
  const out: number[] = [];
  for (const [userid, { findings, next }] of states) {
    writeVarint(out, userid);
    writeVarint(out, nextNumber(next));
    writeVarint(out, findings.length);
    for (const finding of findings) writeFinding(out, finding);
  }
  return new Uint8Array(out);
}

/** Everyone's findings and next day, from the record's bytes. */
export function statesOf(bytes: Uint8Array): HeadStates {
  const r: Reader = { bytes, at: 0, strings: [] };
  const states: HeadStates = new Map();
  while (r.at < bytes.length) {
    const userid = readVarint(r);
    const next = readVarint(r);
    const findings: string[] = [];
    for (let n = readVarint(r); n > 0; n -= 1) findings.push(readUtf8(r, readVarint(r)));
    states.set(userid, { findings, ...(next > 0 ? { next: dayText(next - 1) } : {}) });
  }
  return states;
}

/** Everyone's findings and next day, as the last snapshot left them. */
export async function readHeadState(db: FieldbookDb): Promise<HeadStates> {
  const row = await db.historyHeadState.get(HEAD_STATE_KEY);
  return row ? statesOf(row.people) : new Map();
}

/** The people whose next day is `day` or before: their findings change with the date alone. */
export function dueOn(states: ReadonlyMap<number, HeadState>, day: string): number[] {
  return [...states].filter(([, { next }]) => next !== undefined && next <= day).map(([userid]) => userid);
}

/** A head as a snapshot compares with: its fact, with the person's findings and next day. */
export function withState(head: KeptHeadRow, states: ReadonlyMap<number, HeadState>): HistoryHeadRow {
  const state = states.get(head.userid);
  return { userid: head.userid, fact: head.fact, findings: state?.findings ?? [], ...withNext(state?.next) };
}

const withNext = (next: string | undefined) => (next === undefined ? {} : { next });

/**
 * Writes the heads put and takes away those gone (inside the caller's transaction): a head's fact only where it is
 * not the one read (`kept`: the facts read, by person), everyone's findings and next day in the one record.
 * Returns how many facts were written.
 */
export async function writeHeads(
  db: FieldbookDb,
  states: ReadonlyMap<number, HeadState>,
  kept: ReadonlyMap<number, Uint8Array>,
  { put, gone }: { put: readonly HistoryHeadRow[]; gone: readonly number[] },
): Promise<number> {
  const after = new Map(states);
  for (const { userid, findings, next } of put) after.set(userid, { findings, ...withNext(next) });
  for (const userid of gone) after.delete(userid);
  const facts = put
    .filter((h) => kept.get(h.userid) !== h.fact)
    .map(({ userid, fact }) => ({ userid, fact }));
  await db.historyHeads.bulkPut(facts);
  await db.historyHeads.bulkDelete([...gone]);
  await db.historyHeadState.put({ id: HEAD_STATE_KEY, people: packStates(after) });
  return facts.length;
}
