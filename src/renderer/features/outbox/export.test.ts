import { describe, expect, it } from 'vitest';
import { readSpreadsheet } from '../import/read/index.ts';
import { toCsv, toXlsx } from './export.ts';

describe('exports neutralise formula injection', () => {
  it('neutralises every CSV cell, headers included', () => {
    const csv = toCsv({ headers: ['=h'], rows: [['=cmd|calc'], ['ok']] });
    expect(csv).toBe(`"'=h"\r\n"'=cmd|calc"\r\n"ok"`);
  });

  it('neutralises XLSX cells too, and writes them as text', async () => {
    const blob = await toXlsx({ headers: ['name'], rows: [['=HYPERLINK("http://x")']] }, 'Outbox');
    const table = readSpreadsheet('outbox.xlsx', new Uint8Array(await blob.arrayBuffer()));
    expect(table.rows[1]?.cells[0]).toBe(`'=HYPERLINK("http://x")`);
  });
});
