import { describe, expect, it } from 'vitest';
import { looksLikeFormula, neutralizeExportCell } from './formula.ts';

describe('the one rule for formula-like cells', () => {
  it.each(['=1+2', '+1', '-2+3+cmd|\' /C calc\'!A0', '@SUM(A1)', '\tx', '\rx', '\nx'])('takes %j for a formula', (value) => {
    expect(looksLikeFormula(value)).toBe(true);
  });

  it.each([
    ['full-width equals sign', '\uff1dcmd()'],
    ['full-width plus sign', '\uff0b1'],
    ['full-width at sign', '\uff20SUM(A1)'],
    ['leading spaces', '   =1+2'],
    ['a leading no-break space', '\u00a0=1+2'],
    ['a leading zero-width space', '\u200b=1+2'],
    ['a leading byte-order mark', '\ufeff-1'],
  ])('sees through a %s', (_what, value) => {
    expect(looksLikeFormula(value)).toBe(true);
  });

  it.each(['Ann Lee', 'ann@example.com', 'O\'Brien', 'E-42', '', ' Lee'])('leaves %j alone', (value) => {
    expect(looksLikeFormula(value)).toBe(false);
  });

  it('neutralises on export with a leading single quote, and nothing else', () => {
    expect(neutralizeExportCell('=HYPERLINK("http://x")')).toBe('\'=HYPERLINK("http://x")');
    expect(neutralizeExportCell('\u00a0=1')).toBe('\'\u00a0=1');
    expect(neutralizeExportCell('Ann Lee')).toBe('Ann Lee');
    expect(neutralizeExportCell(42)).toBe('42');
    expect(neutralizeExportCell(-1)).toBe('\'-1');
    expect(neutralizeExportCell(null)).toBe('');
    expect(neutralizeExportCell({ a: 1 })).toBe('{"a":1}');
  });
});
