/**
 * What an operation kind does lives in the definitions of its kind, looked up
 * through the registries (src/shared/op-kinds.ts, src/main/replay/kinds.ts,
 * src/renderer/op-kinds.ts), so a new kind touches its modules, its test and
 * the registries, never a tour of switches. This test reads the product code
 * as text and fails on a dispatch by kind outside the registries' folders: a
 * `case '<kind>':` of a switch over an op's kind, or an `else if` of a chain of
 * `.kind === '<kind>'` tests. One check of one kind (the special case of a
 * person's create, say) is not a dispatch and stays where it is used.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OP_KINDS } from './shared/ipc.ts';

const SRC = resolve(import.meta.dirname);

/** The registries and the definitions they hold: where a kind's own code is. */
const REGISTRIES = [
  'shared/op-kinds.ts',
  'shared/op-kinds/',
  'main/replay/kinds.ts',
  'main/replay/kinds/',
  'renderer/op-kinds.ts',
  'renderer/op-kinds/',
];

/**
 * Dispatches by kind that remain, per file: a count may only go down (lower it when you move one into the kinds'
 * definitions; remove the entry at 0).
 */
const NOT_YET: Record<string, number> = {
  'renderer/features/import/queued-assignments.ts': 3,
};

const KIND = `'(?:${OP_KINDS.map((kind) => kind.replace('.', '\\.')).join('|')})'`;
/** `case 'email.add':`, and `else if (spec.kind === 'email.remove')` (the second and later tests of a chain). */
const DISPATCH = new RegExp(`\\bcase ${KIND}\\s*:|\\belse if \\([^)]*\\.kind [!=]== ${KIND}`, 'g');

function productFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Dispatches by kind per file under src/, outside the registries. */
function dispatchesByFile(): Record<string, number> {
  const found: Record<string, number> = {};
  for (const file of productFiles(SRC)) {
    const path = relative(SRC, file).split('\\').join('/');
    if (REGISTRIES.some((registry) => path === registry || path.startsWith(registry))) continue;
    const count = readFileSync(file, 'utf8').match(DISPATCH)?.length ?? 0;
    if (count > 0) found[path] = count;
  }
  return found;
}

describe('operation kinds', () => {
  it('are told apart only in their registries: no switch or chain over an op kind elsewhere', () => {
    const found = dispatchesByFile();
    const over = Object.entries(found).filter(([path, count]) => count > (NOT_YET[path] ?? 0));
    expect(Object.fromEntries(over)).toEqual({});
  });

  it('keeps its table of dispatches not yet moved no larger than the code', () => {
    const found = dispatchesByFile();
    const stale = Object.entries(NOT_YET).filter(([path, count]) => (found[path] ?? 0) < count);
    expect(Object.fromEntries(stale)).toEqual({});
  });
});
