import { describe, expect, it } from 'vitest';
import { pagesHolding } from './write-floor-lib.ts';

describe('pages of the write floor that a stretch of records fills', () => {
  it('counts every page when the records fill them all', () => {
    expect(pagesHolding([1000, 1000, 500], 2500)).toBe(3);
  });
  it('counts a last page that the records fill only in part', () => {
    expect(pagesHolding([1000, 1000, 500], 1200)).toBe(2);
  });
  it('counts no page for no records', () => {
    expect(pagesHolding([1000], 0)).toBe(0);
  });
});
