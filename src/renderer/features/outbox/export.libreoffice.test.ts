/**
 * Exports opened by a real spreadsheet program: LibreOffice (headless) converts
 * the exported CSV and XLSX back to CSV, evaluating formulas. Every
 * formula-like cell must come back as text, never as a computed value; a
 * control cell written as a formula proves that LibreOffice does compute.
 * Both CSV writers are covered: the outbox's (Papa.unparse) and the shared one
 * (src/shared/spreadsheet-export.ts: the import results file, the view exports).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCsv } from '../../../shared/spreadsheet-export.ts';
import { toCsv, toXlsx } from './export.ts';

const hasLibreOffice = spawnSync('soffice', ['--version'], { stdio: 'ignore' }).status === 0;
// CI installs LibreOffice (.ci/run): there a missing soffice is a failure, not a skip
const skip = !hasLibreOffice && !process.env['CI'];
const dir = mkdtempSync(path.join(os.tmpdir(), 'export-lo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// issue 27: a trigger behind a bidi isolate, the Arabic letter mark, a Hangul filler, a blank Braille pattern, the
// combining grapheme joiner, NEL or a C0 control
const INVISIBLE = [
  '\u2066=6+1',
  '\u2069+6+2',
  '\u061c=6+3',
  '\u3164=6+4',
  '\u2800=6+5',
  '\u034f-6+6',
  '\u0085=6+7',
  '\u0001=6+8',
  '\u001f@SUM(6,9)',
];
// the shared rule (src/shared/formula.ts): = + - @, a leading tab, CR or LF, and = behind NBSP or a zero-width space or
// full width
const HOSTILE = [
  '=1+2',
  '+3+4',
  '-5+6',
  '@SUM(1,2)',
  '\uff1d7+8',
  '\u00a0=9+1',
  '=HYPERLINK("http://x","y")',
  '\t=2+3',
  '\r=3+4',
  '\n=4+5',
  '\u200b=5+6',
  '\u00a0\uff0b6+7',
  ...INVISIBLE,
];
const table = { headers: ['value'], rows: HOSTILE.map((v) => [v]) };
// each as text behind its quote; LibreOffice keeps a line break as LF (XML reads a CR as LF too)
const SHOWN = HOSTILE.map((v) => `'${v.replace(/\r/g, '\n')}`);

/** LibreOffice's reading of a file, as CSV text (formulas evaluated on CSV import). */
function libreOfficeCsv(file: string): string[][] {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'lo-profile-'));
  const out = path.join(dir, `out-${path.basename(file)}`);
  try {
    // CSV import options: comma, double quote, UTF-8, from line 1, ..., token 13 = evaluate formulas
    // the XLSX filter named too: what is read is always the workbook as Calc reads it, never a guess of its type
    const infilter = file.endsWith('.csv')
      ? ['--infilter=CSV:44,34,76,1,,0,false,true,false,false,false,-1,true']
      : ['--infilter=Calc MS Excel 2007 XML'];
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        ...infilter,
        '--convert-to',
        'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true',
        '--outdir',
        out,
        file,
      ],
      { stdio: 'pipe', timeout: 120_000 },
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  return parseCsv(readFileSync(path.join(out, `${path.basename(file, path.extname(file))}.csv`), 'utf8'));
}

/** RFC 4180 rows: a quoted cell may hold a line break (the hostile CR and LF values do). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') {
        cell += ch;
      } else if (text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else {
        quoted = false;
      }
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      rows.push([...row, cell]);
      row = [];
      cell = '';
    } else {
      cell += ch;
    }
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

describe.skipIf(skip)('exports opened by LibreOffice (skipped where soffice is missing, outside CI)', () => {
  it('a CSV export: every formula-like cell is shown as text, while a real formula would be computed', () => {
    const file = path.join(dir, 'outbox.csv');
    writeFileSync(file, `${toCsv(table)}\r\n"=40+2"\r\n`);
    const cells = libreOfficeCsv(file).map((r) => r[0]);
    expect(cells.at(-1)).toBe('42'); // the control, written without the exporter: LibreOffice computes it
    expect(cells.slice(1, -1)).toEqual(SHOWN);
  });

  it('a CSV of the shared writer (import results, view exports): every formula-like cell is shown as text', () => {
    const file = path.join(dir, 'shared.csv');
    writeFileSync(file, `${writeCsv([table.headers, ...table.rows])}"=40+2"\r\n`);
    const cells = libreOfficeCsv(file).map((r) => r[0]);
    expect(cells.at(-1)).toBe('42');
    expect(cells.slice(1, -1)).toEqual(SHOWN);
  });

  it('an XLSX export: every formula-like cell is a text cell', async () => {
    const file = path.join(dir, 'outbox.xlsx');
    writeFileSync(file, new Uint8Array(await (await toXlsx(table, 'Outbox')).arrayBuffer()));
    const cells = libreOfficeCsv(file).map((r) => r[0]);
    expect(cells.slice(1)).toEqual(SHOWN);
  });
});
