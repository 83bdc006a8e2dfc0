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

export function shortLabel(text: string, max = MAX): string {
  if (text.length <= max) return text;
  const words = text.split(/\s+/);
  const tail = tailOf(words);
  const end = tail.join(' ');
  const budget = max - end.length - 3; // " … "
  if (words.length < 2 || budget < 4) return `${text.slice(0, max - 1)}…`;
  let head = '';
  for (const word of words.slice(0, words.length - tail.length)) {
    const next = head ? `${head} ${word}` : word;
    if (next.length > budget) break;
    head = next;
  }
  return `${head || words[0]!.slice(0, budget)} … ${end}`;
}
