/**
 * The encoding of a text file that is not valid UTF-8, guessed and never
 * assumed. The guess is jschardet's (a port of Python's chardet 7: language
 * models per encoding, pure JavaScript, no eval), asked line by line about the
 * lines holding non-ASCII bytes and restricted to the encodings `TextDecoder`
 * knows that HR exports are saved in: a staff list mixes names of many
 * languages, which a model of one language per file misreads. A line that two
 * encodings read alike tells them nothing apart, so they share its best
 * confidence. Exact ties go to the reading with fewer oddities (control
 * characters, ¤, a symbol inside a word), then to the commoner encoding.
 * Decoding stays with `TextDecoder`. Pure.
 */
import { detectAll } from 'jschardet';

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

/**
 * Words: runs between ASCII spaces, digits and punctuation (a decoded byte that is no letter stays inside the word it
 * spoils).
 */
const NON_ASCII = /[\u0080-\uffff]/;
const WORD = /[^\s\x21-\x40\x5b-\x60\x7b-\x7e]+/g;

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
  const spoiled = [...text.matchAll(WORD)]
    .map(([word]) => word)
    .filter((word) => word.includes('\ufffd'))
    .slice(0, 3);
  return {
    encoding: 'utf-8',
    name: encodingName('utf-8'),
    sample: [...new Set([...spoiled, ...sampleWords(text)])].slice(0, 6),
  };
}

/** jschardet's names for the encodings offered, and the `TextDecoder` label each stands for. */
const DETECTOR_NAMES: Record<string, string> = {
  'windows-1252': 'windows-1252',
  'windows-1250': 'windows-1250',
  'windows-1251': 'windows-1251',
  'iso-8859-2': 'iso-8859-2',
  'iso-8859-15': 'iso-8859-15',
  'windows-1257': 'windows-1257',
  'windows-1253': 'windows-1253',
  'windows-1254': 'windows-1254',
  'koi8-r': 'koi8-r',
  'koi8-u': 'koi8-u',
  cp866: 'ibm866',
  'iso-8859-5': 'iso-8859-5',
  'iso-8859-7': 'iso-8859-7',
  'mac-roman': 'macintosh',
  'mac-cyrillic': 'x-mac-cyrillic',
  shift_jis_2004: 'shift_jis',
  cp932: 'shift_jis',
  gb18030: 'gb18030',
  big5hkscs: 'big5',
  'euc-kr': 'euc-kr',
  cp949: 'euc-kr',
};
/** the names jschardet answers with (lower-cased) where they are neither of the above */
const DETECTOR_ALIASES: Record<string, string> = {
  macroman: 'macintosh',
  maccyrillic: 'x-mac-cyrillic',
  'iso8859-15': 'iso-8859-15',
  'iso-8859-1': 'windows-1252',
  ascii: 'windows-1252',
};
const labelOf = (detected: string | null): string | undefined => {
  const name = (detected ?? '').toLowerCase();
  return DETECTOR_NAMES[name] ?? DETECTOR_ALIASES[name] ?? (NAMES.has(name) ? name : undefined);
};

/** One decoder per encoding, made when first needed: each line is read in all of them. */
const DECODERS = new Map<string, TextDecoder>();
function decoderOf(label: string): TextDecoder {
  let decoder = DECODERS.get(label);
  if (!decoder) DECODERS.set(label, (decoder = new TextDecoder(label)));
  return decoder;
}

/** At most this many non-ASCII lines are asked about: the first ones tell enough. */
const LINES_ASKED = 200;

function splitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  for (let start = 0; start < bytes.length && lines.length < LINES_ASKED;) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    lines.push(bytes.subarray(start, end + 1));
    start = end + 1;
  }
  return lines;
}

/** How likely each encoding is for one line, the encodings reading it alike sharing the best of their confidences. */
function lineConfidence(line: Uint8Array): Map<string, number> {
  const confidence = new Map<string, number>();
  for (const { encoding, confidence: c } of detectAll(line, {
    minimumThreshold: 0,
    detectEncodings: Object.keys(DETECTOR_NAMES),
  })) {
    const label = labelOf(encoding);
    if (label) confidence.set(label, Math.max(confidence.get(label) ?? 0, c));
  }
  const readings = new Map(ENCODINGS.map(([label]) => [label, decoderOf(label).decode(line)]));
  const bestPerReading = new Map<string, number>();
  for (const [label, c] of confidence)
    bestPerReading.set(readings.get(label)!, Math.max(bestPerReading.get(readings.get(label)!) ?? 0, c));
  // a reading with oddities is the less likely for each of them
  return new Map(
    ENCODINGS.map(([label]) => [
      label,
      (bestPerReading.get(readings.get(label)!) ?? 0) / (1 + oddities(readings.get(label)!)),
    ]),
  );
}

/**
 * Characters no one typed in a name: C1 controls, the replacement character, ¤,
 * private-use characters, full-width Latin letters, a non-ASCII symbol between
 * two letters ("Wi¶niewska") and runs of symbols ("╣╬┴╪": Korean read as DOS-866).
 */
function oddities(text: string): number {
  const controls = text.match(/[\u0080-\u009f\ufffd\u00a4\p{Co}\uff21-\uff3a\uff41-\uff5a]/gu)?.length ?? 0;
  const inside = text.match(/\p{L}(?![\p{L}\p{M}\p{N}’])[\u00a1-\uffff]\p{L}/gu)?.length ?? 0;
  const symbolRuns = text.match(/[\p{S}\p{Co}]{2,}/gu)?.filter((run) => NON_ASCII.test(run)).length ?? 0;
  return controls + inside + symbolRuns;
}

/**
 * Bytes the encoding has no character for (a multi-byte sequence it cannot read, an unassigned code): it is not that
 * encoding.
 */
function readsWhole(label: string, bytes: Uint8Array): boolean {
  try {
    new TextDecoder(label, { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Windows-1252 is offered among the first few whatever the guess: the commonest encoding of a CSV saved by Excel. */
const WESTERN_AT_MOST = 2;

/** Every encoding, scored on the file's non-ASCII lines, best first. */
export function guessEncodings(bytes: Uint8Array): EncodingCandidate[] {
  const lines = nonAsciiLines(bytes);
  const perLine = splitLines(lines).map(lineConfidence);
  const scored = ENCODINGS.map(([encoding, name], order) => {
    const text = decoderOf(encoding).decode(lines);
    const score = perLine.reduce((sum, line) => sum + line.get(encoding)!, 0);
    return {
      encoding,
      name,
      sample: sampleWords(text),
      score,
      odd: oddities(text),
      whole: readsWhole(encoding, lines),
      order,
    };
  });
  scored.sort(
    (a, b) => Number(b.whole) - Number(a.whole) || b.score - a.score || a.odd - b.odd || a.order - b.order,
  );
  const western = scored.findIndex((c) => c.encoding === 'windows-1252');
  if (western > WESTERN_AT_MOST) scored.splice(WESTERN_AT_MOST, 0, ...scored.splice(western, 1));
  return scored.map(({ encoding, name, sample, score }) => ({ encoding, name, sample, score }));
}

/**
 * Whether bytes that are not valid UTF-8 are UTF-8 all the same, with a few
 * stray bytes: valid multi-byte sequences are at least as many as the invalid
 * bytes (a two-row file with one "Ł" and one stray "é" is UTF-8). A file in a
 * single-byte encoding almost never holds one: "Ã©" is no name.
 */
export function isMostlyUtf8(bytes: Uint8Array): boolean {
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < bytes.length;) {
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
  return valid > 0 && valid >= invalid;
}
