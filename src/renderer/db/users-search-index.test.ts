import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../shared/records.ts';
import { matchesAllWords, searchWords } from '../../shared/search-text.ts';
import { usersSearchIndex } from './users-search-index.ts';

/** A seeded generator (the same people and queries on every run). */
function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

const LETTERS = ['a', 'b', 'm', 'n', 'ñ', 'o', '0', '7', 'ß'];

function people(count: number, random: () => number): UserRecord[] {
  const word = () =>
    Array.from(
      { length: 1 + Math.floor(random() * 5) },
      () => LETTERS[Math.floor(random() * LETTERS.length)],
    ).join('');
  return Array.from(
    { length: count },
    (_, userid) =>
      ({
        userid,
        searchKeys: searchWords(Array.from({ length: Math.floor(random() * 4) }, word).join(' ')),
      }) as unknown as UserRecord,
  );
}

const scan = (users: readonly UserRecord[], words: string[]) =>
  users.filter((u) => matchesAllWords(u.searchKeys, words)).map((u) => u.userid);
const indexed = (users: readonly UserRecord[], words: string[]) => {
  const pool = usersSearchIndex(users).candidates(words);
  return (pool ? Array.from(pool, (p) => users[p]!) : users)
    .filter((u) => matchesAllWords(u.searchKeys, words))
    .map((u) => u.userid);
};

describe('the search index of the users in memory', () => {
  it('finds exactly whom a test of every person finds, in the same order, for queries of one to three words', () => {
    const random = seeded(7);
    const users = people(3_000, random);
    for (let i = 0; i < 500; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
        LETTERS.slice(0, 1 + Math.floor(random() * LETTERS.length))
          .sort(() => random() - 0.5)
          .slice(0, 1 + Math.floor(random() * 3))
          .join(''),
      ).join(' ');
      const words = searchWords(text);
      expect(indexed(users, words), text).toEqual(scan(users, words));
    }
  });

  it('tests only the people one of the words can match: the shortest list of the words', () => {
    const users = [
      { userid: 1, searchKeys: ['bailey', 'maria'] },
      { userid: 2, searchKeys: ['baker', 'mark'] },
      { userid: 3, searchKeys: ['nunez', 'maria'] },
    ] as unknown as UserRecord[];
    const index = usersSearchIndex(users);
    expect(Array.from(index.candidates(['ma'])!)).toEqual([0, 1, 2]);
    expect(Array.from(index.candidates(['maria', 'bai'])!)).toEqual([0, 1]);
    expect(Array.from(index.candidates(['n'])!)).toEqual([2]);
    expect(Array.from(index.candidates(['zed'])!)).toEqual([]);
    // no word: everyone
    expect(index.candidates([])).toBeNull();
  });

  it('lists a person once per beginning, however many of their words start so', () => {
    const users = [{ userid: 1, searchKeys: ['maria', 'marquez', 'm'] }] as unknown as UserRecord[];
    expect(Array.from(usersSearchIndex(users).candidates(['m'])!)).toEqual([0]);
    expect(Array.from(usersSearchIndex(users).candidates(['ma'])!)).toEqual([0]);
  });
});
