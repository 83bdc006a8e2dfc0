/**
 * The forms in which an answer may echo a token, as regular-expression parts
 * and plain substrings for the scrubber (scrub.ts). Pure: no state but one
 * table built once (compatibilityForms).
 *
 * Each character of the token may come as itself, percent-encoded once or
 * several times (`%2B`, `%252B`), as `%u002B` (IIS, JavaScript's `escape`), in
 * quoted-printable (`=2B`), as an HTML character reference (`&#43;`,
 * `&#x2b;`, `&plus;`), as a `\x2b` / `\u002b` escape, or as a character that
 * reads the same once folded (NFKC: full-width `＋`, mathematical bold `𝐊`);
 * any mix of these. The whole token may come as hex (either case), or in
 * base64 / base64url at any alignment, also wrapped into lines (MIME: CRLF
 * every 76 characters; quoted-printable's soft line breaks, `=` CRLF).
 */

/**
 * What may be slipped between the token's characters without changing how it reads (a quoted-printable soft line break
 * too).
 */
export const SEPARATOR = '(?:[\\s\\u200B-\\u200D\\u2060\\uFEFF\\u00AD]|=[ \\t]*\\r?\\n)*';

/** Shorter strings would mask ordinary words; real tokens are far longer. */
export const MIN_SECRET_LENGTH = 6;

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** Hex digits matching either case: "2B" -> "2[Bb]". */
function anyCaseHex(hex: string): string {
  return [...hex.toUpperCase()].map((d) => (/[A-F]/.test(d) ? `[${d}${d.toLowerCase()}]` : d)).join('');
}

/** HTML's named references for the ASCII punctuation a token may hold (the WHATWG list; several names for some). */
const NAMED_REFERENCES: Record<string, readonly string[]> = {
  '!': ['excl'],
  '"': ['quot', 'QUOT'],
  '#': ['num'],
  $: ['dollar'],
  '%': ['percnt'],
  '&': ['amp', 'AMP'],
  "'": ['apos'],
  '(': ['lpar'],
  ')': ['rpar'],
  '*': ['ast', 'midast'],
  '+': ['plus'],
  ',': ['comma'],
  '-': ['hyphen', 'dash'],
  '.': ['period'],
  '/': ['sol'],
  ':': ['colon'],
  ';': ['semi'],
  '<': ['lt', 'LT'],
  '=': ['equals'],
  '>': ['gt', 'GT'],
  '?': ['quest'],
  '@': ['commat'],
  '[': ['lsqb', 'lbrack'],
  '\\': ['bsol'],
  ']': ['rsqb', 'rbrack'],
  '^': ['Hat'],
  _: ['lowbar', 'UnderBar'],
  '`': ['grave', 'DiacriticalGrave'],
  '{': ['lcub', 'lbrace'],
  '|': ['verbar', 'vert', 'VerticalLine'],
  '}': ['rcub', 'rbrace'],
  '~': ['tilde', 'DiacriticalTilde'],
};

/**
 * The code points scanned for characters that fold (NFKC) to one ASCII
 * character: the BMP (full-width forms, superscripts, circled letters), the
 * mathematical alphanumerics and the enclosed alphanumerics. Once, in about
 * 30 ms (1,085 characters fold to an ASCII one).
 */
const FOLDING_RANGES: readonly (readonly [number, number])[] = [
  [0xa0, 0xd7ff],
  [0xe000, 0xffff],
  [0x1d400, 0x1d7ff],
  [0x1f100, 0x1f1ff],
];

let foldingForms: Map<string, string[]> | null = null;

/** The characters other than `char` itself that NFKC folds to it ("+" -> "＋", "⁺", "₊", "﬩", "﹢"). */
export function compatibilityForms(char: string): readonly string[] {
  if (!foldingForms) {
    foldingForms = new Map();
    for (const [from, to] of FOLDING_RANGES) {
      for (let code = from; code <= to; code++) {
        const form = String.fromCodePoint(code);
        const folded = form.normalize('NFKC');
        if (folded.length === 1 && folded !== form)
          foldingForms.set(folded, [...(foldingForms.get(folded) ?? []), form]);
      }
    }
  }
  return foldingForms.get(char) ?? [];
}

/** Each UTF-16 unit of a character as four hex digits of either case (for `%u` and `\u` escapes). */
function utf16Units(char: string): string[] {
  return [...Array(char.length).keys()].map((i) =>
    anyCaseHex(char.charCodeAt(i).toString(16).padStart(4, '0')),
  );
}

/** One character in any of the forms above. */
export function charPattern(char: string): string {
  const bytes = [...Buffer.from(char)].map((b) => anyCaseHex(b.toString(16).padStart(2, '0')));
  const code = char.codePointAt(0)!;
  const forms = [
    escapeRegExp(char),
    ...compatibilityForms(char).map(escapeRegExp),
    // percent-encoded, once or more (a double-encoded % is %25)
    bytes.map((b) => `%(?:25)*${b}`).join(''),
    utf16Units(char)
      .map((unit) => `%(?:25)*[uU]${unit}`)
      .join(''),
    // quoted-printable
    bytes.map((b) => `=${b}`).join(''),
    `\\\\x${bytes.join('\\\\x')}`,
    `&#0*${code};`,
    `&#[xX]0*${anyCaseHex(code.toString(16))};`,
    ...(NAMED_REFERENCES[char] ?? []).map((name) => `&${name};`),
  ];
  if (code <= 0xffff) forms.push(`\\\\u${utf16Units(char)[0]!}`);
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

/**
 * Line breaks (quoted-printable's soft ones too) and other white space taken out, for finding a wrapped base64 core
 * with a plain substring search.
 */
export function unwrapped(text: string): string {
  return text.replace(/(?:[\s\u200B-\u200D\u2060\uFEFF\u00AD]|=[ \t]*\r?\n)+/g, '');
}
