/**
 * The scrubber: whatever came from the API may echo the token, as a value, as a
 * key, or encoded. None of these forms may reach the renderer or a log.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { containsSecret, forgetSecret, registerSecret, scrub, scrubDeep } from './scrub.ts';

const TOKEN = 'Zq8+/Kd93hT0ken~Vx7=';

beforeEach(() => registerSecret(TOKEN));
afterEach(() => forgetSecret(TOKEN));

const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

function expectClean(text: string, what: string): void {
  const out = scrub(text);
  expect(out, what).not.toContain(TOKEN);
  expect(containsSecret(out), what).toBe(false);
  expect(containsSecret(text), what).toBe(true);
}

describe('scrub', () => {
  it('masks the token as it is', () => {
    expect(scrub(`bad token ${TOKEN}!`)).toBe('bad token ••••!');
  });

  it('masks the token in base64 and base64url, at any alignment inside a longer encoded text', () => {
    for (const prefix of ['', 'a', 'ab', 'Authorization: ']) {
      expectClean(`echo ${b64(prefix + TOKEN + ' tail')}`, `base64 after "${prefix}"`);
      expectClean(`echo ${b64url(prefix + TOKEN + ' tail')}`, `base64url after "${prefix}"`);
    }
  });

  it('masks the token URL-encoded, whatever the case of the escapes', () => {
    expectClean(`next=${encodeURIComponent(TOKEN)}`, 'encodeURIComponent');
    expectClean(`next=${encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`, 'lower-case escapes');
    const everyChar = [...TOKEN].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
    expectClean(`q=${everyChar}`, 'every character escaped');
  });

  it('masks the token split by zero-width characters or whitespace', () => {
    for (const separator of ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD', ' ', '\n', '\t']) {
      expectClean(`token: ${[...TOKEN].join(separator)}`, `split by U+${separator.charCodeAt(0).toString(16)}`);
    }
  });

  it('finds the token filling a whole string, and nothing in a string one character shorter', () => {
    // (strings shorter than every form of the token are not searched at all: most fields of a record)
    expect(containsSecret(TOKEN)).toBe(true);
    expect(containsSecret(b64(TOKEN))).toBe(true);
    expect(containsSecret(TOKEN.slice(1))).toBe(false);
    expect(containsSecret(TOKEN.slice(0, -1))).toBe(false);
  });

  it('leaves ordinary text alone', () => {
    const text = 'Username already in use: ann.lee@example.com (row 12)';
    expect(scrub(text)).toBe(text);
    expect(containsSecret(text)).toBe(false);
  });
});

describe('scrubDeep', () => {
  it('masks the token in object keys as well as values', () => {
    const echoed = { [TOKEN]: 'x', nested: [{ [`k-${TOKEN}`]: TOKEN }] };
    const out = JSON.stringify(scrubDeep(echoed));
    expect(out).not.toContain(TOKEN);
    expect(containsSecret(out)).toBe(false);
  });
});
