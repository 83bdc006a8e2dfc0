/** What the reader hands on: the rows of one sheet as the spreadsheet shows them, nothing interpreted yet. */
export interface RawRow {
  /** the spreadsheet's own row number (1 = the first line or row of the file) */
  rowNumber: number;
  cells: string[];
  /** the columns whose cell a workbook stores as a whole number shown without leading zeros (absent: none) */
  numbers?: number[];
}

export interface RawTable {
  /** non-blank rows, in order */
  rows: RawRow[];
  /** what was read and how ("UTF-8, semicolon-separated"; "sheet People, 1 of 3") */
  source: string;
  notes: string[];
}

export interface ReadProgress {
  rows: number;
}

/** Called while reading (Cancel terminates the worker, so reading needs no way to stop itself). */
export type ProgressHook = (progress: ReadProgress) => void;
