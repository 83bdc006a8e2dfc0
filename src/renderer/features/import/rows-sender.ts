/**
 * The worker's rows handed to the window as they are read, in slices of 1,000 (so the window never waits on one big
 * message, and starts the preview on the first while the rest is read). A file refused part-way is refused whole: the
 * window drops what it got.
 *
 * Each slice is packed for the trip: every cell in one string, cut back by the cells' lengths. A slice of 1,000 rows
 * as objects is some 11,000 values for the structured clone to build again on the window's thread (its largest cost
 * while a file was read); packed, it is one string and three typed lists. Lengths, not separators: a cell may hold
 * any character.
 */
import type { RawRow } from './read/table.ts';

const SLICE = 1000;

/**
 * `send(read, false)` sends each full slice of the rows read so far not sent yet; `send(read, true)`, the last one too.
 * `read` is the reader's own growing list.
 */
export function rowsSender(
  post: (rows: PackedRows) => void,
): (read: readonly RawRow[], all: boolean) => void {
  let sent = 0;
  return (read, all) => {
    for (; read.length - sent >= SLICE || (all && sent < read.length); sent += SLICE)
      post(packRows(read.slice(sent, sent + SLICE)));
  };
}

export interface PackedRows {
  /** every cell of the slice, one after the other */
  text: string;
  /** each cell's length in `text`, row after row */
  lengths: Uint32Array;
  /** each row's number in the spreadsheet */
  rowNumbers: Uint32Array;
  /** how many cells each row has */
  widths: Uint32Array;
  /** the rows that say which of their cells a workbook stored as whole numbers: [place in the slice, columns] */
  numbers: [number, number[]][];
}

export function packRows(rows: readonly RawRow[]): PackedRows {
  const cells = rows.reduce((n, row) => n + row.cells.length, 0);
  const lengths = new Uint32Array(cells);
  const rowNumbers = new Uint32Array(rows.length);
  const widths = new Uint32Array(rows.length);
  const numbers: [number, number[]][] = [];
  const parts: string[] = [];
  let at = 0;
  rows.forEach((row, i) => {
    rowNumbers[i] = row.rowNumber;
    widths[i] = row.cells.length;
    for (const cell of row.cells) {
      lengths[at] = cell.length;
      at += 1;
      parts.push(cell);
    }
    if (row.numbers) numbers.push([i, row.numbers]);
  });
  return { text: parts.join(''), lengths, rowNumbers, widths, numbers };
}

export function unpackRows(packed: PackedRows): RawRow[] {
  const { text, lengths, rowNumbers, widths } = packed;
  const rows: RawRow[] = new Array<RawRow>(rowNumbers.length);
  let cell = 0;
  let from = 0;
  for (let i = 0; i < rowNumbers.length; i += 1) {
    const cells = new Array<string>(widths[i]!);
    for (let j = 0; j < cells.length; j += 1) {
      const to = from + lengths[cell]!;
      cells[j] = text.slice(from, to);
      from = to;
      cell += 1;
    }
    rows[i] = { rowNumber: rowNumbers[i]!, cells };
  }
  for (const [i, columns] of packed.numbers) rows[i] = { ...rows[i]!, numbers: columns };
  return rows;
}

/** The typed lists' memory, moved to the window rather than copied. */
export const packedTransfer = (packed: PackedRows): Transferable[] => [
  packed.lengths.buffer,
  packed.rowNumbers.buffer,
  packed.widths.buffer,
];
