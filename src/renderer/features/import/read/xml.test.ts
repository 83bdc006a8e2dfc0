import { describe, expect, it } from 'vitest';
import { runsText } from './xml.ts';

describe('the text of a shared string', () => {
  it('joins its runs and leaves out the phonetic guide', () => {
    expect(
      runsText(
        '<si><r><t>Jo</t></r><r><rPr/><t xml:space="preserve">s&#233; </t></r><rPh sb="0" eb="1"><t>ジョ</t></rPh></si>',
      ),
    ).toBe('José ');
    expect(runsText('<x:si><x:t>M&amp;M</x:t></x:si>')).toBe('M&M');
  });

  it('is read in linear time from a hostile item of many unclosed tags (no rescan to the end from each)', () => {
    // 40,000 unclosed <t> and as many unclosed <rPh>: each used to scan the rest of the item again (many seconds)
    const started = performance.now();
    expect(runsText(`<si>${'<t>x'.repeat(40_000)}</si>`)).toBe('');
    expect(runsText(`<si><t>ok</t>${'<rPh><t>y</t>'.repeat(40_000)}</si>`)).toBe('ok');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('reads an item of one run as written, its spaces and entities included', () => {
    // the reader hands over the item's body, without <si>
    expect(runsText('<t xml:space="preserve"> M&amp;M&#233; </t>')).toBe(' M&Mé ');
    expect(runsText('<t></t>')).toBe('');
  });

  it('joins the runs of an item written as several, one after the other', () => {
    expect(runsText('<t>Jo</t><t xml:space="preserve">sé </t>')).toBe('José ');
    expect(runsText('<t>Jo</t><rPh sb="0" eb="1"><t>ジョ</t></rPh>')).toBe('Jo');
  });
});
