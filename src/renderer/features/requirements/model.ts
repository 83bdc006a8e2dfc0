/**
 * Requirements the coordinator sets: which credentials each person must hold
 * (and valid) and which courses they must complete (not overdue), for everyone
 * at a site, for a profile group (Role = Driver) or for a user type. The
 * platform has no such notion: kept in this profile's local database only,
 * never sent. Pure: who is required what, and where each person stands.
 */
import type {
  CredentialAssignmentRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../../shared/records.ts';
import type { RequirementRow } from '../../db/rows.ts';
import { isTrainingDone } from '../../app/compliance.ts';

/** Whom a requirement applies to. A user type rule applies at every site. */
export type RequirementScope =
  | { kind: 'site'; siteid: number }
  | { kind: 'group'; groupid: number }
  | { kind: 'usertype'; usertype: string };

/** What is required. */
export type RequiredItem =
  { kind: 'credential'; credentialid: number } | { kind: 'course'; courseid: number };

/** One stored requirement (table `requirements`): its row type lives with the database's. */
export type { RequirementRow };

export function scopeKey(scope: RequirementScope): string {
  if (scope.kind === 'site') return `site:${scope.siteid}`;
  if (scope.kind === 'group') return `group:${scope.groupid}`;
  return `usertype:${scope.usertype}`;
}

export function itemKey(item: RequiredItem): string {
  return item.kind === 'credential' ? `credential:${item.credentialid}` : `course:${item.courseid}`;
}

export function parseItemKey(key: string): RequiredItem {
  const [kind, id] = [key.slice(0, key.indexOf(':')), Number(key.slice(key.indexOf(':') + 1))];
  return kind === 'course' ? { kind: 'course', courseid: id } : { kind: 'credential', credentialid: id };
}

export function requirementRow(
  scope: RequirementScope | string,
  item: RequiredItem | string,
): RequirementRow {
  const s = typeof scope === 'string' ? scope : scopeKey(scope);
  const i = typeof item === 'string' ? item : itemKey(item);
  return { id: `${s}|${i}`, scope: s, item: i };
}

/** The rows that give `to` every requirement `from` has (those it already has are left out). */
export function copiedRequirements(
  rows: readonly RequirementRow[],
  from: string,
  to: string,
): RequirementRow[] {
  const existing = new Set(rows.filter((r) => r.scope === to).map((r) => r.item));
  return rows.filter((r) => r.scope === from && !existing.has(r.item)).map((r) => requirementRow(to, r.item));
}

/** Required items of a person, each with the scopes that require it ("why"). */
export function requiredOf(
  person: Pick<UserRecord, 'siteid' | 'usertype'>,
  groupids: readonly number[],
  rows: readonly RequirementRow[],
): Map<string, string[]> {
  const mine = new Set([
    `site:${person.siteid}`,
    `usertype:${person.usertype}`,
    ...groupids.map((g) => `group:${g}`),
  ]);
  const out = new Map<string, string[]>();
  for (const row of rows) {
    if (!mine.has(row.scope)) continue;
    const why = out.get(row.item);
    if (why) why.push(row.scope);
    else out.set(row.item, [row.scope]);
  }
  return out;
}

/** Where a person stands on one requirement. */
export type RequirementState = 'valid' | 'missing' | 'expired' | 'overdue';

export interface RequirementStanding {
  item: RequiredItem;
  state: RequirementState;
  /** the expiration or due date that decided it (ISO), '' when missing or without one */
  date: string;
}

/**
 * A required credential: valid when held with no expiration or one today or later
 * (the best of several assignments counts), expired when every one held has expired,
 * missing when none is held.
 */
export function credentialStanding(
  credentialid: number,
  held: readonly Pick<CredentialAssignmentRecord, 'credentialid' | 'expirationIso'>[],
  today: string,
): RequirementStanding {
  const item: RequiredItem = { kind: 'credential', credentialid };
  const mine = held.filter((a) => a.credentialid === credentialid);
  if (mine.length === 0) return { item, state: 'missing', date: '' };
  const open = mine.find((a) => !a.expirationIso);
  if (open) return { item, state: 'valid', date: '' };
  const latest = mine
    .map((a) => a.expirationIso)
    .sort()
    .at(-1)!;
  return { item, state: latest < today ? 'expired' : 'valid', date: latest };
}

/**
 * A required course: met when completed, or assigned and not yet overdue;
 * overdue when assigned and past its due date; missing when never assigned.
 */
export function courseStanding(
  courseid: number,
  training: readonly Pick<TrainingAssignmentRecord, 'courseid' | 'course_status' | 'dueIso'>[],
  today: string,
): RequirementStanding {
  const item: RequiredItem = { kind: 'course', courseid };
  const mine = training.filter((t) => t.courseid === courseid);
  if (mine.length === 0) return { item, state: 'missing', date: '' };
  if (mine.some(isTrainingDone)) return { item, state: 'valid', date: '' };
  const overdue = mine.filter((t) => t.dueIso && t.dueIso < today);
  if (overdue.length === mine.length)
    return { item, state: 'overdue', date: overdue.map((t) => t.dueIso).sort()[0]! };
  return { item, state: 'valid', date: '' };
}

/** Where a person stands on everything required of them. */
export function personStandings(
  required: ReadonlyMap<string, readonly string[]>,
  held: readonly Pick<CredentialAssignmentRecord, 'credentialid' | 'expirationIso'>[],
  training: readonly Pick<TrainingAssignmentRecord, 'courseid' | 'course_status' | 'dueIso'>[],
  today: string,
): RequirementStanding[] {
  return [...required.keys()].map((key) => {
    const item = parseItemKey(key);
    return item.kind === 'credential'
      ? credentialStanding(item.credentialid, held, today)
      : courseStanding(item.courseid, training, today);
  });
}
