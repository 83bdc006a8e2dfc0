import { describe, expect, it } from 'vitest';
import { jsonBytes, splitBySize } from './split.ts';

const records = (n: number, size: number) =>
  Array.from({ length: n }, (_, i) => ({ id: i, text: 'x'.repeat(size) }));

describe('splitting a page to fit one message', () => {
  it('keeps a page that fits in one piece', () => {
    expect(splitBySize(records(100, 10), 100_000)).toHaveLength(1);
  });

  it('splits a large page into consecutive pieces that each fit, losing nothing', () => {
    const page = records(1000, 200);
    const chunks = splitBySize(page, 50_000);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => jsonBytes(c) <= 50_000)).toBe(true);
    expect(chunks.flat()).toEqual(page);
  });

  it('measures exactly when a page holds a few huge records among small ones', () => {
    const page = records(200, 10);
    page[101] = { id: 101, text: 'y'.repeat(60_000) };
    const chunks = splitBySize(page, 50_000);
    expect(chunks.flat()).toEqual(page);
    expect(chunks.filter((c) => jsonBytes(c) > 50_000)).toEqual([[page[101]]]);
  });

  it('counts bytes, not characters', () => {
    expect(jsonBytes(['é'])).toBe(6);
  });
});
