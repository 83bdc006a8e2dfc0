import { describe, expect, it } from 'vitest';
import { looksLikeFormula, neutralizeExportCell } from './formula.ts';

describe('the one rule for formula-like cells', () => {
  it.each(['=1+2', '+1', "-2+3+cmd|' /C calc'!A0", '@SUM(A1)', '\tx', '\rx', '\nx'])(
    'takes %j for a formula',
    (value) => {
      expect(looksLikeFormula(value)).toBe(true);
    },
  );

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

  // issue 27: characters a reader draws as nothing, found missing from the old hand-written list
  it.each([
    ['left-to-right isolate U+2066', '\u2066=1+2'],
    ['right-to-left isolate U+2067', '\u2067+1'],
    ['first-strong isolate U+2068', '\u2068-1+2'],
    ['pop directional isolate U+2069', '\u2069@SUM(A1)'],
    ['Arabic letter mark U+061C', '\u061c=1+2'],
    ['Hangul filler U+3164', '\u3164=1+2'],
    ['halfwidth Hangul filler U+FFA0', '\uffa0=1+2'],
    ['Hangul choseong filler U+115F', '\u115f=1+2'],
    ['Hangul jungseong filler U+1160', '\u1160=1+2'],
    ['blank Braille pattern U+2800', '\u2800=1+2'],
    ['combining grapheme joiner U+034F', '\u034f=1+2'],
    ['next line U+0085', '\u0085=1+2'],
    ['C0 control U+0001', '\u0001=1+2'],
    ['C0 control U+001F', '\u001f=1+2'],
    ['delete U+007F', '\u007f=1+2'],
    ['variation selector U+FE0F', '\ufe0f=1+2'],
    ['several of them in a row', '\u2066\u3164\u0085\u2800=1+2'],
  ])('sees through a leading %s', (_what, value) => {
    expect(looksLikeFormula(value)).toBe(true);
    expect(neutralizeExportCell(value)).toBe(`'${value}`);
  });

  it('skips every format, space-separator and control character before a trigger, by category', () => {
    const missed: string[] = [];
    for (let code = 0; code <= 0xffff; code += 1) {
      const char = String.fromCharCode(code);
      if (code >= 0xd800 && code <= 0xdfff) continue;
      if (/^[\p{Cf}\p{Zs}\p{Cc}]$/u.test(char) && !looksLikeFormula(`${char}=1+2`))
        missed.push(code.toString(16));
    }
    expect(missed).toEqual([]);
  });

  it.each([
    'Ann Lee',
    'ann@example.com',
    "O'Brien",
    'E-42',
    '',
    ' Lee',
    '\u2066Lee',
    '\u3164 Ann',
    '\u0085x',
  ])('leaves %j alone', (value) => {
    expect(looksLikeFormula(value)).toBe(false);
  });

  it('neutralises on export with a leading single quote, and nothing else', () => {
    expect(neutralizeExportCell('=HYPERLINK("http://x")')).toBe('\'=HYPERLINK("http://x")');
    expect(neutralizeExportCell('\u00a0=1')).toBe("'\u00a0=1");
    expect(neutralizeExportCell('Ann Lee')).toBe('Ann Lee');
    expect(neutralizeExportCell(42)).toBe('42');
    expect(neutralizeExportCell(-1)).toBe("'-1");
    expect(neutralizeExportCell(null)).toBe('');
    expect(neutralizeExportCell({ a: 1 })).toBe('{"a":1}');
  });
});
