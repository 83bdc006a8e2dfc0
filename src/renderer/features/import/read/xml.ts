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
  const single = singleRun(xml);
  if (single !== null) return unescapeXml(single);
  const body = xml.includes('rPh') ? xml.replace(/<(?:\w+:)?rPh\b[\s\S]*?(?:<\/(?:\w+:)?rPh>|$)/g, '') : xml;
  let text = '';
  for (const m of body.matchAll(/<(?:\w+:)?t(?:\s[^>]*)?>([^<]*)<\/(?:\w+:)?t>/g)) text += m[1];
  return unescapeXml(text);
}

/**
 * The text of an item that is one plain run and nothing else (`<t>…</t>`, `<t xml:space="preserve">…</t>`, no
 * namespace prefix): nearly every shared string, read without a pattern. Null for any other form (runsText's patterns
 * read those).
 */
function singleRun(xml: string): string | null {
  if (!xml.startsWith('<t') || !xml.endsWith('</t>')) return null;
  const after = xml.charCodeAt(2);
  // "<t>" or "<t" and a space: not "<tx>", "<t/>" nor "<t />"
  if (after !== 62 && after !== 32) return null;
  const open = xml.indexOf('>', 2);
  if (xml.charCodeAt(open - 1) === 47) return null;
  const close = xml.indexOf('<', open + 1);
  return close === xml.length - 4 ? xml.slice(open + 1, close) : null;
}
