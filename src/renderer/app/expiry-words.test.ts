/** Beside an expiry date, how far it is, in words. */
import { describe, expect, it } from 'vitest';
import { expiryWords } from './expiry-words.ts';

describe('how far an expiry date is', () => {
  const today = '2026-11-27';
  it('says today and tomorrow in words', () => {
    expect(expiryWords('2026-11-27', today)).toBe('expires today');
    expect(expiryWords('2026-11-28', today)).toBe('expires tomorrow');
  });

  it('counts the days ahead, across a month and a year, and a daylight-saving change', () => {
    expect(expiryWords('2026-12-09', today)).toBe('expires in 12 days');
    expect(expiryWords('2027-11-27', today)).toBe('expires in 365 days');
    expect(expiryWords('2026-03-30', '2026-03-28')).toBe('expires in 2 days');
  });

  it('says how long ago an expired one expired', () => {
    expect(expiryWords('2026-11-26', today)).toBe('expired yesterday');
    expect(expiryWords('2026-11-24', today)).toBe('expired 3 days ago');
    expect(expiryWords('2025-11-27', today)).toBe('expired 365 days ago');
  });

  it('says nothing of a date it cannot read', () => {
    expect(expiryWords('', today)).toBe('');
  });
});
