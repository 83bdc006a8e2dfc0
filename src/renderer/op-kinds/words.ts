/** The pieces of an op's words that several kinds share: days, spans, changes. */
import { toIsoDate } from '../../shared/dates.ts';
import { formatDate } from '../app/format.ts';
import { fieldInSentence } from '../app/words.ts';

/** Fields edited with a date picker. */
export const DATE_FIELDS: ReadonlySet<string> = new Set(['startdate', 'expirationdate', 'duedate']);

export function day(value: string | undefined): string {
  if (!value) return '';
  const iso = toIsoDate(value);
  return iso ? formatDate(iso) : value;
}

/** ", Nov 2, 2026 – Nov 2, 2027", ", from …", ", until …", or nothing. */
export function span(start: string | undefined, end: string | undefined): string {
  if (!start && !end) return '';
  if (!end) return `, from ${day(start)}`;
  if (!start) return `, until ${day(end)}`;
  return `, ${day(start)} – ${day(end)}`;
}

function valueInWords(field: string, value: string | undefined): string {
  if (DATE_FIELDS.has(field)) return day(value);
  return field === 'password' ? '(hidden)' : `"${value}"`;
}

/** 'status "Inactive", first name "Ann"': the fields an update changes, with their values. */
export function changesInWords(changes: Record<string, string | undefined>): string {
  return Object.entries(changes)
    .filter(([, v]) => v !== undefined)
    .map(([field, value]) => `${fieldInSentence(field)} ${valueInWords(field, value)}`)
    .join(', ');
}

/** "first name, last name": the fields an update changes, without their values. */
export function fieldsInWords(changes: Record<string, string | undefined>): string {
  return Object.keys(changes)
    .filter((field) => changes[field] !== undefined)
    .map((field) => fieldInSentence(field))
    .join(', ');
}
