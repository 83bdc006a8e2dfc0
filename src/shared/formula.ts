/**
 * The one rule for formula-like cells, shared by every import (refused) and
 * every export (neutralised). A spreadsheet program runs a cell that starts
 * with = + - @ (or tab, CR, LF before one of them, which some readers strip).
 * Before looking at the first character the text is NFKC-normalised (so the
 * full-width ＝ ＋ － ＠ count) and every leading character a reader may drop
 * or draw as nothing is skipped: the blanks are Unicode categories, not a list.
 */

/**
 * Leading characters a reader may drop or show as blank before a formula:
 * every format character (Cf: zero-width, bidi marks and isolates, U+061C),
 * space separator (Zs), line and paragraph separator (Zl, Zp), control (Cc: C0,
 * DEL, C1 such as U+0085), every default-ignorable code point (U+034F and the
 * Hangul fillers U+115F, U+1160, U+3164, U+FFA0, variation selectors), and the
 * blank Braille pattern U+2800, a symbol that looks like a space.
 */
const LEADING_BLANKS = /^[\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Cc}\p{Default_Ignorable_Code_Point}\u2800]+/u;
const FORMULA_START = /^[=+\-@\t\r\n]/;

/** True when a spreadsheet could take this text for a formula. */
export function looksLikeFormula(text: string): boolean {
  if (text === '') return false;
  // the common case, fast: text that starts with an ASCII letter or digit is never a formula
  const first = text.charCodeAt(0);
  if ((first >= 48 && first <= 57) || (first >= 65 && first <= 90) || (first >= 97 && first <= 122))
    return false;
  if (FORMULA_START.test(text)) return true;
  const normalised = text.normalize('NFKC');
  if (FORMULA_START.test(normalised)) return true;
  const trimmed = normalised.replace(LEADING_BLANKS, '');
  return trimmed !== normalised && FORMULA_START.test(trimmed);
}

/** Text of an exported cell: formula-like text gets a leading single quote, so a spreadsheet shows it as text. */
export function neutralizeExportCell(value: unknown): string {
  const text =
    value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  return looksLikeFormula(text) ? `'${text}` : text;
}
