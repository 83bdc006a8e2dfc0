/**
 * When two values of one field are the same for the user: the replay's
 * conflict and "already in effect" checks and the undo preview's check use
 * this one rule. Pure.
 */
import { toIsoDate } from './dates.ts';

const CASE_INSENSITIVE = new Set(['status', 'coursestatus', 'username', 'email']);

/** Are two values of one field the same for the user? Dates compare by day, statuses and usernames ignore case. */
export function sameValue(field: string, a: unknown, b: unknown): boolean {
  const left = a === null || a === undefined ? '' : String(a).trim();
  const right = b === null || b === undefined ? '' : String(b).trim();
  if (left === right) return true;
  if (field.includes('date')) {
    const li = toIsoDate(left);
    const ri = toIsoDate(right);
    return li !== '' && li === ri;
  }
  if (CASE_INSENSITIVE.has(field)) return left.toLowerCase() === right.toLowerCase();
  return false;
}
