/**
 * An exported workbook as LibreOffice reads it (headless, converted to flat
 * ODS): dates are dates, counts are numbers, ids and formula-like text are
 * text, every sheet's header row carries an autofilter. The frozen header is
 * a view setting, which a headless LibreOffice does not keep: it is checked in
 * the sheet's XML, where Excel and LibreOffice read it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { writeXlsx, writeXlsxSheets } from '../../shared/spreadsheet-export.ts';
import type { AuditEntry, OutboxOp } from '../../shared/outbox.ts';
import { auditTable, outboxTable } from '../features/outbox/export.ts';

const hasLibreOffice = spawnSync('soffice', ['--version'], { stdio: 'ignore' }).status === 0;
const skip = !hasLibreOffice && !process.env['CI'];
const dir = mkdtempSync(path.join(os.tmpdir(), 'export-fods-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const workbook = writeXlsxSheets([
  {
    name: 'Findings',
    rows: [
      ['User ID', 'Person', 'Employee ID', 'Expires', 'Queued at', 'Findings'],
      [12, '=HYPERLINK("http://x")', '000123', '2026-03-01', '2026-11-01T10:00:00.000Z', 3],
      [7, 'Ray, Bo', '', '', '2026-11-02T10:00:00.000Z', 0],
    ],
  },
  {
    name: 'Summary',
    rows: [
      ['What', 'People'],
      ['In scope', 140],
    ],
  },
]);

const unescapeXml = (text: string) =>
  text
    .replace(/&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Each cell of the first data row of a sheet in the flat ODS: its value type and its text. */
function cellsOf(fods: string, sheet: string, row: number): { type: string; text: string }[] {
  const table = fods.slice(fods.indexOf(`<table:table table:name="${sheet}"`));
  const rows = table.slice(0, table.indexOf('</table:table>')).split('<table:table-row').slice(1);
  const cells = rows[row]!.split('<table:table-cell')
    .slice(1)
    .filter((c) => c.includes('value-type'));
  return cells.map((c) => ({
    type: /office:value-type="([a-z]+)"/.exec(c)![1]!,
    text: unescapeXml(/<text:p>([^<]*)/.exec(c)?.[1] ?? ''),
  }));
}

describe.skipIf(skip)('an exported workbook opened by LibreOffice', () => {
  const file = path.join(dir, 'export.xlsx');
  writeFileSync(file, workbook);
  const profile = mkdtempSync(path.join(os.tmpdir(), 'lo-profile-'));
  execFileSync(
    'soffice',
    [
      `-env:UserInstallation=file://${profile}`,
      '--headless',
      '--infilter=Calc MS Excel 2007 XML',
      '--convert-to',
      'fods',
      '--outdir',
      dir,
      file,
    ],
    { stdio: 'pipe', timeout: 120_000 },
  );
  rmSync(profile, { recursive: true, force: true });
  const fods = readFileSync(path.join(dir, 'export.fods'), 'utf8');

  it('reads dates as dates, counts as numbers, ids and formula-like text as text', () => {
    const cells = cellsOf(fods, 'Findings', 1);
    expect(cells.map((c) => c.type)).toEqual(['string', 'string', 'string', 'date', 'date', 'float']);
    expect(cells[0]!.text).toBe('12');
    expect(cells[1]!.text).toBe('\'=HYPERLINK("http://x")');
    expect(cells[2]!.text).toBe('000123');
    expect(fods).toContain('office:date-value="2026-03-01"');
    expect(cellsOf(fods, 'Summary', 1).map((c) => c.type)).toEqual(['string', 'float']);
  });

  it('sets an autofilter on every sheet, over its header and rows', () => {
    expect(fods).toMatch(
      /table:target-range-address="Findings\.A1:Findings\.F3" table:display-filter-buttons="true"/,
    );
    expect(fods).toMatch(
      /table:target-range-address="Summary\.A1:Summary\.B2" table:display-filter-buttons="true"/,
    );
  });
});

const op = {
  id: 'op-1',
  batchId: 'b-1',
  createdAt: '2026-11-01T10:00:00.000Z',
  op: { kind: 'user.update', userid: 1, fields: { status: 'Inactive' } },
  targetKey: 'user:1',
  summary: 'Set status',
  status: 'queued',
  attempts: 2,
  lastError: null,
  base: {},
  response: null,
} as unknown as OutboxOp;
const entry = {
  opId: 'op-1',
  batchId: 'b-1',
  at: '2026-11-01T10:05:00.000Z',
  actor: 'me',
  kind: 'user.update',
  targetKey: 'user:1',
  outcome: 'done',
  before: null,
  after: null,
  response: null,
  message: 'ok',
} as AuditEntry;

describe.skipIf(skip)('the outbox and the audit log exported, opened by LibreOffice', () => {
  const files = { outbox: outboxTable([op]), audit: auditTable([entry]) };
  for (const [name, table] of Object.entries(files))
    writeFileSync(path.join(dir, `${name}.xlsx`), writeXlsx([table.headers, ...table.rows], name));
  const profile = mkdtempSync(path.join(os.tmpdir(), 'lo-profile-'));
  execFileSync(
    'soffice',
    [
      `-env:UserInstallation=file://${profile}`,
      '--headless',
      '--infilter=Calc MS Excel 2007 XML',
      '--convert-to',
      'fods',
      '--outdir',
      dir,
      ...Object.keys(files).map((n) => path.join(dir, `${n}.xlsx`)),
    ],
    { stdio: 'pipe', timeout: 120_000 },
  );
  rmSync(profile, { recursive: true, force: true });

  it('writes when an operation was queued as a date and time, its attempts as a number, its ids as text', () => {
    const cells = cellsOf(readFileSync(path.join(dir, 'outbox.fods'), 'utf8'), 'outbox', 1);
    expect(cells.slice(0, 4).map((c) => c.type)).toEqual(['string', 'string', 'date', 'string']);
    expect(cells[7]).toEqual({ type: 'float', text: '2' });
  });

  it('writes when an audit entry happened as a date and time', () => {
    expect(cellsOf(readFileSync(path.join(dir, 'audit.fods'), 'utf8'), 'audit', 1)[0]!.type).toBe('date');
  });
});

describe('an exported workbook', () => {
  const parts = unzipSync(workbook);
  const sheet = strFromU8(parts['xl/worksheets/sheet1.xml']!);

  it('freezes its header row', () => {
    expect(sheet).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
  });

  it('sizes each column to its longest value', () => {
    const widths = [...sheet.matchAll(/<col min="\d+" max="\d+" width="(\d+)"/g)].map((m) => Number(m[1]));
    expect(widths).toHaveLength(6);
    expect(widths[1]).toBeGreaterThan(widths[0]!); // the formula-like name is longer than "User ID"
    expect(widths[3]).toBeGreaterThanOrEqual(12); // a date never shows as ####
  });
});
