import { describe, expect, it } from 'vitest';
import { fieldInSentence, fieldLabel, listCount, plural, withArticle } from './words.ts';

describe('words a coordinator reads', () => {
  it('names known fields as a person would', () => {
    expect(fieldLabel('firstname')).toBe('First name');
    expect(fieldLabel('expirationdate')).toBe('Expiration date');
    expect(fieldLabel('due_date')).toBe('Due date');
  });

  it('makes an unknown field readable instead of showing it raw', () => {
    expect(fieldLabel('some_new_field')).toBe('Some new field');
    expect(fieldLabel('accessLevel')).toBe('Access level');
  });

  it('chooses the plural form by the count', () => {
    expect(plural(1, 'change')).toBe('1 change');
    expect(plural(0, 'change')).toBe('0 changes');
    expect(plural(1204, 'person', 'people', 'en-US')).toBe('1,204 people');
  });

  it('writes "an e-mail" and "a user"', () => {
    expect(withArticle('e-mail')).toBe('an e-mail');
    expect(withArticle('user')).toBe('a user');
    expect(withArticle('credential')).toBe('a credential');
  });
});

describe('a field inside a sentence', () => {
  it('is lower case, but for its acronyms', () => {
    expect(fieldInSentence('firstname')).toBe('first name');
    expect(fieldInSentence('employeeid')).toBe('employee ID');
    expect(fieldInSentence('email')).toBe('e-mail');
  });
});

describe("a list's count line", () => {
  it('counts what a row is to the coordinator, and says when more is read on scrolling', () => {
    expect(listCount(180, 180, 'holder')).toBe('180 holders');
    expect(listCount(200, 1234, 'credential held', 'credentials held')).toBe(
      '200 of 1,234 credentials held (scroll for more)',
    );
    expect(listCount(1, 1, 'person', 'people')).toBe('1 person');
  });
});
