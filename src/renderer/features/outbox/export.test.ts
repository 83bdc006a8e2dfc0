import { describe, expect, it } from 'vitest';
import readXlsxFile from 'read-excel-file/universal';
import { neutralizeCell, toCsv, toXlsx } from './export.ts';

describe('exports neutralise formula injection', () => {
  it.each(['=1+2', '+1', '-1', '@SUM(A1)', '\tx', '\rx', '\nx'])('prefixes %j with a single quote', (value) => {
    expect(neutralizeCell(value)).toBe(`'${value}`);
  });

  it('leaves ordinary text alone', () => {
    expect(neutralizeCell('Ann Lee')).toBe('Ann Lee');
    expect(neutralizeCell(42)).toBe('42');
    expect(neutralizeCell(null)).toBe('');
  });

  it('neutralises every CSV cell, headers included', () => {
    const csv = toCsv({ headers: ['=h'], rows: [['=cmd|calc'], ['ok']] });
    expect(csv).toBe(`"'=h"\r\n"'=cmd|calc"\r\n"ok"`);
  });

  it('neutralises XLSX cells too, and writes them as text', async () => {
    const blob = await toXlsx({ headers: ['name'], rows: [['=HYPERLINK("http://x")']] }, 'Outbox');
    const [sheet] = await readXlsxFile(await blob.arrayBuffer());
    expect(sheet?.data[1]?.[0]).toBe(`'=HYPERLINK("http://x")`);
  });
});
