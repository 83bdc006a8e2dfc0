/** The little XML a workbook needs: entities, attributes, text runs. */
const ENTITY = /&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function unescapeXml(text: string): string {
  const plain = text.includes('&')
    ? text.replace(ENTITY, (_, name: string) => {
        if (name[0] !== '#') return NAMED[name] ?? '';
        const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
      })
    : text;
  // OOXML writes control characters as _xHHHH_
  return plain.includes('_x')
    ? plain.replace(/_x([0-9a-fA-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : plain;
}

export function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
    out[m[1]!.replace(/^\w+:/, (p) => (p === 'r:' ? 'r:' : ''))] = unescapeXml(m[2] ?? m[3] ?? '');
  return out;
}

/**
 * The text of the <t> runs of a string item, leaving out phonetic runs (<rPh>).
 * Linear in the item's size whatever it holds: a run's text has no '<' (XML escapes
 * it), and an unclosed phonetic run ends the text, so no unclosed tag makes the
 * pattern scan to the end again from each of its starts (a hostile file of many
 * unclosed tags would otherwise stall the reader for minutes).
 */
export function runsText(xml: string): string {
  const body = xml.includes('rPh') ? xml.replace(/<(?:\w+:)?rPh\b[\s\S]*?(?:<\/(?:\w+:)?rPh>|$)/g, '') : xml;
  let text = '';
  for (const m of body.matchAll(/<(?:\w+:)?t(?:\s[^>]*)?>([^<]*)<\/(?:\w+:)?t>/g)) text += m[1];
  return unescapeXml(text);
}
