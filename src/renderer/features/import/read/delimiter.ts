/**
 * How a text file's lines split into cells: the delimiter among , ; tab | or
 * none at all ("one column"), and the character its values are wrapped in.
 * Each candidate is scored on the first 50 non-blank lines; a delimiter that
 * leaves most lines whole loses to one column, and one whose cells are only
 * another delimiter (the "," between `|a|,|b|`) loses to that other. Pure.
 */

const DELIMITERS = [',', ';', '\t', '|'] as const;

export interface Layout {
  /** null: one column */
  delimiter: string | null;
  /** the quote character: `"`, or `|` for a file whose every value is wrapped in pipes */
  quote: '"' | '|';
}

const SAMPLE_LINES = 50;

/** The first non-blank lines of the text, without their line ends. */
function sampleLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (lines.length < SAMPLE_LINES && start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, '');
    if (line.trim() !== '') lines.push(line);
    start = end + 1;
  }
  return lines;
}

/** The cells of a line, a quoted value (which may hold the delimiter) kept as one. */
function cellsOf(line: string, delimiter: string, quote: string): string[] {
  const q = quote === '|' ? '\\|' : quote;
  return line.replace(new RegExp(`${q}[^${q}]*${q}`, 'g'), '""').split(delimiter);
}

/** The most common count, the larger on a tie (a line left whole counts as one column). */
function modeOf(counts: number[]): { mode: number; share: number } {
  const tally = new Map<number, number>();
  for (const c of counts) tally.set(c, (tally.get(c) ?? 0) + 1);
  const [mode, agree] = [...tally.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]!;
  return { mode, share: agree / counts.length };
}

/** A cell made only of other delimiters: the delimiter splits between values, not between cells. */
function isStrayDelimiterCell(cell: string, delimiter: string): boolean {
  const trimmed = cell.trim();
  return (
    trimmed !== '' &&
    [...trimmed].every((char) => char !== delimiter && (DELIMITERS as readonly string[]).includes(char))
  );
}

/**
 * How well a delimiter splits the lines, from 0 (not at all: most lines stay
 * whole, so one column explains them better) to about 104: the share of lines
 * that agree on the most common number of cells, times the share of those
 * cells that are values rather than another delimiter; more columns break near-ties.
 */
function splitScore(lines: string[], delimiter: string, quote: string): number {
  const split = lines.map((line) => cellsOf(line, delimiter, quote));
  const { mode, share } = modeOf(split.map((cells) => cells.length));
  if (mode < 2) return 0;
  const cells = split.filter((c) => c.length === mode).flat();
  const values = cells.filter((cell) => !isStrayDelimiterCell(cell, delimiter)).length / cells.length;
  return share * values * 100 + Math.min(mode, 20) * 0.2;
}

/**
 * Whether the lines are values wrapped in pipes between delimiters, `|Dupont, Hélène|,|12|` (the header may be plain).
 */
function pipeWrapped(lines: string[], delimiter: string): boolean {
  const between = new RegExp(`^[\\s${delimiter === '\t' ? '\\t' : delimiter}]*$`);
  const wrapped = (line: string) => /\|[^|]*\|/.test(line) && between.test(line.replace(/\|[^|]*\|/g, ''));
  const body = lines.length > 1 ? lines.slice(1) : lines;
  return body.filter(wrapped).length >= body.length * 0.9;
}

/** `preferTab`: a .tsv file, where tab wins any near-tie. */
export function detectLayout(text: string, preferTab: boolean): Layout {
  const lines = sampleLines(text);
  let best: Layout & { score: number } = { delimiter: null, quote: '"', score: 0 };
  for (const delimiter of DELIMITERS) {
    const quote = delimiter !== '|' && pipeWrapped(lines, delimiter) ? '|' : '"';
    const score = splitScore(lines, delimiter, quote) + (preferTab && delimiter === '\t' ? 50 : 0);
    if (score > best.score) best = { delimiter, quote, score };
  }
  return { delimiter: best.delimiter, quote: best.quote };
}
