/**
 * The length limit on a record's text (MAX_FIELD_CHARS): a record holding a
 * longer text, in a field Fieldbook reads or one it keeps as it came, in a key
 * or a value, is not read, and its list says which record and which field.
 */
import { describe, expect, it } from 'vitest';
import { MAX_FIELD_CHARS } from '../../shared/ipc-limits.ts';
import { itemsOf } from '../replay/read.ts';
import { validateItems } from './client.ts';
import { UnreadableRecord } from './record-issue.ts';

const person = (userid: number, extra: Record<string, unknown> = {}) => ({
  userid,
  siteid: 1,
  username: `u${userid}`,
  firstname: `First${userid}`,
  lastname: `Last${userid}`,
  employeeid: `E${userid}`,
  status: 'Active',
  usertype: 'User',
  email: [],
  links: {},
  ...extra,
});

const long = (chars: number) => 'x'.repeat(chars);

/** What the list's check says, or 'read' when it reads the list. */
function verdict(list: unknown[]): string {
  try {
    validateItems('user', list, { startrow: 1 });
    return 'read';
  } catch (err) {
    if (err instanceof UnreadableRecord) return err.issue;
    throw err;
  }
}

describe('a record’s text over the length limit', () => {
  it('is read up to the limit and refused one character past it, naming the row, the person and the field', () => {
    expect(verdict([person(1), person(2, { lastname: long(MAX_FIELD_CHARS) })])).toBe('read');
    expect(verdict([person(1), person(2, { lastname: long(MAX_FIELD_CHARS + 1) })])).toBe(
      'row 2, First2: the last name is too long (at most 100,000 characters)',
    );
  });

  it('is refused in a field Fieldbook keeps as it came (one it does not know), and in an e-mail address of the person', () => {
    expect(verdict([person(1, { badge_note: long(MAX_FIELD_CHARS + 1) })])).toBe(
      'row 1, First1 Last1: a value the platform calls “badge_note” is too long (at most 100,000 characters)',
    );
    const email = { emailid: 5, email: `${long(MAX_FIELD_CHARS)}@example.com`, status: 'Active', link: '' };
    expect(verdict([person(1, { email: [email] })])).toBe(
      'row 1, First1 Last1: the e-mail address is too long (at most 100,000 characters)',
    );
  });

  it('is refused as the name of a field (a key), however deep, naming the field that holds it', () => {
    const too = 'is too long (at most 100,000 characters)';
    expect(verdict([person(1, { [long(MAX_FIELD_CHARS + 1)]: null })])).toBe(
      `row 1, First1 Last1: the name of a field ${too}`,
    );
    expect(verdict([person(1, { links: { [long(MAX_FIELD_CHARS + 1)]: 'https://x' } })])).toBe(
      `row 1, First1 Last1: the links are too long (at most 100,000 characters)`,
    );
    let deep: unknown = { [long(MAX_FIELD_CHARS + 1)]: 1 };
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(verdict([person(1, { extra: deep })])).toBe(
      `row 1, First1 Last1: a value the platform calls “extra” ${too}`,
    );
  });

  it('is refused in a record read back after a replay', () => {
    const answer = { users: [person(7, { firstname: long(MAX_FIELD_CHARS + 1) })] };
    expect(() => itemsOf(answer, ['users'], 'user')).toThrow(
      'row 1, Last7: the first name is too long (at most 100,000 characters)',
    );
  });
});
