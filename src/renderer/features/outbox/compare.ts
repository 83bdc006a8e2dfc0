import { toIsoDate } from '../../../shared/dates.ts';
import type { OpSpec } from '../../../shared/ipc.ts';
import { formatDate } from '../../app/format.ts';
import { rendererKindOf } from '../../op-kinds.ts';

/** Two values as text, trimmed and without regard to case: what a person would call the same answer. */
export function sameTextIgnoringCase(a: unknown, b: unknown): boolean {
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim().toLowerCase());
  return text(a) === text(b);
}

export function displayValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * A field's value as a person reads it: dates as dates, nothing as "—", and, given the op whose record it is, as its
 * kind words it (a person's "Offline (never signed in)").
 */
export function fieldValue(field: string, value: unknown, spec?: OpSpec): string {
  const worded = spec ? rendererKindOf(spec).valueInWords?.(field, value) : undefined;
  if (worded !== undefined) return worded;
  if (typeof value === 'string' && field.includes('date')) {
    const iso = toIsoDate(value);
    if (iso) return formatDate(iso);
  }
  return displayValue(value);
}
