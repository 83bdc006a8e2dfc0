/**
 * The scrubber registry: every token main knows is registered here, and every
 * string that crosses to the renderer or into a log (errors, results, events,
 * keys as well as values) is passed through `scrub` first, so a server that
 * echoes the token back cannot leak it. The token is recognised as it is,
 * split by whitespace or zero-width characters, each character URL-encoded
 * (once or twice, or as %uXXXX), in quoted-printable, as an HTML character
 * reference, a \x / \u escape or a full-width or other compatibility form
 * (any mix), the whole in hex, and in base64 / base64url at any alignment
 * inside a longer text, also wrapped into lines (token-forms.ts says how).
 */
import {
  MIN_SECRET_LENGTH,
  SEPARATOR,
  base64Cores,
  charPattern,
  escapeRegExp,
  hexForm,
  hexPattern,
  unwrapped,
  wrappedCorePattern,
} from './token-forms.ts';

const MASK = '••••';

interface SecretPattern {
  /** base64 / base64url cores: plain substrings, found with indexOf (in the text with white space taken out, too) */
  cores: string[];
  /** the token's bytes in hex, lower case: found with indexOf in the lower-cased text */
  hex: string;
  /** the token spelled out, each character in any of its forms (token-forms.ts), with separators between them */
  spelled: RegExp;
  /** the same with plain characters only: for the many texts holding no % & or \\ (a simpler search) */
  plain: RegExp;
  /** all of them, for replacing */
  all: RegExp;
  /** no shorter text holds the token in any of these forms (most fields of a record are shorter) */
  shortest: number;
}

const secrets = new Map<string, SecretPattern>();

/**
 * Where a character of the token may be written encoded: %2B %u002B &#43; &plus; \\x2b \\u002b =2B (or a soft line
 * break).
 */
const ENCODED_CHAR = /[%&\\]|=(?:[0-9A-Fa-f]{2}|[ \t]*\r?\n)/;

/** Text that NFKC may fold: full-width and other compatibility forms of the token's characters. */
const NOT_ASCII = /[^\p{ASCII}]/u;

function patternFor(secret: string): SecretPattern {
  const spelled = [...secret].map(charPattern).join(SEPARATOR);
  const cores = base64Cores(secret);
  const hex = hexForm(secret);
  // longest alternatives first, so an encoded form is masked whole
  const alternatives = [hexPattern(secret), ...cores.map(wrappedCorePattern), spelled];
  // spelled out, each character is at least one UTF-16 unit; a base64 core is as long as it is
  const shortest = Math.min([...secret].length, ...cores.map((c) => c.length));
  const plain = new RegExp([...secret].map(escapeRegExp).join(SEPARATOR));
  return {
    cores,
    hex,
    spelled: new RegExp(spelled),
    plain,
    all: new RegExp(alternatives.join('|'), 'g'),
    shortest,
  };
}

function holds(text: string, pattern: SecretPattern): boolean {
  if (text.length < pattern.shortest) return false;
  if (pattern.cores.some((core) => text.includes(core))) return true;
  if ((ENCODED_CHAR.test(text) ? pattern.spelled : pattern.plain).test(text)) return true;
  // folded (＋ -> +, 𝐊 -> K): faster than the spelled pattern's many forms for the many texts with an accent
  if (NOT_ASCII.test(text) && pattern.plain.test(text.normalize('NFKC'))) return true;
  if (text.length >= pattern.hex.length && text.toLowerCase().includes(pattern.hex)) return true;
  // base64 wrapped into lines (MIME: CRLF every 76 characters; PEM: LF every 64), indented or not
  if (!text.includes('\n') && !text.includes('\r')) return false;
  const joined = unwrapped(text);
  return pattern.cores.some((core) => joined.includes(core));
}

export function registerSecret(secret: string): void {
  if (secret.length >= MIN_SECRET_LENGTH && !secrets.has(secret)) secrets.set(secret, patternFor(secret));
}

export function forgetSecret(secret: string): void {
  secrets.delete(secret);
}

export function scrub(text: string): string {
  let out = text;
  for (const pattern of secrets.values()) {
    if (!holds(out, pattern)) continue;
    out = out.replace(pattern.all, MASK);
    // a form found but not placed (a ligature folding to two of its letters, a mix the spelled pattern misses): nothing
    // of it is kept
    if (holds(out, pattern)) return MASK;
  }
  return out;
}

/** Whether the text holds a registered token in any form `scrub` recognises. */
export function containsSecret(text: string): boolean {
  for (const pattern of secrets.values()) if (holds(text, pattern)) return true;
  return false;
}

/**
 * Whether any key or string (or number) inside a JSON-like value holds a
 * registered token. Each string is checked as it is, not as JSON text: JSON
 * writes a newline as the two characters `\n`, which would hide a token split
 * by a newline, CR or tab from the separator pattern. Stops at the first hit;
 * a 1,000-record page costs a few ms (one indexOf per base64 core, one
 * regular-expression scan and one of the lower-cased text per string; a text
 * with line breaks is searched once more without them: about 4 ms of CPU for
 * a page whose every record has multi-line notes, 2 ms before the hex,
 * entity and wrapped forms were added).
 */
export function containsSecretDeep(value: unknown): boolean {
  if (secrets.size === 0) return false;
  if (typeof value === 'string') return containsSecret(value);
  // a token of digits only could come back as a number: JSON text held those too
  if (typeof value === 'number') return containsSecret(String(value));
  if (Array.isArray(value)) return value.some(containsSecretDeep);
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value))
      if (containsSecret(key) || containsSecretDeep(inner)) return true;
  }
  return false;
}

/** Scrub every string inside a JSON-like value (keys and values: status bodies, results, events). */
export function scrubDeep<T>(value: T): T {
  if (secrets.size === 0) return value;
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => scrubDeep(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[scrub(k)] = scrubDeep(v);
    return out as T;
  }
  return value;
}

/** The masked tail the renderer may see, e.g. "••••3kQ=". Short tokens show no tail at all. */
export function tokenHint(token: string): string {
  return token.length >= 12 ? `${MASK}${token.slice(-4)}` : MASK;
}
