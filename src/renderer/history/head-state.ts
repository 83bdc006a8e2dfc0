/**
 * Each person's findings and next day of a change by date, kept for everyone in one record (database version 15),
 * apart from their head's fact (`historyHeads`, one record a person). A day on `l` looks at some 1,350 people only
 * because their findings change with the date: their fact did not change, so their head is no longer rewritten;
 * only this record is, read and rewritten whole once a day. IndexedDB costs some 0.2-0.3 ms a record and some
 * 0.08 µs a byte each way (docs/benchmarks.md, "The heads in pages"), so the record is kept small (version 17):
 * each finding as its place in a table of the finding keys (most take one or two bytes, against some 6 for the
 * key's length and text in version 15, when it was 1.53 MB on `l`). It is read without making everyone's findings:
 * a person's entry is decoded when the snapshot looks at them, the people due are found by their next day alone,
 * and the entries of the people not looked at are copied as bytes into the record written. Pure, but for
 * `readHeadState`/`readKeptStates`/`writeHeads`.
 *
 * The record: `keys`, the table of finding keys (a key never moves: new ones are added at its end, the most frequent
 * first); `people`, for each person in userid order, their userid (after the first, less the one before), then
 * their entry: their next day (its day number + 1; 0: none), how many findings, and each one's place in `keys`.
 */
import type { FieldbookDb } from '../db/rows.ts';
import { dayNumber, dayText, readUtf8, readVarint, writeVarint, type Reader } from './heads.ts';
import type { HeadStateRow, HistoryHeadRow, KeptHeadRow } from './rows.ts';

/** A person's findings on the last snapshot that looked at them, and their next day of a change by date. */
export type HeadState = Pick<HistoryHeadRow, 'findings' | 'next'>;
export type HeadStates = Map<number, HeadState>;
/** The record as the table keeps it. */
export type StatesRecord = Omit<HeadStateRow, 'id'>;

/** The key of the one record. */
export const HEAD_STATE_KEY = 1;

/** A next day as the record keeps it; refuses one that would not read back the same. */
function nextNumber(next: string | undefined): number {
  if (next === undefined) return 0;
  const n = dayNumber(next);
  if (n === null) throw new Error(`The history cannot keep the next day ${next}`);
  return n + 1;
}

/** The finding keys not in `place` yet, the most frequent first (ties in text order, so the record is the same). */
function newKeys(states: Iterable<HeadState>, place: ReadonlyMap<string, number>): string[] {
  const counts = new Map<string, number>();
  for (const { findings } of states)
    for (const finding of findings)
      if (!place.has(finding)) counts.set(finding, (counts.get(finding) ?? 0) + 1);
  return [...counts].sort(([a, n], [b, m]) => m - n || (a < b ? -1 : 1)).map(([key]) => key);
}

/** A person's entry: next day, how many findings, each one's place in the keys. */
function entryOf({ findings, next }: HeadState, place: ReadonlyMap<string, number>): Uint8Array {
  const out: number[] = [];
  writeVarint(out, nextNumber(next));
  writeVarint(out, findings.length);
  for (const finding of findings) writeVarint(out, place.get(finding)!);
  return Uint8Array.from(out);
}

function keyAt(keys: readonly string[], at: number): string {
  const key = keys[at];
  if (key === undefined) throw new Error(`The history's findings record has no key ${at}`);
  return key;
}

const varintLength = (n: number) =>
  n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;

