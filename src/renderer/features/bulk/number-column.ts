/**
 * A column of numbers pasted from a spreadsheet or a list, one per person in the order the
 * renewal shows them. Pure.
 */
import { plural } from '../../app/words.ts';

/**
 * The values of a pasted column: one a line, trimmed; an empty line keeps its place (that person keeps their number).
 */
export function numbersOfColumn(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/).map((line) => line.trim());
  // a spreadsheet's copy ends with a line break: trailing empty lines are no one's
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The people's new numbers from a pasted column, in order, and what the coordinator should check. */
export function fillNumberColumn(
  userIds: readonly number[],
  text: string,
): { numbers: Map<number, string>; note: string } {
  const values = numbersOfColumn(text);
  const numbers = new Map<number, string>();
  userIds.forEach((id, index) => numbers.set(id, values[index] ?? ''));
  const people = plural(userIds.length, 'person', 'people');
  const pasted = plural(values.length, 'number');
  const unused = values.length - userIds.length;
  const unfilled = userIds.length - values.length;
  const note =
    values.length === userIds.length
      ? `${pasted} filled in, one per person.`
      : values.length > userIds.length
        ? `${pasted} pasted for ${people}: the last ${unused} not used. Check the column.`
        : `${pasted} pasted for ${people}: the last ${unfilled} keep their number. Check the column.`;
  return { numbers, note };
}
