/**
 * The encoding of a text file that is not valid UTF-8, guessed and never
 * assumed: each encoding `TextDecoder` knows that HR exports are saved in
 * decodes the lines holding non-ASCII bytes, and is scored by how plausible
 * the letters it makes are (words of one script, no symbols or control
 * characters inside words, no capital after a small letter, Latin words mostly
 * of plain letters). The candidates, best first, carry a sample of the words
 * decoded each way for the user to confirm. Pure.
 */

export interface EncodingCandidate {
  /** the `TextDecoder` label */
  encoding: string;
  /** what a person calls it: "Central European (Windows-1250)" */
  name: string;
  /** words of the file holding non-ASCII letters, as this encoding reads them */
  sample: string[];
  score: number;
}

/** In order of how common they are in HR exports: the order breaks ties. */
const ENCODINGS: readonly (readonly [string, string])[] = [
  ['windows-1252', 'Western European (Windows-1252)'],
  ['windows-1250', 'Central European (Windows-1250)'],
  ['windows-1251', 'Cyrillic (Windows-1251)'],
  ['iso-8859-2', 'Central European (ISO-8859-2)'],
  ['iso-8859-15', 'Western European (ISO-8859-15)'],
  ['windows-1257', 'Baltic (Windows-1257)'],
  ['windows-1253', 'Greek (Windows-1253)'],
  ['windows-1254', 'Turkish (Windows-1254)'],
  ['koi8-r', 'Cyrillic (KOI8-R)'],
  ['koi8-u', 'Cyrillic (KOI8-U)'],
  ['ibm866', 'Cyrillic (DOS, 866)'],
  ['iso-8859-5', 'Cyrillic (ISO-8859-5)'],
  ['iso-8859-7', 'Greek (ISO-8859-7)'],
  ['macintosh', 'Western European (Mac Roman)'],
  ['x-mac-cyrillic', 'Cyrillic (Mac)'],
  ['shift_jis', 'Japanese (Shift_JIS)'],
  ['gb18030', 'Chinese Simplified (GB18030)'],
  ['big5', 'Chinese Traditional (Big5)'],
  ['euc-kr', 'Korean (EUC-KR)'],
];

const NAMES = new Map(ENCODINGS);

export const isKnownEncoding = (encoding: string): boolean => NAMES.has(encoding);

/** "Central European (Windows-1250)"; UTF-8 and an unknown label as they are. */
export function encodingName(encoding: string): string {
  return NAMES.get(encoding) ?? (encoding === 'utf-8' ? 'Unicode (UTF-8)' : encoding);
}

/** The lines of the file holding a byte past ASCII, up to `max` bytes of them: what tells encodings apart. */
export function nonAsciiLines(bytes: Uint8Array, max = 64 * 1024): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  let start = 0;
  while (start < bytes.length && size < max) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    const line = bytes.subarray(start, end + 1);
    if (line.some((b) => b >= 0x80)) {
      parts.push(line);
      size += line.length;
    }
    start = end + 1;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Words: runs between ASCII spaces, digits and punctuation (a decoded byte that is no letter stays inside the word it spoils). */
const NON_ASCII = /[\u0080-\uffff]/;
const WORD = /[^\s\x21-\x40\x5b-\x60\x7b-\x7e]+/g;
const SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u, /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u, /\p{Script=Hangul}/u];

function scriptOf(char: string): number {
  const i = SCRIPTS.findIndex((s) => s.test(char));
  return i < 0 ? SCRIPTS.length : i;
}

/** How plausible a word holding non-ASCII characters is: +1 for a word a person could have typed, less for each oddity. */
function wordScore(word: string): number {
  const chars = Array.from(word);
  let score = 1;
  const scripts = new Set<number>();
  let nonAsciiLatin = 0;
  let letters = 0;
  let previousLower = false;
  for (const char of chars) {
    if (!/\p{L}/u.test(char)) {
      // a symbol, control character or undecodable byte inside a word
      score -= 4;
      previousLower = false;
      continue;
    }
    letters += 1;
    const script = scriptOf(char);
    scripts.add(script);
    if (script === 0 && char.charCodeAt(0) >= 0x80) nonAsciiLatin += 1;
    const upper = char !== char.toLowerCase();
    if (upper && previousLower) score -= 2;
    previousLower = !upper && char !== char.toUpperCase();
  }
  if (scripts.size > 1) score -= 4;
  // a Latin-script language writes most letters of a word plainly: "Èâàí" is a misread, "Łukasz" is not
  if (scripts.size === 1 && scripts.has(0) && letters >= 3 && nonAsciiLatin / letters > 0.6) score -= 2;
  return score;
}

function plausibility(text: string): number {
  let score = 0;
  for (const [word] of text.matchAll(WORD)) if (NON_ASCII.test(word)) score += wordScore(word);
  return score;
}

/** A few distinct words holding non-ASCII characters, as the file reads in this encoding. */
function sampleWords(text: string, count = 6): string[] {
  const words = new Set<string>();
  for (const [word] of text.matchAll(WORD)) {
    if (NON_ASCII.test(word)) words.add(word);
    if (words.size >= count) break;
  }
  return [...words];
}

/** UTF-8 itself, for a file that mostly is: its sample shows the stray bytes as \ufffd. */
export function utf8Candidate(bytes: Uint8Array): Omit<EncodingCandidate, 'score'> {
  const text = new TextDecoder('utf-8').decode(nonAsciiLines(bytes));
  // the words the stray bytes spoil first: what the user has to judge
  const spoiled = [...text.matchAll(WORD)].map(([word]) => word).filter((word) => word.includes('\ufffd')).slice(0, 3);
  return { encoding: 'utf-8', name: encodingName('utf-8'), sample: [...new Set([...spoiled, ...sampleWords(text)])].slice(0, 6) };
}

/** Every encoding, scored on the file's non-ASCII lines, best first. */
export function guessEncodings(bytes: Uint8Array): EncodingCandidate[] {
  const lines = nonAsciiLines(bytes);
  const scored = ENCODINGS.map(([encoding, name], order) => {
    const text = new TextDecoder(encoding).decode(lines);
    return { encoding, name, sample: sampleWords(text), score: plausibility(text), order };
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.map(({ encoding, name, sample, score }) => ({ encoding, name, sample, score }));
}

/**
 * Whether bytes that are not valid UTF-8 are UTF-8 all the same, with a few
 * stray bytes: valid multi-byte sequences outnumber the invalid bytes many
 * times over. (A file in a single-byte encoding almost never holds one.)
 */
export function isMostlyUtf8(bytes: Uint8Array): boolean {
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    let ok = length > 0 && i + length <= bytes.length;
    for (let k = 1; ok && k < length; k += 1) ok = (bytes[i + k]! & 0xc0) === 0x80;
    if (ok) {
      valid += 1;
      i += length;
    } else {
      invalid += 1;
      i += 1;
    }
  }
  return valid >= 3 * invalid;
}
