/**
 * Text files that are not UTF-8, saved by LibreOffice (scripts/make-import-fixtures.mjs):
 * the encoding is guessed from the bytes and offered for the user to confirm,
 * with the names as each encoding reads them; a UTF-8 file with a stray byte
 * names its rows instead of being read another way as a whole.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { strToU8 } from 'fflate';
import { readSpreadsheet } from './index.ts';
import { LIMITS } from './limits.ts';
import type { RawTable } from './table.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const read = (name: string, encoding?: string) =>
  readSpreadsheet(name, new Uint8Array(readFileSync(path.join(FIXTURES, name))), () => {}, LIMITS, encoding);
const names = (table: RawTable) => table.rows.slice(1).map((r) => `${r.cells[1]} ${r.cells[2]}`);

describe('a file saved in a Windows code page', () => {
  it('reads Polish and Czech names saved as Windows-1250 in Windows-1250, not as Windows-1252 ("£ukasz")', () => {
    const table = read('people-windows1250.csv');
    expect(names(table)).toEqual([
      'Łukasz Żółć',
      'Małgorzata Wiśniewska',
      'Jiří Dvořák',
      'Zdeněk Růžička',
      'Agnieszka Szczęsna',
      'Pavla Černá',
    ]);
    expect(table.source).toBe('Windows-1250 text, comma-separated');
  });

  it('reads Russian names saved as Windows-1251 in Windows-1251, not as Windows-1252 ("Èâàí")', () => {
    expect(names(read('people-windows1251.csv'))).toEqual([
      'Иван Петров',
      'Ольга Смирнова',
      'Дмитрий Кузнецов',
      'Наталья Соколова',
      'Сергей Иванов',
    ]);
  });

  it('asks the user to confirm, offering the best guess first and a sample of the names as each encoding reads them', () => {
    const question = read('people-windows1250.csv').encoding;
    expect(question?.read).toBe('windows-1250');
    expect(question?.candidates[0]).toEqual({
      encoding: 'windows-1250',
      name: 'Central European (Windows-1250)',
      sample: expect.arrayContaining(['Łukasz', 'Żółć']),
    });
    const western = question?.candidates.find((c) => c.encoding === 'windows-1252');
    expect(western?.sample).toContain('£ukasz');
    expect(question?.candidates.map((c) => c.encoding)).toEqual(
      expect.arrayContaining([
        'windows-1251',
        'iso-8859-2',
        'koi8-r',
        'macintosh',
        'shift_jis',
        'gb18030',
        'euc-kr',
      ]),
    );
  });

  it('reads the file in the encoding the user chose instead', () => {
    const table = read('people-windows1250.csv', 'windows-1252');
    expect(names(table)[0]).toBe('£ukasz ¯ó³æ');
    expect(table.encoding?.read).toBe('windows-1252');
    expect(table.source).toBe('Windows-1252 text, comma-separated');
  });

  it('refuses an encoding it does not know', () => {
    expect(() => read('people-windows1250.csv', 'x-made-up')).toThrow('does not know the encoding');
  });

  it('asks nothing about a file that is valid UTF-8', () => {
    expect(read('people-utf8.csv').encoding).toBeUndefined();
  });
});

describe('a UTF-8 file with one stray byte', () => {
  it('keeps every other row as UTF-8 and names the row holding it, rather than reading the whole file another way', () => {
    const table = read('people-utf8-stray.csv');
    expect(names(table).slice(0, 6)).toEqual([
      'Łukasz Żółć',
      'Małgorzata Wiśniewska',
      'Jiří Dvořák',
      'Zdeněk Růžička',
      'Agnieszka Szczęsna',
      'Pavla Černá',
    ]);
    expect(table.encoding).toMatchObject({ read: 'utf-8', damagedRows: [8] });
    expect(table.rows.find((r) => r.rowNumber === 8)?.cells[1]).toBe('Ren\ufffd');
  });

  it('offers UTF-8 first, with the stray byte shown, then the other encodings', () => {
    const candidates = read('people-utf8-stray.csv').encoding?.candidates ?? [];
    expect(candidates[0]).toEqual({
      encoding: 'utf-8',
      name: 'Unicode (UTF-8)',
      sample: expect.arrayContaining(['Łukasz', 'Ren\ufffd']),
    });
    expect(candidates.length).toBeGreaterThan(10);
  });

  it('reads the file as a whole in another encoding when the user chooses one, and back in UTF-8 with its rows named', () => {
    expect(read('people-utf8-stray.csv', 'windows-1252').rows.find((r) => r.rowNumber === 8)?.cells[1]).toBe(
      'René',
    );
    expect(read('people-utf8-stray.csv', 'utf-8').encoding).toMatchObject({
      read: 'utf-8',
      damagedRows: [8],
    });
  });

  it('takes a short file of plain text with one Latin-1 letter for what it is', () => {
    const table = readSpreadsheet(
      'p.csv',
      new Uint8Array([...strToU8('username,firstname\njm,Jos'), 0xe9, 0x0a]),
    );
    expect(table.rows[1]?.cells).toEqual(['jm', 'José']);
    expect(table.encoding?.read).toBe('windows-1252');
  });
});
