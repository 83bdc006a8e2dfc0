/**
 * No line of code over 120 characters in src, e2e, bench and scripts (issue 36). Prettier wraps code at 110 but
 * leaves comments, strings and templates as they are: this check holds those too.
 *
 * The one exception: a line whose excess is one whole string literal, such as a message, a test's title or an
 * address, which reads better whole than cut. Precisely: the line holds a quoted string ('…', "…" or `…`) that
 * starts and ends on the line, outside a comment, whose placeholders, if any, only name a value (`${port}`,
 * `${profile.name}`: anything computed is a named step before it), and the line without that string's text is
 * at most 120 characters. A comment line has no exception.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const MAX = 120;

/** Whether a template's text computes something in a placeholder, rather than only naming a value. */
function computesInside(text: string): boolean {
  const opened = text.split('${').length - 1;
  const named = text.match(/\$\{[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*\}/g) ?? [];
  return named.length !== opened;
}

/** The string literals that start and end on the line, before any `//` comment; none on a comment line. */
function stringsOf(line: string): { length: number; computed: boolean }[] {
  const code = line.trimStart();
  if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return [];
  const found: { length: number; computed: boolean }[] = [];
  for (let i = 0; i < line.length; i += 1) {
    const quote = line[i]!;
    if (quote === '/' && line[i + 1] === '/') break;
    if (quote !== "'" && quote !== '"' && quote !== '`') continue;
    let end = i + 1;
    while (end < line.length && line[end] !== quote) end += line[end] === '\\' ? 2 : 1;
    if (end >= line.length) break; // the string goes on to the next line: not whole on this one
    const text = line.slice(i + 1, end);
    found.push({ length: text.length, computed: quote === '`' && computesInside(text) });
    i = end;
  }
  return found;
}

/** Whether the line is too long: over 120 characters, unless its excess is one whole string literal. */
export function tooLong(line: string): boolean {
  if (line.length <= MAX) return false;
  return !stringsOf(line).some((s) => !s.computed && line.length - s.length <= MAX);
}

/** "path:line" of every line too long in the file's text. */
function longLinesOf(path: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (tooLong(line) ? [`${path}:${i + 1}`] : []));
}

function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((path) => /^(src|e2e|bench|scripts)\//.test(path) && /\.(ts|tsx|js|mjs|cjs)$/.test(path));
}

describe('line length', () => {
  it('refuses a comment over 120 characters', () => {
    expect(tooLong(`  // ${'word '.repeat(30)}`)).toBe(true);
    expect(tooLong(`   * ${'word '.repeat(30)}`)).toBe(true);
  });

  it('refuses code over 120 characters, even with short strings in it', () => {
    expect(tooLong(`  const total = ${'first + '.repeat(15)}'a' + 'b';`)).toBe(true);
  });

  it('refuses a long template that computes in its placeholders: it is built in named steps', () => {
    expect(tooLong(`  return \`${'${a.b()} and '.repeat(14)}\`;`)).toBe(true);
    expect(tooLong(`  return \`${'${a ?? b} and '.repeat(14)}\`;`)).toBe(true);
  });

  it('lets a long message stay whole when its placeholders only name values', () => {
    expect(
      tooLong(`  throw new Error(\`Port \${port} of \${profile.name} ${'is in use '.repeat(12)}\`);`),
    ).toBe(false);
  });

  it('lets a whole message, test title or address stay whole when it is the only excess', () => {
    expect(tooLong(`  it('${'reads as one sentence '.repeat(7)}', () => {`)).toBe(false);
    expect(tooLong(`    "${'x'.repeat(130)}",`)).toBe(false);
  });

  it('refuses a line that is long besides its string', () => {
    expect(tooLong(`  ${'call(argument), '.repeat(8)}'${'y'.repeat(40)}');`)).toBe(true);
  });

  it('finds no line too long in src, e2e, bench and scripts', () => {
    const found = sourceFiles().flatMap((path) => longLinesOf(path, readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });
});
