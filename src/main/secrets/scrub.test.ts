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
    expectClean(
      `next=${encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`,
      'lower-case escapes',
    );
    const everyChar = [...TOKEN]
      .map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
      .join('');
    expectClean(`q=${everyChar}`, 'every character escaped');
  });

  it('masks the token split by zero-width characters or whitespace', () => {
    for (const separator of ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD', ' ', '\n', '\t']) {
      expectClean(
        `token: ${[...TOKEN].join(separator)}`,
        `split by U+${separator.charCodeAt(0).toString(16)}`,
      );
    }
  });

  it('masks the token in hex, in either case, alone or inside a longer hex text', () => {
    const hex = (text: string) => Buffer.from(text).toString('hex');
    expectClean(`trace=${hex(TOKEN)}`, 'lower-case hex');
    expectClean(`trace=${hex(TOKEN).toUpperCase()}`, 'upper-case hex');
    expectClean(`dump ${hex(`AccessToken: ${TOKEN}\r\n`)}`, 'inside a longer hex dump');
    expectClean(
      `bytes ${[...Buffer.from(TOKEN)].map((b) => `\\x${b.toString(16)}`).join('')}`,
      'as \\x escapes',
    );
  });

  it('masks the token written as HTML character references: decimal, hex and named, alone or mixed with plain characters', () => {
    const decimal = [...TOKEN].map((c) => `&#${c.codePointAt(0)};`).join('');
    const hex = [...TOKEN].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('');
    const upperHexPadded = [...TOKEN]
      .map((c) => `&#X00${c.codePointAt(0)!.toString(16).toUpperCase()};`)
      .join('');
    const named = TOKEN.replace(/\+/g, '&plus;')
      .replace(/\//g, '&sol;')
      .replace(/=/g, '&equals;')
      .replace(/~/g, '&tilde;');
    const mixed = [...TOKEN].map((c, i) => (i % 2 ? `&#${c.codePointAt(0)};` : c)).join('');
    for (const [form, text] of Object.entries({ decimal, hex, upperHexPadded, named, mixed }))
      expectClean(`<p title="${text}">echo</p>`, form);
  });

  it('masks the token URL-encoded twice (a % written as %25), or once and twice mixed', () => {
    const twice = encodeURIComponent(encodeURIComponent(TOKEN));
    expect(twice).toContain('%252B');
    expectClean(`next=${twice}`, 'double URL-encoding');
    const everyCharTwice = [...TOKEN]
      .map((c) => `%25${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
      .join('');
    expectClean(`next=${everyCharTwice}`, 'every character double-encoded');
    const mixed = [...TOKEN]
      .map((c, i) =>
        i % 3 === 0
          ? `%25${c.charCodeAt(0).toString(16)}`
          : i % 3 === 1
            ? `%${c.charCodeAt(0).toString(16)}`
            : c,
      )
      .join('');
    expectClean(`next=${mixed}`, 'plain, once and twice mixed');
  });

  it('masks the token in base64 wrapped into lines as MIME (CRLF every 76) or PEM (LF every 64) does, at any alignment', () => {
    const wrap = (text: string, width: number, eol: string) =>
      text.match(new RegExp(`.{1,${width}}`, 'g'))!.join(eol);
    for (const prefix of ['', 'x', 'xy', 'Content-Type: text/plain\r\nX-Token: '.repeat(3)]) {
      const encoded = b64(`${prefix}${TOKEN} and more text after it`);
      for (const width of [4, 5, 7, 19, 64, 76]) {
        expectClean(
          `body:\r\n${wrap(encoded, width, '\r\n')}`,
          `CRLF every ${width} after "${prefix.slice(0, 10)}"`,
        );
        expectClean(
          `body:\n${wrap(encoded, width, '\n')}`,
          `LF every ${width} after "${prefix.slice(0, 10)}"`,
        );
      }
    }
  });

  it('masks the token in quoted-printable: as an encoder writes it (= as =3D), every byte escaped, or with soft line breaks', () => {
    const qp = (text: string) => text.replace(/=/g, '=3D');
    const everyByte = (hex: (b: number) => string) =>
      [...Buffer.from(TOKEN)].map((b) => `=${hex(b)}`).join('');
    expectClean(`X-Token: ${qp(TOKEN)}`, 'as an encoder writes it');
    expectClean(
      `X-Token: ${everyByte((b) => b.toString(16).toUpperCase().padStart(2, '0'))}`,
      'every byte, upper-case hex',
    );
    expectClean(
      `X-Token: ${everyByte((b) => b.toString(16).padStart(2, '0'))}`,
      'every byte, lower-case hex',
    );
    for (const eol of ['=\r\n', '=\n', '= \r\n'])
      expectClean(
        `X-Token: ${TOKEN.slice(0, 7)}${eol}${qp(TOKEN.slice(7))}`,
        `soft line break ${JSON.stringify(eol)}`,
      );
  });

  it('masks the token written as %uXXXX escapes (IIS, JavaScript’s escape()), in either case, alone or mixed', () => {
    const u = (c: string) => `%u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    expectClean(`next=${[...TOKEN].map(u).join('')}`, 'every character, lower case');
    expectClean(`next=${[...TOKEN].map((c) => u(c).toUpperCase()).join('')}`, 'every character, upper case');
    expectClean(
      `next=${[...TOKEN].map((c, i) => (i % 2 ? u(c) : c)).join('')}`,
      'mixed with plain characters',
    );
  });

  it('masks the token in full-width letters and other compatibility forms that read as the same characters', () => {
    const fullWidth = (text: string) =>
      [...text].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');
    expectClean(`トークン：${fullWidth(TOKEN)}`, 'full-width');
    expect(scrub(`トークン：${fullWidth(TOKEN)}！`), 'masked in place').toBe('トークン：••••！');
    expectClean(`token ${[...TOKEN].map((c, i) => (i % 2 ? fullWidth(c) : c)).join('')}`, 'half full-width');
    // mathematical bold letters and digits (U+1D400 block) fold to the same letters (NFKC)
    const bold = TOKEN.replace(/[A-Za-z0-9]/g, (c) => {
      const code = c.charCodeAt(0);
      if (c >= 'a') return String.fromCodePoint(0x1d41a + code - 0x61);
      if (c >= 'A') return String.fromCodePoint(0x1d400 + code - 0x41);
      return String.fromCodePoint(0x1d7ce + code - 0x30);
    });
    expectClean(`token ${bold}`, 'mathematical bold');
  });

  it('masks the whole text when it holds the token in a form that cannot be masked in place (a ligature standing for two letters)', () => {
    const staff = 'staff-token-0099';
    registerSecret(staff);
    try {
      const text = `echo: sta\uFB00-token-0099 (row 3)`;
      expect(containsSecret(text)).toBe(true);
      expect(scrub(text)).toBe('••••');
    } finally {
      forgetSecret(staff);
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
    for (const text of [
      'Username already in use: ann.lee@example.com (row 12)',
      'Hélène Müller, ＡＢＣ株式会社, =3D=20 %u00e9 100%',
    ]) {
      expect(scrub(text)).toBe(text);
      expect(containsSecret(text)).toBe(false);
    }
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
