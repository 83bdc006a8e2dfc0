/**
 * A list page's items found in its bytes, without parsing them: where each
 * item of the list starts and ends, and the integer key fields each one names
 * at its top level. A resync hashes each item's bytes and parses only the
 * items whose hash is not the cache's (sync/engine.ts), so a page where a few
 * records changed costs a scan, not a parse of every record.
 *
 * The scan is not a parser: it trusts nothing it did not check. It gives up
 * (null) on anything but the plain shape of a list page (an object whose list
 * is an array of objects, the list named once and no key spelled with an
 * escape at the top level, nothing after the object), and the caller then reads the page with `JSON.parse` as
 * before. What it returns is checked by the caller: the text around the list
 * (`skeleton`) with `JSON.parse`, each item either by hashing as an item the
 * cache holds (bytes that once parsed and validated) or with `JSON.parse`.
 * Valid pieces with valid separators make valid JSON, so a body is accepted
 * this way only if `JSON.parse` would have accepted it whole. Pure.
 */

/** What `scanList` found. */
export interface ScannedList {
  /** the body's text with the list left empty (`[]`): everything but the items, for `JSON.parse` */
  skeleton: string;
  /** byte offsets of each item: [start, end) of item i at 2i and 2i + 1 */
  spans: Uint32Array;
  /**
   * the key fields' values, `fields.length` per item in the order asked: the
   * field's value when it is a plain integer literal named once at the item's
   * top level, NaN otherwise (absent, text, a fraction, named twice)
   */
  keys: Float64Array;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/** Index of the first byte at or after i that is not JSON whitespace. */
function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && isSpace(bytes[i]!)) i++;
  return i;
}

