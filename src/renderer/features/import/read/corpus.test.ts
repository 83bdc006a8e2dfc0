/**
 * The encoding corpus (scripts/make-import-fixtures.mjs corpus): one staff list
 * saved by LibreOffice in every encoding the preview offers, as a whole, as the
 * names each encoding was made for, and as short files of 2 and 4 people; the
 * folder names the encoding. A guess is right when it reads the file as the
 * encoding it was saved in does (ISO-8859-15 and Windows-1252 read "Hélène" alike).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSpreadsheet } from './index.ts';
import type { EncodingQuestion } from './table.ts';

const CORPUS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/encodings');

interface CorpusFile {
  /** "windows-1252/short-2.csv" */
  name: string;
  savedIn: string;
  bytes: Uint8Array;
}

const corpus: CorpusFile[] = readdirSync(CORPUS).flatMap((savedIn) =>
  readdirSync(path.join(CORPUS, savedIn)).map((file) => ({
    name: `${savedIn}/${file}`,
    savedIn,
    bytes: new Uint8Array(readFileSync(path.join(CORPUS, savedIn, file))),
  })),
);

const readsAlike = (a: string, b: string, bytes: Uint8Array) =>
  new TextDecoder(a).decode(bytes) === new TextDecoder(b).decode(bytes);
/** each file is read once, whichever test asks first (76 files: seconds on a busy machine) */
const questions = new Map<string, EncodingQuestion | undefined>();
const question = (file: CorpusFile) => {
  if (!questions.has(file.name))
    questions.set(file.name, readSpreadsheet(file.name.replace('/', '-'), file.bytes).encoding);
  return questions.get(file.name);
};
const firstGuessWrong = (file: CorpusFile) => {
  const read = question(file)?.read ?? 'utf-8';
  return readsAlike(read, file.savedIn, file.bytes) ? [] : [`${file.name} read as ${read}`];
};

describe('the encoding corpus', () => {
  it('holds every encoding the preview offers, each as a whole list, its own names and two short files', () => {
    const encodings = new Set(corpus.map((f) => f.savedIn));
    expect(encodings.size).toBe(19);
    expect(corpus).toHaveLength(19 * 4);
  });

  it('is guessed right the first time for at least 95% of its files', () => {
    const wrong = corpus.flatMap(firstGuessWrong);
    const right = corpus.length - wrong.length;
    const rate = right / corpus.length;
    const percent = (rate * 100).toFixed(1);
    const wrongOnes = wrong.length ? `; wrong: ${wrong.join(', ')}` : '';
    console.log(
      `encoding corpus: first guess right for ${right} of ${corpus.length} files (${percent}%)${wrongOnes}`,
    );
    expect(rate).toBeGreaterThanOrEqual(0.95);
  }, 120_000);

  it('is guessed right the first time for every short file (2 and 4 people)', () => {
    expect(corpus.filter((f) => f.name.includes('/short-')).flatMap(firstGuessWrong)).toEqual([]);
  }, 120_000);

  it('offers Windows-1252 among the four choices shown for every file', () => {
    const without = corpus.filter(
      (f) =>
        !question(f)
          ?.candidates.slice(0, 4)
          .some((c) => c.encoding === 'windows-1252'),
    );
    expect(without.map((f) => f.name)).toEqual([]);
  }, 120_000);
});

describe('a short UTF-8 file with stray bytes of another encoding', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const withStray = (...parts: (string | number)[]) =>
    new Uint8Array(parts.flatMap((part) => (typeof part === 'number' ? [part] : [...utf8(part)])));

  it('is read as UTF-8 with the one row of two holding the stray byte named', () => {
    const table = readSpreadsheet(
      'p.csv',
      withStray('username,first name\nlukasz.zolc,Łukasz\nrene.dupont,Ren', 0xe9, '\n'),
    );
    expect(table.encoding).toMatchObject({ read: 'utf-8', damagedRows: [3] });
    expect(table.encoding?.candidates[0]?.encoding).toBe('utf-8');
    expect(table.rows[1]?.cells).toEqual(['lukasz.zolc', 'Łukasz']);
  });

  it('names both rows of four that hold stray bytes, and offers Windows-1252 among the choices shown', () => {
    const bytes = withStray(
      'username,first name\nhelene.dubois,Hélène\nrene.dupont,Ren',
      0xe9,
      '\njiri.dvorak,Jiří\nzoe.obrien,Zo',
      0xeb,
      '\n',
    );
    const question = readSpreadsheet('p.csv', bytes).encoding;
    expect(question).toMatchObject({ read: 'utf-8', damagedRows: [3, 5] });
    expect(question?.candidates.slice(0, 4).map((c) => c.encoding)).toContain('windows-1252');
  });
});
