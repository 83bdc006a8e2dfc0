import { describe, expect, it } from 'vitest';
import { findingsChange, minus } from './change.ts';

/** The items of `a` not in `b`, as a set says it: what `minus` must give whether or not the lists are sorted. */
const bySet = (a: readonly string[], b: readonly string[]) => a.filter((x) => !new Set(b).has(x));

/** A small random list of finding keys (repeats possible), sorted or not. */
function randomKeys(seed: number, sorted: boolean): string[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31);
  const keys = Array.from({ length: next() % 8 }, () => `${'EMOSD'[next() % 5]}k${next() % 6}`);
  return sorted ? keys.sort() : keys;
}

describe('the findings that appeared and went away', () => {
  it('gives those only in the day and those only in the head, as a row keeps them', () => {
    expect(findingsChange(['Ek1', 'Sk2'], ['Ek1', 'Ok3'])).toEqual({ a: ['Ok3'], r: ['Sk2'] });
    expect(findingsChange(['Ek1'], ['Ek1'])).toEqual({});
    expect(findingsChange([], ['Ek1', 'Ek2'])).toEqual({ a: ['Ek1', 'Ek2'] });
    expect(findingsChange(['Mk9'], [])).toEqual({ r: ['Mk9'] });
  });

  it('is the same as a comparison through a set, on sorted lists and on lists out of order', () => {
    for (let seed = 1; seed <= 400; seed += 1)
      for (const sorted of [true, false]) {
        const [a, b] = [randomKeys(seed, sorted), randomKeys(seed * 7 + 3, sorted)];
        expect(minus(a, b), `${JSON.stringify(a)} - ${JSON.stringify(b)}`).toEqual(bySet(a, b));
      }
  });

  it('keeps an item of a sorted list that sorts after every item of the other', () => {
    expect(minus(['Ek1', 'Sk2', 'Sk3'], ['Ek1', 'Ek2'])).toEqual(['Sk2', 'Sk3']);
    expect(minus(['Ek1', 'Ek1', 'Ok2'], ['Ek1'])).toEqual(['Ok2']);
  });
});
