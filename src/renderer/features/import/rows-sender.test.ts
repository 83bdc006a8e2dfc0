/**
 * The worker hands the rows on while it reads the rest: the window starts the preview on the first ones. Each slice
 * is packed for the trip and unpacked by the window as it was read.
 */
import { describe, expect, it } from 'vitest';
import { readSpreadsheet } from './read/index.ts';
import type { RawRow } from './read/table.ts';
import { packRows, rowsSender, unpackRows } from './rows-sender.ts';

const csv = (rows: number) =>
  new TextEncoder().encode(
    ['Username,First name,Last name', ...Array.from({ length: rows }, (_, i) => `u${i},F${i},L${i}`)].join(
      '\n',
    ),
  );

describe('the rows of a file being read', () => {
  it('reach the window in slices before the file is read to its end', () => {
    const slices: RawRow[][] = [];
    const send = rowsSender((rows) => slices.push(unpackRows(rows)));
    const table = readSpreadsheet('hr.csv', csv(12_000), (p) => send(p.read, false));
    const whenDone = slices.length;
    send(table.rows, true);
    // the reader reports every 5,000 rows: two reports of 5,000, sent as ten slices of 1,000 before the end
    expect(whenDone).toBe(10);
    expect(slices.slice(0, whenDone).every((s) => s.length === 1000)).toBe(true);
  });

  it('are every row once, in order, the last slice sent when the reading ends', () => {
    const slices: RawRow[][] = [];
    const send = rowsSender((rows) => slices.push(unpackRows(rows)));
    const table = readSpreadsheet('hr.csv', csv(12_000), (p) => send(p.read, false));
    send(table.rows, true);
    expect(slices.flat()).toEqual(table.rows);
    // the header and 12,000 people: twelve full slices, then the one row left
    expect(slices.map((s) => s.length)).toEqual([...Array<number>(12).fill(1000), 1]);
  });
});

describe('a slice of rows packed for the trip to the window', () => {
  it('is unpacked as it was read: every character of every cell, empty cells, row numbers and whole numbers', () => {
    const rows: RawRow[] = [
      { rowNumber: 3, cells: ['Zoë', '', 'line one\nline two', 'a\u001fb\u001ec', '🦊 fox', ''] },
      { rowNumber: 7, cells: ['007', '42'], numbers: [1] },
      { rowNumber: 8, cells: [] },
      // a text cell may be longer than a workbook's 32,767 characters
      { rowNumber: 1_048_576, cells: ['x'.repeat(70_000), 'y'] },
    ];
    expect(unpackRows(packRows(rows))).toEqual(rows);
  });

  it('survives the structured clone a message is', () => {
    const rows: RawRow[] = [{ rowNumber: 2, cells: ['ann', 'Ann'], numbers: [0] }];
    expect(unpackRows(structuredClone(packRows(rows)))).toEqual(rows);
  });
});
