/** Employee ids stripped of their leading zeros: found, and padded back only when asked. */
import { describe, expect, it } from 'vitest';
import type { Sheet } from './header.ts';
import { lostLeadingZeros, lostLeadingZerosInSlices, padId } from './lost-zeros.ts';
import { rowsOf } from './rows.ts';

/**
 * A sheet whose column 0 holds these ids, row 2 onwards; `numbers`: the rows whose cell the workbook stores as a
 * number.
 */
function sheetOf(ids: readonly string[], numbers: readonly number[] = []): Sheet {
  return {
    headers: ['Employee ID', 'First name'],
    headerRowNumber: 1,
    rows: ids.map((id, i) => ({
      rowNumber: i + 2,
      cells: [id, `P${i}`],
      ...(numbers.includes(i + 2) ? { numbers: [0] } : {}),
    })),
    warnings: [],
  };
}

describe('ids that lost their leading zeros', () => {
  it('flags the 4- and 5-digit ids of a column where 6 digits are usual, with the usual width', () => {
    const found = lostLeadingZeros(
      sheetOf(['123456', '234567', '7123', '345678', '456789', '12345', '567890']),
      0,
      [],
    );
    expect(found).toEqual({ width: 6, rows: [4, 7], numeric: false });
  });

  it("uses the site's ids to know the usual length, when the file alone is too short to tell", () => {
    expect(
      lostLeadingZeros(sheetOf(['7123']), 0, ['004711', '012345', '123456', '000042', '654321']),
    ).toEqual({ width: 6, rows: [2], numeric: false });
  });

  it("flags new people's ids shorter than the site's usual width, even when the file's ids outnumber the site's", () => {
    // LibreOffice turned 0171999 … into 171999 …: all of them, for people not on the site yet
    const site = ['0170082', '0171223', '0170850', '0172001', '0172002'];
    const file = ['171999', '172999', '173999', '174999', '175999', '176999', '177999', '178999'];
    const numbers = file.map((_, i) => i + 2);
    expect(lostLeadingZeros(sheetOf(file, numbers), 0, site)).toEqual({
      width: 7,
      rows: numbers,
      numeric: true,
    });
    expect(lostLeadingZeros(sheetOf(file), 0, site)).toEqual({ width: 7, rows: numbers, numeric: false });
  });

  it("says nothing when the file's ids are as long as the site's", () => {
    expect(
      lostLeadingZeros(sheetOf(['171999', '172999'], [2, 3]), 0, [
        '170082',
        '171223',
        '170850',
        '172001',
        '172002',
      ]),
    ).toBeNull();
  });

  it('flags a whole number stored as a number by the workbook, even when too few ids say what is usual', () => {
    expect(lostLeadingZeros(sheetOf(['007123', '7124'], [3]), 0, [])).toEqual({
      width: 6,
      rows: [3],
      numeric: true,
    });
  });

  it('says nothing when every id keeps its zeros', () => {
    expect(lostLeadingZeros(sheetOf(['000123', '004567', '012345', '123456', '000001']), 0, [])).toBeNull();
  });

  it('says nothing of ids of mixed lengths with no usual one, nor of ids that are not numbers', () => {
    expect(lostLeadingZeros(sheetOf(['12', '1234', '123456', '12345678', '1']), 0, [])).toBeNull();
    expect(lostLeadingZeros(sheetOf(['E1', 'E22', 'E333', 'E4444', 'E55555']), 0, [])).toBeNull();
  });

  it('says nothing when no column holds employee ids', () => {
    expect(lostLeadingZeros(sheetOf(['123456', '7123']), undefined, [])).toBeNull();
  });
});

describe('looking a slice of rows at a time', () => {
  const ids = Array.from({ length: 25 }, (_, i) => (i % 7 === 3 ? String(4000 + i) : String(100000 + i)));

  it('finds the same rows as looking at once', async () => {
    expect(await lostLeadingZerosInSlices(sheetOf(ids), 0, [], () => false, 4)).toEqual(
      lostLeadingZeros(sheetOf(ids), 0, []),
    );
  });

  it('stops when the file or the column changes meanwhile', async () => {
    expect(await lostLeadingZerosInSlices(sheetOf(ids), 0, [], () => true, 4)).toBeUndefined();
  });
});

describe('padding them back', () => {
  it('pads only ids made of digits', () => {
    expect([padId('7123', 6), padId('E7', 6), padId('123456', 6)]).toEqual(['007123', 'E7', '123456']);
  });

  it('gives the rows padded ids only when the user chose to pad', () => {
    const sheet = sheetOf(['123456', '7123']);
    expect(rowsOf(sheet, { employeeid: 0 }, 6).map((r) => r.values.employeeid)).toEqual(['123456', '007123']);
    expect(rowsOf(sheet, { employeeid: 0 }).map((r) => r.values.employeeid)).toEqual(['123456', '7123']);
  });
});
