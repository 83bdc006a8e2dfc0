/**
 * A small seeded PRNG (mulberry32): the generator and the fault injector must
 * give the same sequence for the same seed on every machine.
 */
export interface Rng {
  /** uniform in [0, 1) */
  next(): number;
  /** integer in [min, max] */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  /** `count` distinct items of `items` (all of them when count >= length) */
  sample<T>(items: readonly T[], count: number): T[];
}

export function seededRng(seed: number): Rng {
  let state = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number): boolean => next() < p,
    sample<T>(items: readonly T[], count: number): T[] {
      if (count >= items.length) return [...items];
      // partial Fisher-Yates over a copy: O(count) swaps
      const copy = [...items];
      for (let i = 0; i < count; i++) {
        const j = i + Math.floor(next() * (copy.length - i));
        const tmp = copy[i]!;
        copy[i] = copy[j]!;
        copy[j] = tmp;
      }
      return copy.slice(0, count);
    },
  };
}
