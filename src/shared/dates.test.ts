import { describe, expect, it } from 'vitest';
import { toIsoDate, toIsoDateByPattern } from './dates.ts';

describe('wire dates', () => {
  it('reads the results format MM/DD/YYYY', () => {
    expect(toIsoDate('03/05/2026')).toBe('2026-03-05');
  });

  it('reads the training format with a month name and a time', () => {
    expect(toIsoDate('March 05 2026 00:00:00')).toBe('2026-03-05');
    expect(toIsoDate('september 30 2025 13:45:00')).toBe('2025-09-30');
  });

  it('refuses impossible dates rather than guessing', () => {
    expect(toIsoDate('02/30/2026')).toBe('');
    expect(toIsoDate('Febtember 05 2026 00:00:00')).toBe('');
  });

  it('gives the same answer on its fast path as the general patterns, for every shape', () => {
    const samples = [
      '03/05/2026',
      '3/5/2026',
      '13/05/2026',
      '00/10/2020',
      '12/31/9999',
      '1a/05/2026',
      '03/05/20x6',
      '03-05-2026',
      '2026-03-05',
      '2026-03-05T10:00:00Z',
      '2026-02-29',
      '2024-02-29',
      'March 05 2026 00:00:00',
      'March 5 2026',
      'March 05, 2026',
      'MARCH 05 2026 00:00:00',
      'March 05 2026 0:00',
      'March 05 2026 00:00:0x',
      'March 32 2026 00:00:00',
      'Mar 05 2026 00:00:00',
      'May 05 2026 00:00:00',
      'Maybe 05 2026 00:00:00',
      'March  05 2026 00:00:00',
      ' March 05 2026 00:00:00 ',
      'March 05 2026 00:00:00 extra',
      '',
      ' ',
      'not a date',
      '05 2026 00:00:00 March',
    ];
    for (const s of samples) expect([s, toIsoDate(s)]).toEqual([s, toIsoDateByPattern(s.trim())]);
  });
});
