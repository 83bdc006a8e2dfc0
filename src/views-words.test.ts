/**
 * The words of the views, as a specification: no text a coordinator reads (JSX
 * text, the strings a JSX child or a visible attribute shows) holds a raw API
 * field name or a phrase the product has dropped, and no view keeps a "soon"
 * window of its own: every one starts from soon-window.ts (one setting, in
 * Settings). Read from the sources with the TypeScript parser, so a new view is
 * covered the day it is written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { RAW_FIELD_NAMES, fieldLabel } from './renderer/app/words.ts';

const ROOT = resolve(import.meta.dirname, '..');
const RENDERER = join(ROOT, 'src/renderer');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

const VISIBLE_ATTRIBUTES = new Set([
  'title',
  'aria-label',
  'placeholder',
  'label',
  'alt',
  'aria-description',
]);

/** Strings an expression shows as it is (a call's arguments are its own business: fieldLabel('firstname') is fine). */
function shownStrings(node: ts.Node, out: string[]): void {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
  else if (ts.isTemplateExpression(node)) {
    out.push(node.head.text, ...node.templateSpans.map((s) => s.literal.text));
    for (const span of node.templateSpans) shownStrings(span.expression, out);
  } else if (ts.isConditionalExpression(node)) {
    shownStrings(node.whenTrue, out);
    shownStrings(node.whenFalse, out);
  } else if (ts.isBinaryExpression(node)) {
    shownStrings(node.left, out);
    shownStrings(node.right, out);
  } else if (ts.isParenthesizedExpression(node)) shownStrings(node.expression, out);
}

/** Every text a file's JSX shows, with its line. */
function visibleTexts(path: string): { text: string; where: string }[] {
  const file = ts.createSourceFile(
    path,
    readFileSync(path, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    // a .ts file has no JSX: read as TSX, its generics (`new Map<number, Fact>()`) would parse as elements
    path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: { text: string; where: string }[] = [];
  const add = (node: ts.Node, texts: string[]) => {
    const where = `${relative(ROOT, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    for (const text of texts) if (text.trim()) found.push({ text, where });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) add(node, [node.text]);
    else if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      const texts: string[] = [];
      shownStrings(node.expression, texts);
      add(node, texts);
    } else if (ts.isJsxAttribute(node) && VISIBLE_ATTRIBUTES.has(node.name.getText()) && node.initializer) {
      const texts: string[] = [];
      shownStrings(
        ts.isJsxExpression(node.initializer) && node.initializer.expression
          ? node.initializer.expression
          : node.initializer,
        texts,
      );
      add(node, texts);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The platform's names that are not already the word a person uses ("status" is; "expirationdate" is not). */
const RAW_NAMES = RAW_FIELD_NAMES.filter((name) => fieldLabel(name).toLowerCase() !== name.toLowerCase());
const DROPPED_PHRASES = [/already so\b/i, /\ba e-mail/i, /\bQueue 1 changes\b/, /\bPending create\b/i];

/** Which raw names or dropped phrases a text holds. */
function badWords(text: string): string[] {
  const raw = RAW_NAMES.filter((name) => new RegExp(`(^|[^A-Za-z_])${name}([^A-Za-z_]|$)`).test(text));
  return [...raw, ...DROPPED_PHRASES.filter((p) => p.test(text)).map(String)];
}

describe('the words of the views', () => {
  it('the check itself finds a raw name or a dropped phrase, and passes the coordinator’s words', () => {
    expect(badWords('Set expirationdate')).toEqual(['expirationdate']);
    expect(badWords('due_date: 2026-01-01')).toEqual(['due_date']);
    expect(badWords('0 already so (skipped)')).toHaveLength(1);
    expect(badWords('Expiration date, Due date, Username, Status')).toEqual([]);
  });

  it('no view shows a raw API field name or a dropped phrase', () => {
    const offending = sources(RENDERER).flatMap((path) =>
      visibleTexts(path).flatMap(({ text, where }) =>
        badWords(text).map((bad) => `${where}: "${text.trim()}" (${bad})`),
      ),
    );
    expect(offending).toEqual([]);
  });
});

/** The functions that take a "soon" window as an argument. */
const WINDOW_TAKERS = [
  'credentialState',
  'trainingState',
  'isDueWithin',
  'credentialsExpiringWithin',
  'trainingDueWithin',
].join('|');

/**
 * A "soon" window of a view's own: a days state or constant starting from a number, or
 * a compliance state computed with a literal window, anywhere but soon-window.ts.
 */
const OWN_WINDOW = [
  /\[\s*\w*days\w*\s*,\s*set\w*\s*\]\s*=\s*useState(?:<[^>]*>)?\(\s*\d+\s*\)/i,
  /\b(?:const|let)\s+\w*(?:SOON|DAYS)\w*\s*(?::\s*\w+\s*)?=\s*\d+\b/,
  new RegExp(String.raw`\b(?:${WINDOW_TAKERS})\([^;\n]*[^\w.]\d+\s*[,)]`),
  /\b(?:credentialState|trainingState)\([^;\n]*\?\s*\d+\s*:/,
];

function ownWindows(source: string): string[] {
  return source
    .split('\n')
    .filter((line) => OWN_WINDOW.some((p) => p.test(line)))
    .map((line) => line.trim());
}

describe('one "soon" window', () => {
  it('the check finds a view’s own window and passes one read from the setting', () => {
    expect(ownWindows('  const [days, setDays] = useState(14);')).toHaveLength(1);
    expect(ownWindows('const TRAINING_SOON_DAYS = 30;')).toHaveLength(1);
    expect(ownWindows('<TrainingBadge state={trainingState(t, today, 14)} />')).toHaveLength(1);
    expect(ownWindows("credentialState(a, today, w === 'all' ? 30 : Number(w))")).toHaveLength(1);
    expect(ownWindows('const [days, setDays] = useSoonDaysBox();')).toEqual([]);
    expect(ownWindows('trainingState(t, today, days)')).toEqual([]);
  });

  it('no view keeps a window of its own', () => {
    const offending = sources(RENDERER)
      .filter((path) => !path.endsWith('soon-window.ts'))
      .flatMap((path) =>
        ownWindows(readFileSync(path, 'utf8')).map((line) => `${relative(ROOT, path)}: ${line}`),
      );
    expect(offending).toEqual([]);
  });
});
