/**
 * A course's name on one line of a chart's axis. A long name keeps its first
 * words and its last ("Cybersecurity … Annual"): courses of one topic differ by
 * their ending, and cutting the end off made "Cybersecurity Aware…" of two of
 * them. The table of numbers beside the chart has the names whole.
 */
const MAX = 26;

/** The last word, or the last two when the last is a number or letter ("Part 2"). */
function tailOf(words: readonly string[]): string[] {
  return words.length > 2 && words.at(-1)!.length <= 2 ? words.slice(-2) : words.slice(-1);
}

/** The first words that fit in `room` characters, whole; '' when even the first does not. */
function wholeWords(words: readonly string[], room: number): string {
  let head = '';
  for (const word of words) {
    const next = head ? `${head} ${word}` : word;
    if (next.length > room) break;
    head = next;
  }
  return head;
}

/**
 * Never cut inside a word when it can be avoided: first words … last word; else the first words
 * that fit, then "…"; only a single word longer than the room is cut, with the ellipsis at its end.
 */
export function shortLabel(text: string, max = MAX): string {
  if (text.length <= max) return text;
  const words = text.split(/\s+/);
  const tail = tailOf(words);
  const end = tail.join(' ');
  const budget = max - end.length - 3; // " … "
  const head =
    words.length < 2 || budget < 4 ? '' : wholeWords(words.slice(0, words.length - tail.length), budget);
  if (head) return `${head} … ${end}`;
  const start = wholeWords(words, max - 1);
  return start ? `${start}…` : `${text.slice(0, max - 1)}…`;
}
