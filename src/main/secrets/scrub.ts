/**
 * The scrubber registry: every token main knows is registered here, and every
 * string that crosses to the renderer or into a log (errors, results, events,
 * keys as well as values) is passed through `scrub` first, so a server that
 * echoes the token back cannot leak it. The token is recognised as it is,
 * split by whitespace or zero-width characters, URL-encoded (any mix of
 * escapes), and in base64 / base64url at any alignment inside a longer text.
 */
const MASK = '••••';

/** Shorter strings would mask ordinary words; real tokens are far longer. */
const MIN_SECRET_LENGTH = 6;

/** What may be slipped between the token's characters without changing how it reads. */
const SEPARATOR = '[\\s\\u200B-\\u200D\\u2060\\uFEFF\\u00AD]*';

interface SecretPattern {
  /** base64 / base64url cores: plain substrings, found with indexOf */
  cores: string[];
  /** the token spelled out, with separators or percent-escapes between its characters */
  spelled: RegExp;
  /** both, for replacing */
  all: RegExp;
  /** no shorter text holds the token in any of these forms (most fields of a record are shorter) */
  shortest: number;
}

const secrets = new Map<string, SecretPattern>();

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** One character as itself or percent-encoded (hex digits in either case). */
function charPattern(char: string): string {
  const bytes = [...Buffer.from(char)].map((b) =>
    [...b.toString(16).toUpperCase().padStart(2, '0')].map((d) => (/[A-F]/.test(d) ? `[${d}${d.toLowerCase()}]` : d)).join(''),
  );
  return `(?:${escapeRegExp(char)}|%${bytes.join('%')})`;
}

/**
 * The base64 characters that encode the secret's bytes alone, for each of the
 * three alignments the secret can have inside a longer encoded text.
 */
function base64Cores(secret: string): string[] {
  const n = Buffer.byteLength(secret);
  const cores: string[] = [];
  for (let k = 0; k < 3; k++) {
    const encoded = Buffer.concat([Buffer.alloc(k), Buffer.from(secret)]).toString('base64');
    const core = encoded.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + n)) / 6));
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(cores)].filter((core) => core.length >= MIN_SECRET_LENGTH);
}

function patternFor(secret: string): SecretPattern {
  const spelled = [...secret].map(charPattern).join(SEPARATOR);
  const cores = base64Cores(secret);
  // longest alternatives first, so a base64 core is masked whole
  // spelled out, each character is at least one UTF-16 unit; a base64 core is as long as it is
  const shortest = Math.min([...secret].length, ...cores.map((c) => c.length));
  return { cores, spelled: new RegExp(spelled), all: new RegExp([...cores.map(escapeRegExp), spelled].join('|'), 'g'), shortest };
}

function holds(text: string, pattern: SecretPattern): boolean {
  if (text.length < pattern.shortest) return false;
  return pattern.cores.some((core) => text.includes(core)) || pattern.spelled.test(text);
}

export function registerSecret(secret: string): void {
  if (secret.length >= MIN_SECRET_LENGTH && !secrets.has(secret)) secrets.set(secret, patternFor(secret));
}

export function forgetSecret(secret: string): void {
  secrets.delete(secret);
}

export function scrub(text: string): string {
  let out = text;
  for (const pattern of secrets.values()) if (holds(out, pattern)) out = out.replace(pattern.all, MASK);
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
 * a 1,000-record page costs a few ms (one indexOf per base64 core and one
 * regular-expression scan per string).
 */
export function containsSecretDeep(value: unknown): boolean {
  if (secrets.size === 0) return false;
  if (typeof value === 'string') return containsSecret(value);
  // a token of digits only could come back as a number: JSON text held those too
  if (typeof value === 'number') return containsSecret(String(value));
  if (Array.isArray(value)) return value.some(containsSecretDeep);
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) if (containsSecret(key) || containsSecretDeep(inner)) return true;
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
