/**
 * What an import reads at most. Every limit is checked while reading, so a file
 * past one is refused early, with bounded memory.
 */
export const LIMITS = {
  /** size of the file as dropped */
  fileBytes: 64 * 1024 * 1024,
  /** rows of the sheet, blank ones included, header and title rows included */
  rows: 200_000,
  /** columns of any row, up to its last filled cell (a row's empty cells at the end do not count) */
  columns: 500,
  /**
   * cells or fields of any row, empty ones included: Excel's own maximum
   * (column XFD). The memory guard: a sheet's row past it is refused while it is
   * read, before it is built; a CSV row as PapaParse hands it over (its size is
   * bounded by the file's).
   */
  fields: 16_384,
  /** cells kept in memory (rows x columns actually filled) */
  cells: 8_000_000,
  /** one part of a workbook, once unzipped (a sheet's XML, the shared strings) */
  partBytes: 512 * 1024 * 1024,
  /** all the parts read from one workbook, once unzipped */
  totalBytes: 768 * 1024 * 1024,
  /** unzipped size / zipped size past which a part is a zip bomb (real sheets: 5-40) */
  ratio: 300,
};

export type Limits = typeof LIMITS;

/** A refusal while reading: its message is shown to the user as is. */
export class ReadError extends Error {}
