/**
 * A head's fact as the history keeps it (database version 13): a compact binary form of its tuples, not compressed.
 * Heads are one whole fact per person, read at every snapshot for each person written (some 2,900 a day on `l`) and
 * written for each whose fact changed. Versions 9 to 12 kept them gzipped with fflate, which in Chromium cost about
 * 1-3 ms a head (it allocates some 170 kB of zeroed arrays a call) and 0.2 ms to read one back. This form is smaller
 * (ids and counts as variable-length integers, ISO dates as day numbers, a credential assignment's key as its two
 * numbers, a string repeated within a fact kept once) and costs some 0.02-0.08 ms either way with no large
 * allocation. Written here, not taken from a library: the app has no binary encoding among its dependencies
 * (MessagePack or CBOR would keep dates and repeated words as text), and the fact's shape is the history's own. Pure.
 *
 * Each value is one byte (its kind in the top 3 bits, a small number in the low 5: 31 means a variable-length
 * integer follows) and its payload. It refuses a value it cannot give back exactly, rather than keep a head that
 * would compare unequal to the same fact.
 */
import type { HistoryHeadRow, PersonFact } from './rows.ts';

const Kind = { Integer: 0, Negative: 1, Float: 2, Text: 3, Repeated: 4, List: 5, Day: 6, Pair: 7 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];
const INLINE = 31;
/** Day numbers counted from 2000-01-01 (day 730,425 from 0000-03-01): the dates a fact holds are two bytes. */
const DAY_ZERO = 730_425;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const FACT_KEYS = ['u', 'g', 'c', 't'] as const;

type Value = number | string | readonly Value[];

interface Writer {
  bytes: number[];
  strings: Map<string, number>;
}

