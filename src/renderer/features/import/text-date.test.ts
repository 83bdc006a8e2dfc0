/** Dates typed as text: the common forms read, an ambiguous day/month order flagged, never guessed. */
import { describe, expect, it } from 'vitest';
import { parseTextDate } from './text-date.ts';

describe('dates written as text', () => {
  it.each([
    ['2026-03-04', '2026-03-04'],
    ['2026/3/4', '2026-03-04'],
    ['4 Mar 2026', '2026-03-04'],
    ['04-Mar-26', '2026-03-04'],
    ['March 4, 2026', '2026-03-04'],
    ['4 March 2026', '2026-03-04'],
    ['25/12/2026', '2026-12-25'],
    ['12/25/2026', '2026-12-25'],
    ['7/7/2026', '2026-07-07'],
  ])('reads %s as %s', (text, iso) => {
    expect(parseTextDate(text)).toEqual({ iso });
  });

  it('flags 03/04/2026 as ambiguous, naming both readings, instead of guessing', () => {
    expect(parseTextDate('03/04/2026')).toEqual({
      error:
        '"03/04/2026" could be 3 April 2026 or 4 March 2026: choose how the file writes dates (day first or month first).',
    });
  });

  it('reads the ambiguous form in the order chosen for the file', () => {
    expect(parseTextDate('03/04/2026', 'dmy')).toEqual({ iso: '2026-04-03' });
    expect(parseTextDate('03/04/2026', 'mdy')).toEqual({ iso: '2026-03-04' });
  });

  it('refuses a day that the chosen order makes impossible, and a date that does not exist', () => {
    expect(parseTextDate('12/25/2026', 'dmy')).toHaveProperty('error');
    expect(parseTextDate('2026-02-30')).toHaveProperty('error');
    expect(parseTextDate('31 Foo 2026')).toHaveProperty('error');
    expect(parseTextDate('soon')).toEqual({
      error: '"soon" is not a date (write it as 2026-03-04 or 4 Mar 2026).',
    });
  });
});