/** Writes a non-negative integer below 2^35 at `at` in 7-bit groups, low first; returns the place after it. */
function putVarint(bytes: Uint8Array, at: number, n: number): number {
  let [rest, i] = [n, at];
  while (rest >= 0x80) {
    bytes[i++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  bytes[i++] = rest;
  return i;
}

/**
 * Everyone's findings and next day as the record keeps them: each person's entry, by userid. The entries of those
 * not looked at are kept as their bytes; a person's findings are made only when asked for.
 */
export class KeptStates {
  private place: Map<string, number> | null = null;
  readonly keys: readonly string[];
  private readonly entries: ReadonlyMap<number, Uint8Array>;

  constructor(keys: readonly string[], entries: ReadonlyMap<number, Uint8Array>) {
    this.keys = keys;
    this.entries = entries;
  }

  /** The record's people, each person's entry found without reading their findings. */
  static of(record: StatesRecord | undefined): KeptStates {
    if (!record) return new KeptStates([], new Map());
    const r: Reader = { bytes: record.people, at: 0, strings: [] };
    const entries = new Map<number, Uint8Array>();
    let userid = 0;
    while (r.at < record.people.length) {
      userid += readVarint(r);
      const start = r.at;
      readVarint(r);
      for (let n = readVarint(r); n > 0; n -= 1) readVarint(r);
      entries.set(userid, record.people.subarray(start, r.at));
    }
    return new KeptStates(record.keys, entries);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether the person is in the record: every person with a head is, and no one else. */
  has(userid: number): boolean {
    return this.entries.has(userid);
  }

  /** A person's findings and next day (undefined: not in the record). */
  get(userid: number): HeadState | undefined {
    const entry = this.entries.get(userid);
    if (!entry) return undefined;
    const r: Reader = { bytes: entry, at: 0, strings: [] };
    const next = readVarint(r);
    const findings = new Array<string>(readVarint(r));
    for (let i = 0; i < findings.length; i += 1) findings[i] = keyAt(this.keys, readVarint(r));
    return next > 0 ? { findings, next: dayText(next - 1) } : { findings };
  }

  /** The people whose next day is `day` or before: their findings change with the date alone. */
  dueOn(day: string): number[] {
    const today = dayNumber(day);
    if (today === null) throw new Error(`Not a day the history counts: ${day}`);
    const due: number[] = [];
    for (const [userid, entry] of this.entries) {
      const next = readVarint({ bytes: entry, at: 0, strings: [] });
      if (next > 0 && next - 1 <= today) due.push(userid);
    }
    return due;
  }

  /** Everyone's findings and next day, made for each person. */
  all(): HeadStates {
    return new Map([...this.entries.keys()].map((userid) => [userid, this.get(userid)!]));
  }

  /** The record after some people's findings and next day are put and others taken away. */
  after(put: ReadonlyMap<number, HeadState>, gone: readonly number[]): StatesRecord {
    this.place ??= new Map(this.keys.map((key, i) => [key, i]));
    const keys = [...this.keys, ...newKeys(put.values(), this.place)];
    const place = keys.length === this.keys.length ? this.place : new Map(keys.map((key, i) => [key, i]));
    const entries = new Map(this.entries);
    for (const [userid, state] of put) entries.set(userid, entryOf(state, place));
    for (const userid of gone) entries.delete(userid);
    return { keys, people: recordBytes(entries) };
  }
}

/** The people's bytes: each entry after its userid (less the one before), in userid order. */
function recordBytes(entries: ReadonlyMap<number, Uint8Array>): Uint8Array {
  const userids = [...entries.keys()].sort((a, b) => a - b);
  let [length, before] = [0, 0];
  for (const userid of userids) {
    length += varintLength(userid - before) + entries.get(userid)!.length;
    before = userid;
  }
  const bytes = new Uint8Array(length);
  [before, length] = [0, 0];
  for (const userid of userids) {
    length = putVarint(bytes, length, userid - before);
    const entry = entries.get(userid)!;
    bytes.set(entry, length);
    length += entry.length;
    before = userid;
  }
  return bytes;
}

/** Everyone's findings and next day as the record keeps them, from nothing (the most frequent keys first). */
export function packStates(states: ReadonlyMap<number, HeadState>): StatesRecord {
  return new KeptStates([], new Map()).after(states, []);
}

/** Everyone's findings and next day, from the record. */
export const statesOf = (record: StatesRecord): HeadStates => KeptStates.of(record).all();

/**
 * Everyone's findings and next day from a record of versions 15 and 16: for each person, their userid, their next
 * day, how many findings, and each finding's length and text (read by the version 17 upgrade only).
 */
export function statesOfVersion15(bytes: Uint8Array): HeadStates {
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

/** The record as the last snapshot left it, each person's entry read when asked for. */
export async function readKeptStates(db: FieldbookDb): Promise<KeptStates> {
  return KeptStates.of(await db.historyHeadState.get(HEAD_STATE_KEY));
}

/** Everyone's findings and next day, as the last snapshot left them. */
export async function readHeadState(db: FieldbookDb): Promise<HeadStates> {
  return (await readKeptStates(db)).all();
}

/** A head as a snapshot compares with: its fact, with the person's findings and next day. */
export function withState(head: KeptHeadRow, states: KeptStates): HistoryHeadRow {
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
  states: KeptStates,
  kept: ReadonlyMap<number, Uint8Array>,
  { put, gone }: { put: readonly HistoryHeadRow[]; gone: readonly number[] },
): Promise<number> {
  const after = new Map(put.map(({ userid, findings, next }) => [userid, { findings, ...withNext(next) }]));
  const facts = put
    .filter((h) => kept.get(h.userid) !== h.fact)
    .map(({ userid, fact }) => ({ userid, fact }));
  await db.historyHeads.bulkPut(facts);
  await db.historyHeads.bulkDelete([...gone]);
  await db.historyHeadState.put({ id: HEAD_STATE_KEY, ...states.after(after, gone) });
  return facts.length;
}
