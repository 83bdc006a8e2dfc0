/** Names spoiled before the import: refused with what to do. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSpreadsheet } from './read/index.ts';
import { findHeaderRow, sheetOf } from './header.ts';
import { guessMapping } from './mapping.ts';
import { emailsByUser, planImport, type RowPlan } from './match.ts';
import { rowsOf } from './rows.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** The plans of a fixture file, against a site with nobody on it, by row number. */
function plansOf(name: string, key: 'email' | 'username'): Map<number, RowPlan> {
  const table = readSpreadsheet(name, new Uint8Array(readFileSync(path.join(FIXTURES, name))), () => {});
  const sheet = sheetOf(table.rows, findHeaderRow(table.rows));
  const plans = planImport(rowsOf(sheet, guessMapping(sheet.headers)), [], 101, emailsByUser([]), {
    key,
    mode: 'upsert',
  });
  return new Map(plans.map((p) => [p.rowNumber, p]));
}
const errorsOf = (plan: RowPlan | undefined) =>
  plan?.action === 'invalid' ? plan.errors.join(' ') : `planned as ${plan?.action}`;

describe('letters a spreadsheet program could not save', () => {
  it('refuses "?ukasz ?ó??" of a file LibreOffice saved as Windows-1252, saying the program could not save these characters', () => {
    const plans = plansOf('people-windows1252.csv', 'email');
    expect(errorsOf(plans.get(7))).toContain(
      'First name "?ukasz" has a ? where a letter belongs: your spreadsheet program could not save these characters',
    );
    expect(errorsOf(plans.get(7))).toContain('Last name "?ó??"');
    // the names it could save are not flagged
    expect(errorsOf(plans.get(4))).not.toContain('where a letter belongs');
  });

  it.each([['????'], ['Zo?'], ['Ji?í']])('refuses the name "%s"', (name) => {
    const plan = planImport(
      [{ rowNumber: 2, values: { username: 'x.y', firstname: name, lastname: 'Y' } }],
      [],
      101,
      emailsByUser([]),
      { key: 'username', mode: 'upsert' },
    )[0];
    expect(errorsOf(plan)).toContain('where a letter belongs');
  });

  it('lets a question mark standing apart pass', () => {
    const plan = planImport(
      [{ rowNumber: 2, values: { username: 'x.y', firstname: 'X', lastname: 'Y ?' } }],
      [],
      101,
      emailsByUser([]),
      { key: 'username', mode: 'upsert' },
    )[0];
    expect(plan?.action).toBe('create');
  });

  it('refuses the row of a UTF-8 file whose bytes were not UTF-8, and creates the others', () => {
    const plans = plansOf('people-utf8-stray.csv', 'username');
    expect(errorsOf(plans.get(8))).toContain(
      'First name "Ren�" holds characters that were saved in another encoding',
    );
    expect(plans.get(2)?.action).toBe('create');
  });
});
