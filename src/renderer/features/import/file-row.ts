/**
 * A row of the file as the import reads it, and the person's fields it changes.
 * Types only: the import's modules (the queue's rules, HR's files, the sites not
 * kept) read them without importing the matching (match.ts), which imports them.
 */
import type { ImportField } from './mapping.ts';

/** Which of the row's values finds the person. */
export type MatchKey = 'employeeid' | 'username' | 'email';

export type RowValues = Partial<Record<ImportField, string>>;
/** `derived`: the username made for the row by the profile's rule (hr-files.ts), used when the row creates someone */
export type ImportRow = { rowNumber: number; values: RowValues; derived?: string };
export type UserChanges = Partial<
  Record<'username' | 'firstname' | 'lastname' | 'employeeid' | 'status', string>
>;
