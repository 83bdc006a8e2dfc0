import { describe, expect, it } from 'vitest';
import { fold, matchesAllWords, searchWords } from './search-text.ts';
import { userSearchKeys } from './records.ts';

describe('folding search text', () => {
  it('drops case and accents', () => {
    expect(fold('María NÚÑEZ Fernández')).toBe('maria nunez fernandez');
    expect(fold('Çelik Šimić Ångström')).toBe('celik simic angstrom');
  });

  it('spells out letters that carry no combining accent', () => {
    expect(fold('Straße Østergård Æbelø Łukasz Œuvre Þór Đorđe')).toBe(
      'strasse ostergard aebelo lukasz oeuvre thor dorde',
    );
  });

  it('treats precomposed and decomposed accents alike', () => {
    expect(fold('Nu\u0303n\u0303ez')).toBe(fold('Ñuñez'));
  });
});

describe('splitting search text into words', () => {
  it('splits names, usernames and ids at spaces, commas, dots, underscores and hyphens', () => {
    expect(searchWords('Bailey, María')).toEqual(['bailey', 'maria']);
    expect(searchWords('lucia.fernandez_2-x')).toEqual(['lucia', 'fernandez', '2', 'x']);
    expect(searchWords('EMP-001')).toEqual(['emp', '001']);
  });

  it('keeps a name with an apostrophe in one word', () => {
    expect(searchWords("O'Brien")).toEqual(['obrien']);
    expect(searchWords('D’Angelo')).toEqual(['dangelo']);
  });

  it('has no words for blank or punctuation-only text', () => {
    expect(searchWords('  , . ')).toEqual([]);
  });
});

describe('matching query words against search keys', () => {
  const keys = userSearchKeys({
    firstname: 'María José',
    lastname: 'Núñez-Bailey',
    username: 'maria.nunez',
    employeeid: 'EMP-001',
  });

  it('matches each word at the start of any key, in any order', () => {
    expect(matchesAllWords(keys, searchWords('maria bailey'))).toBe(true);
    expect(matchesAllWords(keys, searchWords('bailey, maria'))).toBe(true);
    expect(matchesAllWords(keys, searchWords('jos nun'))).toBe(true);
  });

  it('matches accents typed or not, on either side', () => {
    expect(matchesAllWords(keys, searchWords('nunez'))).toBe(true);
    expect(
      matchesAllWords(
        userSearchKeys({ firstname: 'Maria', lastname: 'Nunez', username: '', employeeid: '' }),
        searchWords('Núñez'),
      ),
    ).toBe(true);
  });

  it('needs every word to match', () => {
    expect(matchesAllWords(keys, searchWords('maria smith'))).toBe(false);
  });

  it('does not match inside a word', () => {
    expect(matchesAllWords(keys, searchWords('unez'))).toBe(false);
  });

  it('matches employee id parts', () => {
    expect(matchesAllWords(keys, searchWords('emp-00'))).toBe(true);
    expect(matchesAllWords(keys, searchWords('001'))).toBe(true);
  });
});
