/**
 * The day's figures and each person's findings, from the report's own per-person
 * computation (features/report/model.ts, `findingsOf`): a scope's figures add up
 * its active people's findings as the report of its people counts them
 * (figures.test.ts compares the two on random caches), with every finding type.
 */
import {
  bestExpirations,
  FINDING_TYPES,
  findingsOf,
  lookups,
  NON_COMPLIANT,
  type FindingType,
  type ReportInput,
  type ReportOptions,
} from '../features/report/model.ts';
import type { UserRecord } from '../../shared/records.ts';
import { DEFAULT_SOON_DAYS } from '../app/soon-window.ts';
import { isTrainingDone } from '../app/compliance.ts';
import type { PersonFact, ScopeFigures } from './rows.ts';
import { addDaysIso } from '../../shared/dates.ts';

/** The "soon" window of the warnings the history counts (the report's default). */
export const HISTORY_SOON_DAYS = DEFAULT_SOON_DAYS;

export function historyOptions(today: string, statuses: readonly string[] = ['Active']): ReportOptions {
  return { today, soonDays: HISTORY_SOON_DAYS, categoryid: null, statuses, findingTypes: [...FINDING_TYPES] };
}

/** Each finding type's letter in the history's keys. */
const TYPE_LETTERS: Record<FindingType, string> = {
  Missing: 'M',
  Expired: 'E',
  'Training overdue': 'O',
  'Expires soon': 'S',
  'Training due soon': 'D',
};
const TYPE_OF_LETTER = new Map(FINDING_TYPES.map((type) => [TYPE_LETTERS[type], type]));
/** The item's letter: k for a credential ("credential:5"), c for a course ("course:7"). */
const ITEM_LETTERS: Record<string, string> = { credential: 'k', course: 'c' };
const ITEM_OF_LETTER = new Map(Object.entries(ITEM_LETTERS).map(([kind, letter]) => [letter, kind]));

/**
 * "Ek5" (expired, credential 5): one finding of a person as the history keeps and compares them, its type's letter,
 * its item's letter and id; a year of daily syncs keeps millions of them (the report's own words were 4 times longer).
 */
export function findingKey(f: { type: string; itemKey: string }): string {
  const colon = f.itemKey.indexOf(':');
  const [type, item] = [TYPE_LETTERS[f.type as FindingType], ITEM_LETTERS[f.itemKey.slice(0, colon)]];
  if (!type || !item || colon < 0) throw new Error(`No history key for the finding ${f.type} ${f.itemKey}.`);
  return `${type}${item}${f.itemKey.slice(colon + 1)}`;
}

/** A history key's finding: its type and the report's item key ("credential:5", "course:7"). */
export function findingOfKey(key: string): { type: FindingType; itemKey: string } {
  const [type, item] = [TYPE_OF_LETTER.get(key[0] ?? ''), ITEM_OF_LETTER.get(key[1] ?? '')];
  if (!type || !item) throw new Error(`Not a finding of the history: ${key}.`);
  return { type, itemKey: `${item}:${key.slice(2)}` };
}

/**
 * Every person's findings on `today`, whatever their status, by userid: the report's own per-person computation
 * (`findingsOf`), without its sections and summaries.
 */
export function findingsByPerson(input: ReportInput, today: string): Map<number, string[]> {
  const look = lookups(input);
  const options = historyOptions(today);
  const out = new Map<number, string[]>();
  for (const person of input.people)
    out.set(person.userid, findingsOf(person, input, look, options).map(findingKey).sort());
  return out;
}

/**
 * The scopes figures are kept for: every site the cache holds (`held`), and every scope a requirement names but a
 * site or a group the cache does not hold: a site no longer kept on this laptop gets no figures.
 */
export function scopesOf(input: ReportInput, held: ReadonlySet<number>): string[] {
  const sites = [...held].map((siteid) => `site:${siteid}`);
  const groups = new Set(input.groups.map((g) => `group:${g.groupid}`));
  const isHeld = (scope: string) =>
    scope.startsWith('site:')
      ? held.has(Number(scope.slice(5)))
      : !scope.startsWith('group:') || groups.has(scope);
  const required = new Set(input.requirements.map((r) => r.scope).filter(isHeld));
  return [...new Set([...sites, ...required])].sort();
}

const isActive = (p: Pick<UserRecord, 'status'>) => p.status.trim().toLowerCase() === 'active';

function emptyFigures(scope: string): ScopeFigures {
  return { scope, people: 0, compliant: 0, findings: {} };
}

/** A history key's finding type, without making its item key (`findingOfKey` refuses the same keys). */
function typeOfKey(key: string): FindingType {
  const type = TYPE_OF_LETTER.get(key[0] ?? '');
  if (!type || !ITEM_OF_LETTER.has(key[1] ?? '')) throw new Error(`Not a finding of the history: ${key}.`);
  return type;
}