/** A non-negative integer in 7-bit groups, low first (history/head-state.ts writes its record so too). */
export function writeVarint(out: number[], n: number): void {
  let rest = n;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

/** A kind and a non-negative integer: inline when under 31, else after it. */
function writeHeader(out: number[], kind: Kind, n: number): void {
  if (n < INLINE) {
    out.push((kind << 5) | n);
    return;
  }
  out.push((kind << 5) | INLINE);
  writeVarint(out, n - INLINE);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Days from 2000-01-01 to a civil date (Howard Hinnant's `days_from_civil`, shifted): no Date object made. */
function daysOf(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - DAY_ZERO;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The ISO date of a day number (`civil_from_days`). */
function civilText(n: number): string {
  const z = n + DAY_ZERO;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return `${pad(era * 400 + yoe + (month <= 2 ? 1 : 0), 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/**
 * The dates worked out already, both ways: a snapshot meets the same few thousand dates in every fact it packs or
 * reads (some 2,800 facts of a dozen dates or more a day on `l`), and working each out again was a tenth of the
 * snapshot's CPU. Emptied when full, so a long session keeps no more than this.
 */
const DATES_KEPT = 50_000;
const textOfDay = new Map<number, string>();
const dayOfText = new Map<string, number | null>();

function kept<K, V>(memo: Map<K, V>, key: K, make: (key: K) => V): V {
  const known = memo.get(key);
  if (known !== undefined) return known;
  const value = make(key);
  if (memo.size >= DATES_KEPT) memo.clear();
  memo.set(key, value);
  return value;
}

export const dayText = (n: number): string => kept(textOfDay, n, civilText);

/** The day number of an ISO date from 2000 on that reads back as the same text, else null. */
export function dayNumber(text: string): number | null {
  // a date's dashes checked first: most texts of a fact are not dates, and only dates are remembered
  if (text.length !== 10 || text.charCodeAt(4) !== 0x2d || text.charCodeAt(7) !== 0x2d) return null;
  return kept(dayOfText, text, (iso) => {
    if (!ISO_DAY.test(iso)) return null;
    const n = daysOf(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), Number(iso.slice(8, 10)));
    return n >= 0 && civilText(n) === iso ? n : null;
  });
}

const PAIR = /^(0|[1-9]\d{0,14})-(0|[1-9]\d{0,14})$/;

/** A credential assignment's key ("310-200123": credential, then person) as its two numbers, else null. */
function pairOf(text: string): [number, number] | null {
  const first = text.charCodeAt(0);
  if (!(first >= 0x30 && first <= 0x39)) return null;
  const match = PAIR.exec(text);
  if (!match) return null;
  const [a, b] = [Number(match[1]), Number(match[2])];
  return Number.isSafeInteger(a) && Number.isSafeInteger(b) ? [a, b] : null;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

function writeText(w: Writer, text: string): void {
  const day = dayNumber(text);
  if (day !== null) return writeHeader(w.bytes, Kind.Day, day);
  const pair = pairOf(text);
  if (pair) {
    writeHeader(w.bytes, Kind.Pair, pair[0]);
    return writeVarint(w.bytes, pair[1]);
  }
  const seen = w.strings.get(text);
  if (seen !== undefined) return writeHeader(w.bytes, Kind.Repeated, seen);
  w.strings.set(text, w.strings.size);
  const utf8 = isAscii(text) ? null : encoder.encode(text);
  writeHeader(w.bytes, Kind.Text, utf8 ? utf8.length : text.length);
  if (utf8) for (const byte of utf8) w.bytes.push(byte);
  else for (let i = 0; i < text.length; i += 1) w.bytes.push(text.charCodeAt(i));
}

function writeNumber(w: Writer, n: number): void {
  if (Number.isSafeInteger(n) && !Object.is(n, -0))
    return writeHeader(w.bytes, n < 0 ? Kind.Negative : Kind.Integer, Math.abs(n));
  if (!Number.isFinite(n)) throw new Error(`A head cannot keep the number ${n}`);
  w.bytes.push(Kind.Float << 5);
  const float = new Uint8Array(new Float64Array([n]).buffer);
  for (const byte of float) w.bytes.push(byte);
}

function writeValue(w: Writer, value: Value): void {
  if (typeof value === 'number') return writeNumber(w, value);
  if (typeof value === 'string') return writeText(w, value);
  if (!Array.isArray(value)) throw new Error(`A head cannot keep ${typeof value}`);
  writeHeader(w.bytes, Kind.List, value.length);
  for (const item of value) writeValue(w, item);
}

/** A fact as a head keeps it: the same bytes for the same fact. */
export function packFact(fact: PersonFact): Uint8Array {
  const w: Writer = { bytes: [], strings: new Map() };
  writeValue(
    w,
    FACT_KEYS.map((key) => fact[key]),
  );
  return Uint8Array.from(w.bytes);
}

export interface Reader {
  bytes: Uint8Array;
  at: number;
  strings: string[];
}

export function readVarint(r: Reader): number {
  let n = 0;
  for (let scale = 1; ; scale *= 0x80) {
    const byte = r.bytes[r.at++];
    if (byte === undefined) throw new Error("A head's fact is cut short");
    n += (byte & 0x7f) * scale;
    if (byte < 0x80) return n;
  }
}

/** `length` bytes of UTF-8 text at the reader's place (ASCII read as characters, no decoder call). */
export function readUtf8(r: Reader, length: number): string {
  let text = '';
  for (let i = r.at; i < r.at + length; i += 1) {
    const byte = r.bytes[i]!;
    if (byte >= 0x80) {
      text = decoder.decode(r.bytes.subarray(r.at, r.at + length));
      break;
    }
    text += String.fromCharCode(byte);
  }
  r.at += length;
  return text;
}

function readText(r: Reader, length: number): string {
  const text = readUtf8(r, length);
  r.strings.push(text);
  return text;
}

function readFloat(r: Reader): number {
  const n = new Float64Array(r.bytes.slice(r.at, r.at + 8).buffer)[0]!;
  r.at += 8;
  return n;
}

function readList(r: Reader, length: number): Value[] {
  const list: Value[] = [];
  for (let i = 0; i < length; i += 1) list.push(readValue(r));
  return list;
}

function readValue(r: Reader): Value {
  const byte = r.bytes[r.at++];
  if (byte === undefined) throw new Error("A head's fact is cut short");
  const kind = byte >> 5;
  const n = kind === Kind.Float ? 0 : (byte & INLINE) < INLINE ? byte & INLINE : INLINE + readVarint(r);
  switch (kind) {
    case Kind.Integer:
      return n;
    case Kind.Negative:
      return -n;
    case Kind.Float:
      return readFloat(r);
    case Kind.Text:
      return readText(r, n);
    case Kind.Repeated:
      return r.strings[n]!;
    case Kind.Pair:
      return `${n}-${readVarint(r)}`;
    case Kind.Day:
      return dayText(n);
    case Kind.List:
      return readList(r, n);
    default:
      throw new Error(`A head's fact holds an unknown kind ${kind}`);
  }
}

/** A head's fact. */
export function headFact(head: Pick<HistoryHeadRow, 'fact'>): PersonFact {
  const [u, g, c, t] = readValue({ bytes: head.fact, at: 0, strings: [] }) as Value[];
  return { u, g, c, t } as PersonFact;
}

/** The fact's JSON text a head keeps, as a snapshot compares it. */
export const factText = (head: Pick<HistoryHeadRow, 'fact'>): string => JSON.stringify(headFact(head));
