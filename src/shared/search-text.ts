/**
 * Search text folding: the one rule by which stored search keys and typed
 * queries are compared, so "Núñez", "NUNEZ" and "nunez" are the same word and
 * either side may carry the accents.
 *
 * fold: lower case (locale-independent), Unicode NFD with combining marks
 * removed, and letters that carry no combining mark spelled out the way a
 * keyboard without them would type them (ß → ss, ø → o, æ → ae, ł → l, …).
 *
 * searchWords: the folded words of a text, split at anything that is not a
 * letter or a digit (spaces, commas, ".", "_", "-"), apostrophes dropped inside
 * a word ("O'Brien" → "obrien").
 */

const SPELLED_OUT: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'ss',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ħ: 'h',
  ı: 'i',
  ŀ: 'l',
  ŧ: 't',
  ĸ: 'k',
  ŋ: 'n',
};
const SPELLED_OUT_RE = new RegExp(`[${Object.keys(SPELLED_OUT).join('')}]`, 'gu');
const MARKS_RE = /\p{M}+/gu;
const APOSTROPHES_RE = /['’ʼ`´]/gu;
const SEPARATORS_RE = /[^\p{L}\p{N}]+/u;

/** Case- and accent-free form of a text, for comparison only (never shown). */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(MARKS_RE, '')
    .replace(SPELLED_OUT_RE, (ch) => SPELLED_OUT[ch] ?? ch)
    .normalize('NFC');
}

/** The folded words of a text, in order, empty words dropped. */
export function searchWords(text: string): string[] {
  return fold(text).replace(APOSTROPHES_RE, '').split(SEPARATORS_RE).filter(Boolean);
}

/**
 * Does every query word start some word of the keys (in any order)? An empty
 * query matches everything. `queryWords` must come from `searchWords`.
 */
export function matchesAllWords(keys: readonly string[], queryWords: readonly string[]): boolean {
  for (const q of queryWords) {
    let found = false;
    for (const key of keys) {
      if (key.startsWith(q)) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}