/** Adds (`by` 1) or takes away (-1) one active person, with their findings, to or from the figures of a scope. */
function countPerson(figures: ScopeFigures, findings: readonly string[], by: 1 | -1 = 1): void {
  figures.people += by;
  const types = findings.map(typeOfKey);
  if (!types.some((t) => NON_COMPLIANT.includes(t))) figures.compliant += by;
  for (const type of types) figures.findings[type] = (figures.findings[type] ?? 0) + by;
}

/** The finding counts in the report's order of types. */
const ordered = (f: ScopeFigures): ScopeFigures => {
  const findings: ScopeFigures['findings'] = {};
  for (const type of FINDING_TYPES) if (f.findings[type]) findings[type] = f.findings[type];
  return { ...f, findings };
};

/**
 * The day's figures of every scope (`scopesOf`), as the report of the scope's people counts them (active people,
 * compliant: no missing, expired or overdue item; findings by type), added up from each person's findings.
 */
export function dayFigures(
  input: ReportInput,
  today: string,
  held: ReadonlySet<number>,
  findings: ReadonlyMap<number, readonly string[]> = findingsByPerson(input, today),
): ScopeFigures[] {
  const scopes = scopesOf(input, held);
  const tally = new Map(scopes.map((scope) => [scope, emptyFigures(scope)]));
  const groupsOf = new Map<number, number[]>();
  for (const m of input.memberships) groupsOf.set(m.userid, [...(groupsOf.get(m.userid) ?? []), m.groupid]);
  for (const person of input.people.filter(isActive)) {
    const own = [`site:${person.siteid}`, `usertype:${person.usertype}`];
    for (const scope of [...own, ...(groupsOf.get(person.userid) ?? []).map((g) => `group:${g}`)]) {
      const figures = tally.get(scope);
      if (figures) countPerson(figures, findings.get(person.userid) ?? []);
    }
  }
  return scopes.map((scope) => ordered(tally.get(scope)!));
}

/** A person as their head keeps them: their fact and their findings. */
export interface Counted {
  fact: PersonFact;
  findings: readonly string[];
}

/**
 * The figures of the previous snapshot with some people's counts replaced: each of `was` taken away, each of `now`
 * added (the same scopes: an incremental snapshot is taken only while the names and requirements are unchanged).
 */
export function adjustFigures(
  figures: readonly ScopeFigures[],
  was: readonly Counted[],
  now: readonly Counted[],
): ScopeFigures[] {
  const tally = new Map(figures.map((f) => [f.scope, { ...f, findings: { ...f.findings } }]));
  const count = ({ fact, findings }: Counted, by: 1 | -1) => {
    if (!isActive({ status: fact.u[5] })) return;
    for (const scope of [`site:${fact.u[0]}`, `usertype:${fact.u[6]}`, ...fact.g.map((g) => `group:${g}`)]) {
      const f = tally.get(scope);
      if (f) countPerson(f, findings, by);
    }
  };
  for (const person of was) count(person, -1);
  for (const person of now) count(person, 1);
  return figures.map((f) => ordered(tally.get(f.scope)!));
}

/**
 * Calls `each` with every date the person's findings follow: each credential's latest expiration (the report reads
 * that one only: `bestExpirations`; none when one of its assignments never expires) and each open course's due date (a
 * completed course is done whatever its due date: app/compliance.ts). A requirement is missing only when nothing is
 * held, whatever the dates (features/requirements/model.ts), so no other date counts. No list made: a day on `l`
 * asks this of some 2,800 people.
 */
function eachDateFollowed(fact: PersonFact, each: (date: string) => void): void {
  const held = fact.c.map(([, credentialid, , expirationIso]) => ({ credentialid, expirationIso }));
  for (const date of bestExpirations(held).values()) if (date !== '') each(date);
  for (const t of fact.t) if (t[4] !== '' && !isTrainingDone({ course_status: t[3] })) each(t[4]);
}

const earlier = (a: string | undefined, b: string | undefined): string | undefined =>
  a === undefined || (b !== undefined && b < a) ? b : a;

/**
 * The first day after `day` on which the person's findings change with the date alone, in one pass over the dates
 * their findings follow: a date comes within the "soon" window (a "soon" finding appears) on the window's length
 * before it, and passes (the finding turns to expired or overdue) the day after it; nothing about it changes on any
 * other day. Each such day changes a finding (findings only move forward, so two on one day cannot undo each other),
 * so the first of them is the day (figures.test.ts compares it with their findings tried day by day). A date beyond
 * the window comes within it first; one within it passes next; one passed changes nothing more. Undefined: never.
 */
export function nextFindingsChange(fact: PersonFact, day: string): string | undefined {
  const windowEnd = addDaysIso(day, HISTORY_SOON_DAYS);
  let [beyond, within] = [undefined as string | undefined, undefined as string | undefined];
  eachDateFollowed(fact, (date) => {
    if (date > windowEnd) beyond = earlier(beyond, date);
    else if (date >= day) within = earlier(within, date);
  });
  const comesWithin = beyond === undefined ? undefined : addDaysIso(beyond, -HISTORY_SOON_DAYS);
  const passes = within === undefined ? undefined : addDaysIso(within, 1);
  return earlier(comesWithin, passes);
}
