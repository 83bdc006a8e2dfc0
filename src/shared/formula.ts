/**
 * The one rule for formula-like cells, shared by every import (refused) and
 * every export (neutralised). A spreadsheet program runs a cell that starts
 * with = + - @ (or tab, CR, LF before one of them, which some readers strip).
 * Before looking at the first character the text is NFKC-normalised (so the
 * full-width ＝ ＋ － ＠ count) and leading whitespace is skipped, including
 * NBSP and zero-width characters that a reader may drop.
 */

/** Leading characters a reader may drop or treat as blank before a formula. */
const LEADING_BLANKS = /^[\s\u00a0\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]+/u;
const FORMULA_START = /^[=+\-@\t\r\n]/;

/** True when a spreadsheet could take this text for a formula. */
export function looksLikeFormula(text: string): boolean {
  if (text === '') return false;
  // the common case, fast: text that starts with an ASCII letter or digit is never a formula
  const first = text.charCodeAt(0);
  if ((first >= 48 && first <= 57) || (first >= 65 && first <= 90) || (first >= 97 && first <= 122)) return false;
  if (FORMULA_START.test(text)) return true;
  const normalised = text.normalize('NFKC');
  if (FORMULA_START.test(normalised)) return true;
  const trimmed = normalised.replace(LEADING_BLANKS, '');
  return trimmed !== normalised && FORMULA_START.test(trimmed);
}

/** Text of an exported cell: formula-like text gets a leading single quote, so a spreadsheet shows it as text. */
export function neutralizeExportCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return looksLikeFormula(text) ? `'${text}` : text;
}