/** Index after the string whose opening quote is at i, or -1 when it does not end. */
function skipString(bytes: Uint8Array, i: number): number {
  let from = i + 1;
  for (;;) {
    // the next quote (a native search), which ends the string unless an odd run of backslashes escapes it
    const quote = bytes.indexOf(QUOTE, from);
    if (quote < 0) return -1;
    let escapes = 0;
    for (let j = quote - 1; j > i && bytes[j] === BACKSLASH; j--) escapes++;
    if (escapes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/**
 * Index after the value that starts at i (its brackets matched, strings
 * stepped over; not validated), or -1 when it does not end.
 */
function skipValue(bytes: Uint8Array, i: number): number {
  const first = bytes[i];
  if (first === QUOTE) return skipString(bytes, i);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    let depth = 0;
    while (i < bytes.length) {
      const b = bytes[i]!;
      if (b === QUOTE) {
        i = skipString(bytes, i);
        if (i < 0) return -1;
        continue;
      }
      if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
      else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }
  // a number, true, false or null: up to the next separator
  const start = i;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b === COMMA || b === CLOSE_OBJECT || b === CLOSE_ARRAY || isSpace(b)) break;
    i++;
  }
  return i > start ? i : -1;
}

/** The plain integer literal (-?(0|[1-9][0-9]*), at most 15 digits) in bytes [start, end), or NaN. */
function integerAt(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  const negative = bytes[i] === MINUS;
  if (negative) i++;
  const digits = end - i;
  if (digits < 1 || digits > 15 || (digits > 1 && bytes[i] === ZERO)) return NaN;
  let value = 0;
  for (; i < end; i++) {
    const b = bytes[i]!;
    if (b < ZERO || b > NINE) return NaN;
    value = value * 10 + (b - ZERO);
  }
  return negative ? -value : value;
}

/** The bytes [start, end) are exactly `name` (a quoted key with no escapes). */
function sameBytes(bytes: Uint8Array, start: number, end: number, name: Uint8Array): boolean {
  if (end - start !== name.length) return false;
  for (let j = 0; j < name.length; j++) if (bytes[start + j] !== name[j]) return false;
  return true;
}

/** The quoted key's bytes hold an escape (their text is then not their bytes). */
function hasEscape(bytes: Uint8Array, start: number, end: number): boolean {
  for (let j = start; j < end; j++) if (bytes[j] === BACKSLASH) return true;
  return false;
}

/**
 * Scans the object item at i (its `{`): its end, and the key fields' integer
 * values into keys[at..at + names.length) (`seen`: one byte per name, for the
 * scan to reuse). -1 when it is not an object that ends.
 */
function scanItem(
  bytes: Uint8Array,
  i: number,
  names: readonly Uint8Array[],
  keys: Float64Array,
  at: number,
  seen: Uint8Array,
): number {
  for (let f = 0; f < names.length; f++) keys[at + f] = NaN;
  seen.fill(0);
  i = skipSpace(bytes, i + 1);
  if (bytes[i] === CLOSE_OBJECT) return i + 1;
  for (;;) {
    if (bytes[i] !== QUOTE) return -1;
    const nameEnd = skipString(bytes, i);
    if (nameEnd < 0) return -1;
    const nameStart = i;
    i = skipSpace(bytes, nameEnd);
    if (bytes[i] !== COLON) return -1;
    const valueStart = skipSpace(bytes, i + 1);
    const valueEnd = skipValue(bytes, valueStart);
    if (valueEnd < 0) return -1;
    for (let f = 0; f < names.length; f++) {
      if (!sameBytes(bytes, nameStart + 1, nameEnd - 1, names[f]!)) continue;
      // named twice: JSON.parse keeps the last, this scan keeps neither
      keys[at + f] = seen[f] ? NaN : integerAt(bytes, valueStart, valueEnd);
      seen[f] = 1;
    }
    i = skipSpace(bytes, valueEnd);
    if (bytes[i] === CLOSE_OBJECT) return i + 1;
    if (bytes[i] !== COMMA) return -1;
    i = skipSpace(bytes, i + 1);
  }
}

/**
 * The items of the list under `wrapperKey` in a page's bytes, with the integer
 * values of `keyFields` in each, or null when the body is not plainly an
 * object holding that list of objects once (the caller then parses it whole).
 */
export function scanList(
  bytes: Uint8Array,
  wrapperKey: string,
  keyFields: readonly string[] = [],
): ScannedList | null {
  const wrapper = encoder.encode(wrapperKey);
  const names = keyFields.map((f) => encoder.encode(f));
  const seen = new Uint8Array(names.length);
  let i = 0;
  // a byte-order mark, which TextDecoder drops
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  i = skipSpace(bytes, i);
  if (bytes[i] !== OPEN_OBJECT) return null;
  i = skipSpace(bytes, i + 1);
  let listStart = -1;
  let listEnd = -1;
  const spans: number[] = [];
  let keys = new Float64Array(64 * Math.max(1, names.length));
  if (bytes[i] !== CLOSE_OBJECT) {
    for (;;) {
      if (bytes[i] !== QUOTE) return null;
      const nameEnd = skipString(bytes, i);
      if (nameEnd < 0 || hasEscape(bytes, i + 1, nameEnd - 1)) return null;
      const isList = sameBytes(bytes, i + 1, nameEnd - 1, wrapper);
      i = skipSpace(bytes, nameEnd);
      if (bytes[i] !== COLON) return null;
      i = skipSpace(bytes, i + 1);
      if (isList) {
        if (listStart >= 0 || bytes[i] !== OPEN_ARRAY) return null;
        listStart = i;
        i = skipSpace(bytes, i + 1);
        if (bytes[i] !== CLOSE_ARRAY) {
          for (;;) {
            if (bytes[i] !== OPEN_OBJECT) return null;
            const n = spans.length / 2;
            if ((n + 1) * names.length > keys.length) {
              const grown = new Float64Array(keys.length * 2);
              grown.set(keys);
              keys = grown;
            }
            const end = scanItem(bytes, i, names, keys, n * names.length, seen);
            if (end < 0) return null;
            spans.push(i, end);
            i = skipSpace(bytes, end);
            if (bytes[i] === CLOSE_ARRAY) break;
            if (bytes[i] !== COMMA) return null;
            i = skipSpace(bytes, i + 1);
          }
        }
        i += 1;
        listEnd = i;
      } else {
        i = skipValue(bytes, i);
        if (i < 0) return null;
      }
      i = skipSpace(bytes, i);
      if (bytes[i] === CLOSE_OBJECT) break;
      if (bytes[i] !== COMMA) return null;
      i = skipSpace(bytes, i + 1);
    }
  }
  if (listStart < 0 || skipSpace(bytes, i + 1) !== bytes.length) return null;
  const skeleton =
    decoder.decode(bytes.subarray(0, listStart)) + '[]' + decoder.decode(bytes.subarray(listEnd));
  const count = spans.length / 2;
  return { skeleton, spans: Uint32Array.from(spans), keys: keys.slice(0, count * names.length) };
}
