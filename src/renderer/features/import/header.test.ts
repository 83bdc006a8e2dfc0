/** Finding the header row and the columns. */
import { describe, expect, it } from 'vitest';
import { findHeaderRow, readSummary, sheetOf } from './header.ts';
import { guessMapping, ignoredColumns } from './mapping.ts';
import type { RawRow } from './read/table.ts';

const rows = (...cells: Array<[number, string[]]>): RawRow[] =>
  cells.map(([rowNumber, c]) => ({ rowNumber, cells: c }));

describe('the header row', () => {
  it('skips a title row and blank rows above the header', () => {
    const table = rows(
      [1, ['Staff list, November']],
      [4, ['Employee No.', 'Forename', 'Surname']],
      [5, ['00123', 'José', 'Müller']],
    );
    expect(findHeaderRow(table)).toBe(1);
    const sheet = sheetOf(table, 1);
    expect(sheet).toMatchObject({ headerRowNumber: 4, rows: [{ rowNumber: 5 }] });
    expect(sheet.warnings[0]).toContain('Rows 1–3 above the header row are not imported');
  });

  it('takes the first row of a one-column file', () => {
    expect(findHeaderRow(rows([1, ['username']], [2, ['ann']]))).toBe(0);
  });

  it('reports duplicate column names and cells beyond the header', () => {
    const sheet = sheetOf(
      rows([1, ['username', 'email', 'Email']], [2, ['ann', 'a@x.io', 'b@x.io', 'extra']], [3, ['bo']]),
      0,
    );
    expect(sheet.warnings).toEqual([
      'Columns B and C are both named "Email": check which one each field uses below.',
      'Row 2 has cells beyond the last named column (C): they are not imported. Name that column in the header row to import it.',
    ]);
  });

  it('says when there are no rows below the header', () => {
    expect(sheetOf(rows([1, ['username']]), 0).warnings).toContain(
      'The file has a header row but no rows of people below it.',
    );
  });
});

describe('column names', () => {
  it('recognises the spellings HR systems use', () => {
    expect(guessMapping(['Employee No.', 'Forename', 'Surname', 'Work Email', 'User ID', 'STATUS'])).toEqual({
      employeeid: 0,
      firstname: 1,
      lastname: 2,
      email: 3,
      username: 4,
      status: 5,
    });
    expect(guessMapping(['Employee #', 'e-mail', 'Given Name', 'Family name'])).toEqual({
      employeeid: 0,
      email: 1,
      firstname: 2,
      lastname: 3,
    });
  });

  it('recognises German, French and Spanish headers', () => {
    const all = { employeeid: 0, username: 1, firstname: 2, lastname: 3, email: 4, status: 5 };
    expect(
      guessMapping(['Personalnummer', 'Benutzername', 'Vorname', 'Nachname', 'E-Mail', 'Status']),
    ).toEqual(all);
    expect(guessMapping(['Matricule', 'Identifiant', 'Prénom', 'Nom', 'Courriel', 'Statut'])).toEqual(all);
    expect(
      guessMapping([
        'Número de empleado',
        'Usuario',
        'Nombre',
        'Apellido(s)',
        'Correo electrónico',
        'Estado',
      ]),
    ).toEqual(all);
  });

  it('recognises them without their accents, as some HR exports write them', () => {
    expect(guessMapping(['Numero de empleado', 'Prenom', 'Adresse e-mail'])).toEqual({
      employeeid: 0,
      firstname: 1,
      email: 2,
    });
  });

  it('finds a German header row below a title', () => {
    expect(
      findHeaderRow(
        rows(
          [1, ['Mitarbeiterliste']],
          [2, ['Personalnummer', 'Vorname', 'Nachname']],
          [3, ['0042', 'Jürgen', 'Groß']],
        ),
      ),
    ).toBe(1);
  });

  it('lists the named columns no field takes', () => {
    const headers = ['username', 'Department', '', 'Start date'];
    expect(ignoredColumns(headers, guessMapping(headers))).toEqual([1, 3]);
  });
});

describe('what was read', () => {
  it('counts the rows of people, not the header row nor a title above it', () => {
    const hr = rows(
      [1, ['Username', 'Employee ID']],
      [2, ['barbara.adams', '170082']],
      [3, ['george.adams', '171223']],
      [4, ['kenneth.adams', '170850']],
      [5, ['nina.new', '171999']],
    );
    expect(readSummary('sheet "hr"', sheetOf(hr, 0))).toBe(
      'Read as sheet "hr": 4 rows of people below the header (row 1).',
    );
    const titled = rows([1, ['Staff list']], [3, ['Username']], [4, ['ann']]);
    expect(readSummary('sheet "hr"', sheetOf(titled, 1))).toBe(
      'Read as sheet "hr": 1 row of people below the header (row 3).',
    );
  });

  it('says so when only a header was read', () => {
    expect(readSummary('the CSV file', sheetOf(rows([1, ['Username']]), 0))).toBe(
      'Read as the CSV file: 0 rows of people below the header (row 1).',
    );
  });
});
