/**
 * Pure rules of the replay: how a failure is classified, when an update is a
 * conflict, and when an operation is already in effect on the server (so it is
 * never sent twice). No I/O here; `index.ts` feeds these with what it read.
 */
import type { BaseValues } from '../../shared/outbox.ts';
import { sameValue } from '../../shared/same-value.ts';

export { classifyFailure } from '../../shared/outbox.ts';
export { sameValue };

/** Fields of `mine` the server already holds: all of them means the change is in effect. */
export function alreadyInEffect(mine: Record<string, unknown>, theirs: Record<string, unknown>): boolean {
  return Object.keys(mine).every((field) => sameValue(field, mine[field], theirs[field]));
}

/**
 * The conflict rule: a field the operation changes whose server value differs
 * from the base the edit was made from (and is not already what we want) was
 * changed by someone else in the meantime. Fields without a base are not checked.
 */
export function conflictingFields(
  base: BaseValues | undefined,
  mine: Record<string, unknown>,
  theirs: Record<string, unknown>,
): string[] {
  if (!base) return [];
  const out: string[] = [];
  for (const field of Object.keys(mine)) {
    if (!(field in base)) continue;
    if (sameValue(field, theirs[field], base[field])) continue;
    if (sameValue(field, theirs[field], mine[field])) continue;
    out.push(field);
  }
  return out;
}

/**
 * The rule for a removal that carries a base (what the record held when the removal
 * was decided): a field whose server value is no longer that base was changed by
 * someone else in the meantime, and removing the record would throw that change away.
 */
export function changedSinceBase(base: BaseValues, theirs: Record<string, unknown>): string[] {
  return Object.keys(base).filter((field) => !sameValue(field, theirs[field], base[field]));
}

/** A created user matches what we sent when the identifying fields agree (username is already equal). */
export function sameCreatedUser(
  sent: { firstname: string; lastname: string; employeeid?: string | undefined },
  found: Record<string, unknown>,
): boolean {
  if (!sameValue('firstname', sent.firstname, found['firstname'])) return false;
  if (!sameValue('lastname', sent.lastname, found['lastname'])) return false;
  if (sent.employeeid && !sameValue('employeeid', sent.employeeid, found['employeeid'])) return false;
  return true;
}
