/** A head's fact, kept deflated (history/heads.ts). */
import { describe, expect, it } from 'vitest';
import { factText, headFact, packFact } from './heads.ts';
import type { PersonFact } from './rows.ts';

const fact: PersonFact = {
  u: [1, 'ann', 'Ann', 'Lée', 'E1', 'Active', 'User'],
  g: [8, 9],
  c: Array.from({ length: 5 }, (_, i): [string, number, string, string] => [
    `${50 + i}-1`,
    50 + i,
    '',
    '2027-01-01',
  ]),
  t: Array.from({ length: 20 }, (_, i): PersonFact['t'][number] => [
    1000 + i,
    700 + i,
    '',
    'active',
    '2026-05-01',
  ]),
};

describe("a head's fact", () => {
  it('reads back as the same text and fact, in less than half the bytes of its text', () => {
    const text = JSON.stringify(fact);
    const head = { fact: packFact(text) };
    expect(factText(head)).toBe(text);
    expect(headFact(head)).toEqual(fact);
    expect(head.fact.byteLength).toBeLessThan(new TextEncoder().encode(text).length / 2);
  });
});
