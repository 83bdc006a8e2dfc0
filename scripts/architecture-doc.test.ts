/**
 * docs/architecture.md is the map a new engineer trusts: every path it cites
 * must exist, and every figure it gives that the code can confirm (the cache's
 * schema versions, the reference server's datasets, the answer cap, the
 * function-size rule) must be the code's.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATASET_NAMES } from '../src/server/datasets.ts';
import { MAX_ANSWER_BYTES } from '../src/main/api/read-body.ts';

const root = resolve(import.meta.dirname, '..');
const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Every file and folder under these, relative to the root ("src/main/sync/flow.ts", "src/main/sync/"). */
function treeOf(...tops: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = `${dir}/${name}`;
      if (statSync(join(root, path)).isDirectory()) {
        out.push(`${path}/`);
        walk(path);
      } else out.push(path);
    }
  };
  tops.forEach(walk);
  return out;
}
const tree = treeOf('src', 'e2e', 'scripts', 'bench', 'docs');

const FILE = /\.(ts|tsx|js|mjs|json|md|yml|css|html)$/;
/** A backticked token that names a file or a folder: no placeholders, wildcards or spaces. */
function isPathToken(token: string): boolean {
  return /^[\w.@/-]+$/.test(token) && (token.includes('/') || FILE.test(token)) && !token.startsWith('/');
}

/** The paths cited on one line of the document, with the folders that line cites (a bare name is read inside them). */
function citedPaths(): { line: number; path: string; folders: string[] }[] {
  return doc.split('\n').flatMap((text, i) => {
    const tokens = [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter(isPathToken);
    const folders = tokens.filter((t) => t.endsWith('/'));
    return tokens.map((path) => ({ line: i + 1, path, folders }));
  });
}

/** Found from the root, inside a folder the same line cites, or as the end of one path of the tree. */
function exists({ path, folders }: { path: string; folders: string[] }): boolean {
  if (existsSync(join(root, path))) return true;
  if (folders.some((folder) => existsSync(join(root, folder, path)))) return true;
  return tree.some((entry) => entry.endsWith(`/${path}`));
}

/**
 * A table keyed by operation kind that the compiler holds complete: `satisfies <…>Registry` or
 * `{ [K in OpKind]: … }`.
 */
const KIND_TABLE = /\}\s*(?:as const\s+)?satisfies\s+(?:\w+KindRegistry\b|\{\s*\[K in OpKind\])/g;

/** Every such table of src/ outside tests: its name (the nearest `const` before it) and its file. */
function kindTables(): { name: string; file: string }[] {
  const sources = tree.filter((p) => p.startsWith('src/') && /\.tsx?$/.test(p) && !/\.test\.tsx?$/.test(p));
  return sources.flatMap((file) => {
    const text = read(file);
    return [...text.matchAll(KIND_TABLE)].flatMap((match) => {
      const before = [...text.slice(0, match.index).matchAll(/\bconst (\w+)\s*=/g)].at(-1);
      return before ? [{ name: before[1]!, file }] : [];
    });
  });
}

describe('docs/architecture.md', () => {
  it('cites only paths that exist', () => {
    const cited = citedPaths();
    expect(cited.length).toBeGreaterThan(100);
    expect(cited.filter((c) => !exists(c)).map((c) => `line ${c.line}: ${c.path}`)).toEqual([]);
  });

  it('gives the cache database every schema version it declares', () => {
    const declared = [...read('src/renderer/db/index.ts').matchAll(/\.version\((\d+)\)/g)].map((m) =>
      Number(m[1]),
    );
    const cited = doc.match(/schema versions 1–(\d+)/);
    expect(cited, 'the row of the cache database says "schema versions 1–N"').not.toBeNull();
    expect(Number(cited![1])).toBe(Math.max(...declared));
    // version 15 is declared on another branch (the history's); the lead renumbers at merge, then drops this
    const elsewhere = [15];
    const all = Array.from({ length: Math.max(...declared) }, (_, i) => i + 1);
    expect(declared).toEqual(all.filter((v) => !elsewhere.includes(v)));
    const versionsNamed = [...doc.matchAll(/Dexie version (\d+)/g)].map((m) => Number(m[1]));
    expect(versionsNamed.filter((v) => !declared.includes(v))).toEqual([]);
  });

  it('names every dataset of the reference server, and no other', () => {
    const row = doc
      .split('\n')
      .find((line) => line.includes('datasets') && line.includes('src/server/datasets.ts'));
    expect(row, 'a row cites src/server/datasets.ts and its datasets').toBeDefined();
    const named = [...row!.matchAll(/`(\w+)`/g)].map((m) => m[1]);
    expect(named).toEqual([...DATASET_NAMES]);
  });

  it('names, in the recipe of an operation kind, every table that refuses a kind without its part', () => {
    const recipe = doc.slice(
      doc.indexOf('## How to add an operation kind'),
      doc.indexOf('## How to add a view'),
    );
    const tables = kindTables();
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['OP_KIND_TABLE', 'REPLAY_KIND_TABLE']));
    const unnamed = tables.filter(
      (t) => !recipe.includes(`\`${t.name}\``) || !recipe.includes(`\`${t.file}\``),
    );
    expect(unnamed.map((t) => `${t.name} (${t.file})`)).toEqual([]);
  });

  it('gives the answer cap and the function-size rule as the code has them', () => {
    const cap = doc.match(/the (\d+) MB answer cap/);
    expect(Number(cap?.[1]) * 1024 * 1024).toBe(MAX_ANSWER_BYTES);
    const lines = doc.match(/No function over about (\d+) lines/);
    expect(read('eslint.config.js')).toContain(`'max-lines-per-function': ['error', { max: ${lines?.[1]},`);
  });
});
