/**
 * The forms in which an answer may echo a token, as regular-expression parts
 * and plain substrings for the scrubber (scrub.ts). Pure: no state.
 *
 * Each character of the token may come as itself, percent-encoded once or
 * several times (`%2B`, `%252B`), as an HTML character reference (`&#43;`,
 * `&#x2b;`, `&plus;`), or as a `\x2b` / `\u002b` escape; any mix of these.
 * The whole token may come as hex (either case), or in base64 / base64url at
 * any alignment, also wrapped into lines (MIME: CRLF every 76 characters).
 */

/** What may be slipped between the token's characters without changing how it reads. */
export const SEPARATOR = '[\\s\\u200B-\\u200D\\u2060\\uFEFF\\u00AD]*';

/** Shorter strings would mask ordinary words; real tokens are far longer. */
export const MIN_SECRET_LENGTH = 6;

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** Hex digits matching either case: "2B" -> "2[Bb]". */
function anyCaseHex(hex: string): string {
  return [...hex.toUpperCase()].map((d) => (/[A-F]/.test(d) ? `[${d}${d.toLowerCase()}]` : d)).join('');
}

/** HTML's named references for the ASCII punctuation a token may hold (the WHATWG list; several names for some). */
const NAMED_REFERENCES: Record<string, readonly string[]> = {
  '!': ['excl'], '"': ['quot', 'QUOT'], '#': ['num'], $: ['dollar'], '%': ['percnt'], '&': ['amp', 'AMP'], "'": ['apos'],
  '(': ['lpar'], ')': ['rpar'], '*': ['ast', 'midast'], '+': ['plus'], ',': ['comma'], '-': ['hyphen', 'dash'], '.': ['period'],
  '/': ['sol'], ':': ['colon'], ';': ['semi'], '<': ['lt', 'LT'], '=': ['equals'], '>': ['gt', 'GT'], '?': ['quest'], '@': ['commat'],
  '[': ['lsqb', 'lbrack'], '\\': ['bsol'], ']': ['rsqb', 'rbrack'], '^': ['Hat'], _: ['lowbar', 'UnderBar'], '`': ['grave', 'DiacriticalGrave'],
  '{': ['lcub', 'lbrace'], '|': ['verbar', 'vert', 'VerticalLine'], '}': ['rcub', 'rbrace'], '~': ['tilde', 'DiacriticalTilde'],
};

/** One character in any of the forms above. */
export function charPattern(char: string): string {
  const bytes = [...Buffer.from(char)].map((b) => anyCaseHex(b.toString(16).padStart(2, '0')));
  const code = char.codePointAt(0)!;
  const forms = [
    escapeRegExp(char),
    // percent-encoded, once or more (a double-encoded % is %25)
    bytes.map((b) => `%(?:25)*${b}`).join(''),
    `\\\\x${bytes.join('\\\\x')}`,
    `&#0*${code};`,
    `&#[xX]0*${anyCaseHex(code.toString(16))};`,
    ...(NAMED_REFERENCES[char] ?? []).map((name) => `&${name};`),
  ];
  if (code <= 0xffff) forms.push(`\\\\u${anyCaseHex(code.toString(16).padStart(4, '0'))}`);
  return `(?:${forms.join('|')})`;
}

/** The token's bytes in hex, lower case (the text is lower-cased before it is searched). */
export function hexForm(secret: string): string {
  return Buffer.from(secret).toString('hex');
}

/** The hex form as a pattern of either case, for replacing. */
export function hexPattern(secret: string): string {
  return anyCaseHex(hexForm(secret));
}

/**
 * The base64 characters that encode the secret's bytes alone, for each of the
 * three alignments the secret can have inside a longer encoded text.
 */
export function base64Cores(secret: string): string[] {
  const n = Buffer.byteLength(secret);
  const cores: string[] = [];
  for (let k = 0; k < 3; k++) {
    const encoded = Buffer.concat([Buffer.alloc(k), Buffer.from(secret)]).toString('base64');
    const core = encoded.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + n)) / 6));
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(cores)].filter((core) => core.length >= MIN_SECRET_LENGTH);
}

/** A base64 core as it reads when wrapped into lines (MIME, PEM) or split by white space: a break may fall anywhere. */
export function wrappedCorePattern(core: string): string {
  return [...core].map(escapeRegExp).join(SEPARATOR);
}

/** Line breaks and other white space taken out, for finding a wrapped base64 core with a plain substring search. */
export function unwrapped(text: string): string {
  return text.replace(/[\s\u200B-\u200D\u2060\uFEFF\u00AD]+/g, '');
}
