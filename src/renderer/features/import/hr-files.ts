/**
 * HR files as they come (issue 35): an HR export has no usernames and says a
 * status in HR's words. The coordinator chooses once per profile how a new
 * hire's username is made (the e-mail's local part, first.last or initial +
 * last) and what each HR status word means on the platform; both are kept
 * here, in this window's local storage under the profile's id (a preference
 * of the coordinator, never sent). Deriving and mapping are pure.
 */
import type { ImportRow, MatchKey } from './file-row.ts';
import { PLATFORM_STATUSES, type PlatformStatus } from '../../app/person-status.ts';

export type UsernameRule = 'email' | 'first.last' | 'initial.last';
export const USERNAME_RULES: readonly UsernameRule[] = ['email', 'first.last', 'initial.last'];
export const RULE_WORDS: Record<UsernameRule, string> = {
  email: 'the e-mail',
  'first.last': 'first and last name',
  'initial.last': 'initial and last name',
};
/** How each rule is offered, with an example. */
export const RULE_CHOICES: Record<UsernameRule, string> = {
  email: 'The e-mail before the @ (anna.muller@example.com → anna.muller)',
  'first.last': 'First name.last name (Anna Müller → anna.muller)',
  'initial.last': 'Initial and last name (Anna Müller → amuller)',
};

/** HR's word (lower case) → the platform status the coordinator chose for it */
export type StatusWords = Readonly<Record<string, PlatformStatus>>;

/** The words HR systems use whose meaning is plain; others (Leave, On leave…) are the coordinator's choice. */
export const HR_STATUS_DEFAULTS: StatusWords = {
  terminated: 'Inactive',
  left: 'Inactive',
  leaver: 'Inactive',
  resigned: 'Inactive',
  retired: 'Inactive',
  'active employee': 'Active',
  employed: 'Active',
  current: 'Active',
};

const squashWord = (word: string) => word.trim().replace(/\s+/g, ' ').toLowerCase();

/** The platform's statuses by their word lower-cased (made once: every row of a preview asks). */
const OWN_STATUS = new Map<string, PlatformStatus>(PLATFORM_STATUSES.map((s) => [s.toLowerCase(), s]));

/**
 * A status of the file as the platform says it: its own word, HR's word as chosen (or by default), else null (to ask).
 */
export function platformStatus(value: string, chosen: StatusWords = {}): PlatformStatus | null {
  const word = squashWord(value);
  return OWN_STATUS.get(word) ?? chosen[word] ?? HR_STATUS_DEFAULTS[word] ?? null;
}

/**
 * The file's status words that are not the platform's own, once each (as first written), for the table to ask about.
 */
export function hrStatusWords(values: readonly (string | undefined)[]): string[] {
  const seen = new Map<string, string>();
  // a status column holds a few words 100,000 times: each way of writing one is squashed once (150 ms a render was
  // squashing them all, inside one long task of the window, in the import bench's profile)
  const looked = new Set<string>();
  for (const value of values) {
    if (!value || looked.has(value)) continue;
    looked.add(value);
    const word = squashWord(value);
    if (!seen.has(word) && !OWN_STATUS.has(word)) seen.set(word, value.trim());
  }
  return [...seen.values()];
}

/**
 * Lower case, accents folded to ASCII (ß → ss, æ → ae, ø → o…), and what the platform refuses in a username dropped.
 */
export function usernamePart(text: string): string {
  return text
    .replace(/ß/g, 'ss')
    .replace(/[Ææ]/g, 'ae')
    .replace(/[Œœ]/g, 'oe')
    .replace(/[Øø]/g, 'o')
    .replace(/[Łł]/g, 'l')
    .replace(/[Đđ]/g, 'd')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '');
}

/** The username a rule makes of a row before numbering; '' when the row lacks what the rule needs. */
export function baseUsername(
  rule: UsernameRule,
  v: { firstname?: string; lastname?: string; email?: string },
): string {
  const first = usernamePart(v.firstname ?? '');
  const last = usernamePart(v.lastname ?? '');
  if (rule === 'email')
    return usernamePart((v.email ?? '').split('@')[0] ?? '').replace(/^[._-]+|[._-]+$/g, '');
  if (!first || !last) return '';
  return rule === 'first.last' ? `${first}.${last}` : `${first.charAt(0)}${last}`;
}

