/**
 * Names a file spoiled before Fieldbook read it: a spreadsheet program saving
 * in an encoding that lacks a letter writes `?` in its place ("?ukasz" for
 * "Łukasz", "????" for "Иван"); bytes that are not UTF-8 in a UTF-8 file read
 * as U+FFFD. Either way the name is not the person's: the row is refused. Pure.
 */
import { FIELD_LABELS, type ImportField } from './mapping.ts';

/** the fields where a letter belongs; an e-mail or id holding `?` is refused by their own checks */
const NAME_FIELDS = ['username', 'firstname', 'lastname'] as const satisfies readonly ImportField[];

/** A `?` touching a letter, or a word made only of them. */
const QUESTION_FOR_A_LETTER = /\p{L}\?|\?\p{L}|(?:^|\s)\?{2,}(?:\s|$)/u;

export function garbledErrors(values: Partial<Record<ImportField, string>>): string[] {
  const errors: string[] = [];
  for (const field of NAME_FIELDS) {
    const value = values[field];
    if (!value) continue;
    const label = FIELD_LABELS[field];
    const shown = value.slice(0, 40);
    if (value.includes('\ufffd'))
      errors.push(
        `${label} "${shown}" holds characters that were saved in another encoding (shown as �): choose the file's encoding above, or skip the row.`,
      );
    else if (QUESTION_FOR_A_LETTER.test(value))
      errors.push(
        `${label} "${shown}" has a ? where a letter belongs: your spreadsheet program could not save these characters in the file's encoding. Save the file again as "CSV UTF-8" (Excel) or with the character set "Unicode (UTF-8)" (LibreOffice), then import that file.`,
      );
  }
  return errors;
}
