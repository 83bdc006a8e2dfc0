/** What the reader hands on: the rows of one sheet as the spreadsheet shows them, nothing interpreted yet. */
export interface RawRow {
  /** the spreadsheet's own row number (1 = the first line or row of the file) */
  rowNumber: number;
  cells: string[];
  /** the columns whose cell a workbook stores as a whole number shown without leading zeros (absent: none) */
  numbers?: number[];
}

/** A text file that is not (wholly) UTF-8: the user confirms how it reads before anything is queued. */
export interface EncodingQuestion {
  /** the `TextDecoder` label the rows were read in */
  read: string;
  /** every encoding that could be meant, best guess first, with a sample of the words each makes */
  candidates: { encoding: string; name: string; sample: string[] }[];
  /** a UTF-8 file with a few bytes that are not: the rows holding them (shown as �) */
  damagedRows?: number[];
}

export interface RawTable {
  /** non-blank rows, in order */
  rows: RawRow[];
  /** what was read and how ("UTF-8, semicolon-separated"; "sheet People, 1 of 3") */
  source: string;
  notes: string[];
  /** set for a text file that is not valid UTF-8 */
  encoding?: EncodingQuestion;
}

export interface ReadProgress {
  rows: number;
  /** the rows read so far, in order (the table's own list: the worker sends them on while the rest is read) */
  read: readonly RawRow[];
}

/** Called while reading (Cancel terminates the worker, so reading needs no way to stop itself). */
export type ProgressHook = (progress: ReadProgress) => void;
