/**
 * The scrubber registry: every token main knows is registered here, and every
 * error message that crosses to the renderer or into a log is passed through
 * `scrub` first, so a server that echoes the token back cannot leak it.
 */
const secrets = new Set<string>();
const MASK = '••••';

/** Shorter strings would mask ordinary words; real tokens are far longer. */
const MIN_SECRET_LENGTH = 6;

export function registerSecret(secret: string): void {
  if (secret.length >= MIN_SECRET_LENGTH) secrets.add(secret);
}

export function forgetSecret(secret: string): void {
  secrets.delete(secret);
}

export function scrub(text: string): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(MASK);
  }
  return out;
}

/** Scrub every string inside a JSON-like value (status bodies, error objects). */
export function scrubDeep<T>(value: T): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => scrubDeep(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = scrubDeep(v);
    return out as T;
  }
  return value;
}

/** The masked tail the renderer may see, e.g. "••••3kQ=". Short tokens show no tail at all. */
export function tokenHint(token: string): string {
  return token.length >= 12 ? `${MASK}${token.slice(-4)}` : MASK;
}
