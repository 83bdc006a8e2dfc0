import { describe, expect, it } from 'vitest';
import { fillNumberColumn, numbersOfColumn } from './number-column.ts';

describe('a pasted column of numbers', () => {
  it('reads one number a line, as a spreadsheet copies a column (Windows line ends, a last line break)', () => {
    expect(numbersOfColumn('FL-101\r\n FL-102 \r\nFL-103\r\n')).toEqual(['FL-101', 'FL-102', 'FL-103']);
  });

  it('keeps an empty line in the middle in its place: that person keeps their number', () => {
    expect(fillNumberColumn([3, 4, 5], 'A\n\nC').numbers).toEqual(
      new Map([
        [3, 'A'],
        [4, ''],
        [5, 'C'],
      ]),
    );
  });

  it('fills the people in the order shown and says so when the counts agree', () => {
    const filled = fillNumberColumn([7, 2], 'X-1\nX-2');
    expect([...filled.numbers]).toEqual([
      [7, 'X-1'],
      [2, 'X-2'],
    ]);
    expect(filled.note).toBe('2 numbers filled in, one per person.');
  });

  it('says when the column is longer or shorter than the list of people', () => {
    expect(fillNumberColumn([1, 2], 'a\nb\nc').note).toBe(
      '3 numbers pasted for 2 people: the last 1 not used. Check the column.',
    );
    expect(fillNumberColumn([1, 2, 3], 'a').note).toBe(
      '1 number pasted for 3 people: the last 2 keep their number. Check the column.',
    );
  });
});