/**
 * The first free name of `base`, `base2`, `base3`…; `taken` answers for a lower-cased name (the cache's people,
 * pending creates included, the file's own usernames, names already derived, the other sites' identities).
 */
export function freeUsername(base: string, taken: (name: string) => boolean): string {
  if (!taken(base)) return base;
  let n = 2;
  while (taken(`${base}${n}`)) n += 1;
  return `${base}${n}`;
}

/** Per row that needs one (by row number), the derived username: numbered past what is taken and past each other. */
export function deriveUsernames(
  rows: readonly { rowNumber: number; values: { firstname?: string; lastname?: string; email?: string } }[],
  rule: UsernameRule,
  taken: (name: string) => boolean,
): Map<number, string> {
  const derived = new Map<number, string>();
  const given = new Set<string>();
  const isTaken = (name: string) => given.has(name) || taken(name);
  for (const row of rows) {
    const base = baseUsername(rule, row.values);
    if (!base) continue;
    const name = freeUsername(base, isTaken);
    given.add(name);
    derived.set(row.rowNumber, name);
  }
  return derived;
}

export interface HrChoices {
  /** null: not chosen yet (a row without a username cannot create anyone) */
  usernameRule: UsernameRule | null;
  statusWords: StatusWords;
}
export const NO_HR_CHOICES: HrChoices = { usernameRule: null, statusWords: {} };

const storageKey = (profileId: string) => `fieldbook.import.hr.${profileId}`;

function isRule(value: unknown): value is UsernameRule {
  return typeof value === 'string' && (USERNAME_RULES as readonly string[]).includes(value);
}

/** The profile's choices; unreadable parts are forgotten, not guessed. */
export function loadHrChoices(
  profileId: string,
  storage: Pick<Storage, 'getItem'> = localStorage,
): HrChoices {
  try {
    const parsed = JSON.parse(storage.getItem(storageKey(profileId)) ?? '{}') as Partial<HrChoices> | null;
    const words: Record<string, PlatformStatus> = {};
    for (const [word, status] of Object.entries(parsed?.statusWords ?? {})) {
      if ((PLATFORM_STATUSES as readonly string[]).includes(status)) words[word] = status;
    }
    return { usernameRule: isRule(parsed?.usernameRule) ? parsed.usernameRule : null, statusWords: words };
  } catch {
    return NO_HR_CHOICES;
  }
}

export function saveHrChoices(
  profileId: string,
  choices: HrChoices,
  storage: Pick<Storage, 'setItem'> = localStorage,
): void {
  storage.setItem(storageKey(profileId), JSON.stringify(choices));
}

/**
 * What the derivation reads of the cache: every person (pending creates included) and which of the site's the key
 * finds.
 */
export interface DeriveInputs {
  users: readonly { username: string; siteid: number; employeeid: string }[];
  siteid: number;
  key: MatchKey;
  rule: UsernameRule | null;
  /** lower-cased usernames held at the sites not kept on this laptop (not-kept.ts) */
  heldElsewhere?: ReadonlySet<string> | ReadonlyMap<string, string>;
}

/**
 * The rows, each new person without a username given the one the rule makes: free among every cached person,
 * the file's own usernames, the other rows' derived ones and the usernames held elsewhere. A row whose key finds
 * someone on the site keeps none (it updates that person; an e-mail key is left to the matching).
 */
export function withDerivedUsernames(rows: readonly ImportRow[], inputs: DeriveInputs): ImportRow[] {
  const { rule } = inputs;
  if (!rule) return [...rows];
  const taken = new Set(inputs.users.map((u) => u.username.toLowerCase()));
  for (const row of rows) if (row.values.username) taken.add(row.values.username.toLowerCase());
  const found = new Set(
    inputs.users
      .filter((u) => u.siteid === inputs.siteid && inputs.key !== 'email')
      .map((u) => (inputs.key === 'username' ? u.username : u.employeeid).toLowerCase()),
  );
  const needing = rows.filter(
    (r) => !r.values.username && !found.has((r.values[inputs.key] ?? '').toLowerCase()),
  );
  const derived = deriveUsernames(
    needing,
    rule,
    (name) => taken.has(name) || inputs.heldElsewhere?.has(name) === true,
  );
  return rows.map((r) => (derived.has(r.rowNumber) ? { ...r, derived: derived.get(r.rowNumber)! } : r));
}
