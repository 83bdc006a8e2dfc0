/**
 * A workbook as LibreOffice reads it: converted headless to flat ODS (.fods),
 * each sheet's cells with the value type LibreOffice gave them, and its
 * autofilter ranges. (A headless LibreOffice keeps no view settings, so a
 * frozen header is read from the workbook's own sheet XML: frozenHeader.)
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { strFromU8, unzipSync } from 'fflate';

const run = promisify(execFile);

export interface FodsCell {
  /** office:value-type: string, float, date, ... ('' for an empty cell) */
  type: string;
  text: string;
}

export async function toFods(xlsxFile: string): Promise<string> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'lo-profile-'));
  const out = path.dirname(xlsxFile);
  try {
    await run(
      'soffice',
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        '--infilter=Calc MS Excel 2007 XML',
        '--convert-to',
        'fods',
        '--outdir',
        out,
        xlsxFile,
      ],
      { timeout: 120_000 },
    );
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
  return readFile(xlsxFile.replace(/\.xlsx$/, '.fods'), 'utf8');
}

const unescapeXml = (text: string) =>
  text
    .replace(/&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The rows of a sheet, each cell with its type (repeated empty cells expanded, at most 60 columns). */
export function fodsSheet(fods: string, sheet: string): FodsCell[][] {
  const start = fods.indexOf(`<table:table table:name="${sheet}"`);
  if (start < 0) throw new Error(`no sheet ${sheet}`);
  const table = fods.slice(start, fods.indexOf('</table:table>', start));
  return table
    .split('<table:table-row')
    .slice(1)
    .map((row) => {
      const cells: FodsCell[] = [];
      for (const cell of row.split(/<table:(?:covered-)?table-cell/).slice(1)) {
        const repeat = Math.min(60, Number(/table:number-columns-repeated="(\d+)"/.exec(cell)?.[1] ?? 1));
        const type = /office:value-type="([a-z]+)"/.exec(cell)?.[1] ?? '';
        const text = unescapeXml([...cell.matchAll(/<text:p>([^<]*)/g)].map((m) => m[1]).join('\n'));
        for (let i = 0; i < repeat && cells.length < 60; i += 1) cells.push({ type, text });
      }
      return cells;
    });
}

/** Whether LibreOffice put an autofilter (filter buttons) on the sheet's range starting at A1. */
export function hasAutofilter(fods: string, sheet: string): boolean {
  const name = sheet.includes(' ') ? `&apos;${sheet}&apos;` : sheet;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const range = `table:target-range-address="${escaped}\\.A1:[^"]+"`;
  return new RegExp(`${range} table:display-filter-buttons="true"`).test(fods);
}

/** Whether each sheet of the workbook freezes its first row (as Excel and LibreOffice read it). */
export async function frozenHeaders(xlsxFile: string): Promise<boolean[]> {
  const parts = unzipSync(new Uint8Array(await readFile(xlsxFile)));
  return Object.keys(parts)
    .filter((name) => /^xl\/worksheets\/sheet\d+\.xml$/.test(name))
    .sort()
    .map((name) => /<pane [^>]*ySplit="1"[^>]*state="frozen"/.test(strFromU8(parts[name]!)));
}
