/**
 * Each row of the file against the people on the site, so that a row never
 * lands on the wrong person. The user picks the key (employee id, username or
 * e-mail) and the mode; zero matches create, one updates only what differs,
 * several are ambiguous. Every identifying value of the row (username,
 * employee id, e-mail) is also checked against the other people and the other
 * rows: when it belongs to someone else, the row is a conflict and is not
 * queued. Renaming a username or changing an employee id is a category of its
 * own that the user ticks row by row. Pure.
 */
import type { EmailRecord, UserRecord } from '../../../shared/records.ts';
import { looksLikeFormula } from '../../../shared/formula.ts';
import { DATE_FIELDS, FIELD_LABELS, IMPORT_FIELDS } from './mapping.ts';
import { parseTextDate, type DayMonthOrder } from './text-date.ts';
import { forEachSliced, mapSliced, type Slicing } from '../../../shared/sliced.ts';
import { identityErrors } from './identity.ts';
import { lookAlikeReason, LookAlikeIndex, type HeldValue } from './look-alike.ts';
import { garbledErrors } from './garbled.ts';
import { withArticle } from '../../app/words.ts';
import type { SitesNotKept } from './not-kept.ts';
import {
  emailAgainstQueue,
  heldUntilSent,
  queuedChangesUndone,
  type OverriddenField,
  type QueuedState,
} from './queued.ts';
import type { WithPending } from '../../outbox/pending.ts';
import { keptAssignments } from './queued-assignments.ts';
import type { ImportExtras } from './extras.ts';
import { skipCreateOnUnknownCache } from './unknown-cache.ts';
import { platformStatus, type StatusWords, type UsernameRule } from './hr-files.ts';
import { PLATFORM_STATUSES } from '../../app/person-status.ts';
import type { ImportRow, MatchKey, RowValues, UserChanges } from './file-row.ts';
import type { RowPlan } from './row-plan.ts';

export type { ImportRow, MatchKey, RowPlan, RowValues };

export type ImportMode = 'upsert' | 'create' | 'update';
export interface MatchOptions {
  key: MatchKey;
  mode: ImportMode;
  /** the site's profile groups by lower-cased name, which a Profile group column must name */
  groups?: ReadonlyMap<string, GroupRef>;
  /** how the file writes numeric dates when day and month could be either way round; unset: such a date is invalid */
  dateOrder?: DayMonthOrder;
  /** what the chosen credential requires that no value for the whole file gives: each new person's row must */
  requires?: readonly ('startdate' | 'expirationdate' | 'credentialnumber')[];
  /**
   * what main's index says of the file's usernames and e-mails at the sites not kept on this laptop (not-kept.ts);
   * unset: every site is in the cache
   */
  notKept?: SitesNotKept;
  /** what the Outbox queues besides the records' effective state (queued.ts); unset: nothing is queued */
  queued?: QueuedState;
  /** the credential and course the file gives (to the new people, and back to those a queued change takes them from) */
  extras?: Pick<ImportExtras, 'credential' | 'course'>;
  /**
   * why the cache cannot say who is on the site (unknown-cache.ts): nobody is created; unset: a sync has read everyone
   */
  unknownCache?: string | null;
  /** what HR's status words mean on the platform, as the coordinator chose (hr-files.ts) */
  statusWords?: StatusWords;
  /** how the usernames of rows without one were derived (`ImportRow.derived`); unset: none was */
  usernameRule?: UsernameRule;
}
export type GroupRef = { groupid: number; groupname: string };

export type RowAction = RowPlan['action'];
export const ACTIONS: readonly RowAction[] = [
  'create',
  'update',
  'identity',
  'unchanged',
  'skipped',
  'conflict',
  'ambiguous',
  'invalid',
];

export const KNOWN_STATUSES: readonly string[] = PLATFORM_STATUSES;
const LOOKS_LIKE_DATE =
  /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$|^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$|^\d{1,2}-[A-Za-z]{3}(-\d{2,4})?$/;

/**
 * The platform's status for a file's word: its own, or HR's word as the coordinator chose it (hr-files.ts); null:
 * unknown.
 */
export function normalizeStatus(value: string, words?: StatusWords): string | null {
  return platformStatus(value, words);
}

/** The cached e-mail addresses of each user, lower-cased. */
export type EmailsByUser = ReadonlyMap<number, ReadonlySet<string>>;

/** Each user's addresses once the queued changes are sent: one a queued change removes is not theirs any more. */
export function emailsByUser(emails: readonly WithPending<EmailRecord>[]): EmailsByUser {
  const out = new Map<number, Set<string>>();
  for (const e of emails) addAddress(out, e);
  return out;
}

/** `emailsByUser`, a slice at a time (the addresses of 20,000 people and 50,000 queued ones). */
export async function emailsByUserInSlices(
  emails: readonly WithPending<EmailRecord>[],
): Promise<EmailsByUser> {
  const out = new Map<number, Set<string>>();
  await forEachSliced(emails.length, (i) => addAddress(out, emails[i]!));
  return out;
}

function addAddress(out: Map<number, Set<string>>, e: WithPending<EmailRecord>): void {
  if (e.pending?.change !== 'delete')
    out.set(e.userid, (out.get(e.userid) ?? new Set()).add(e.email.toLowerCase()));
}

const IDENTIFYING = ['username', 'employeeid', 'email'] as const;
type Identifying = (typeof IDENTIFYING)[number];
const LABEL: Record<Identifying, string> = {
  username: 'username',
  employeeid: 'employee ID',
  email: 'e-mail',
};

export const who = (u: UserRecord) => {
  const name = `${u.firstname} ${u.lastname}`.trim() || u.username;
  const employee = u.employeeid ? `, employee ID ${u.employeeid}` : '';
  return `${name} (${u.username}${employee})`;
};

/** `status`: the platform's word for the row's status (null: none the coordinator chose). */
function validate(v: RowValues, status: string | null): string[] {
  const errors: string[] = [];
  for (const field of IMPORT_FIELDS) {
    const value = v[field];
    if (!value) continue;
    // a results file neutralised it with a leading quote: still the same formula
    const [label, shown] = [FIELD_LABELS[field], value.slice(0, 40)];
    if (looksLikeFormula(value) || (value.startsWith("'") && looksLikeFormula(value.slice(1))))
      errors.push(
        `${label} "${shown}" looks like a spreadsheet formula (it starts with = + - or @), so it is refused.`,
      );
    if (value.length > 200 && field !== 'email')
      errors.push(`${FIELD_LABELS[field]} is longer than 200 characters.`);
  }
  if (v.status && !status)
    errors.push(
      `Status "${v.status.slice(0, 40)}": choose above what it means on the platform (${KNOWN_STATUSES.join(', ')}).`,
    );
  errors.push(...identityErrors(v), ...garbledErrors(v));
  if (v.employeeid && LOOKS_LIKE_DATE.test(v.employeeid))
    errors.push(
      `Employee ID "${v.employeeid}" looks like a date: the spreadsheet may have turned the id into a date. Format the column as Text and export again.`,
    );
  return errors;
}

class Index {
  private readonly map = new Map<string, UserRecord[]>();
  /** `known`: a set every key of this index is added to too (shared by the indexes of one site's people) */
  private readonly known: Set<string> | undefined;
  constructor(known?: Set<string>) {
    this.known = known;
  }
  add(value: string, user: UserRecord) {
    if (!value) return;
    const key = value.toLowerCase();
    this.known?.add(key);
    const list = this.map.get(key);
    if (!list) this.map.set(key, [user]);
    else if (!list.includes(user)) list.push(user);
  }
  get(value: string | undefined): UserRecord[] {
    return value ? (this.map.get(value.toLowerCase()) ?? []) : [];
  }
  /** By a value already lower-cased (a row's are, once: `foldedOf`). */
  getFolded(key: string): readonly UserRecord[] {
    return (key && this.map.get(key)) || NO_PEOPLE;
  }
}

const NO_PEOPLE: readonly UserRecord[] = [];

/**
 * A row's identifying values lower-cased, once for all the lookups of its plan ('' where it has none): 100,000 rows
 * lower-cased at each of a dozen lookups were a third of a preview's planning.
 */
type Folded = Record<Identifying, string>;

function foldedOf(v: RowValues): Folded {
  return {
    username: v.username?.toLowerCase() ?? '',
    employeeid: v.employeeid?.toLowerCase() ?? '',
    email: v.email?.toLowerCase() ?? '',
  };
}

/** Usernames and e-mail addresses are unique across the customer's sites (the platform refuses a second: 1002). */
const UNIQUE_EVERYWHERE = ['username', 'email'] as const;
type UniqueEverywhere = (typeof UNIQUE_EVERYWHERE)[number];

/**
 * The people of the chosen site by each identifying value; `elsewhere`, those of the other sites by what must stay
 * unique; `lookAlike`, everyone by the look of what must stay unique (look-alike.ts).
 */
type PeopleIndex = Record<Identifying, Index> & {
  elsewhere: Record<UniqueEverywhere, Index>;
  lookAlike: Record<UniqueEverywhere, LookAlikeIndex<UserRecord>>;
};

interface Indexes {
  index: PeopleIndex;
  inFile: FileIndex;
  /** each row's identifying values lower-cased, by the row's place in the file */
  folded: readonly Folded[];
  /** the platform's status for each way the file writes one (a status column holds a few words 100,000 times) */
  statuses: Map<string, string | null>;
}

/** The platform's status for a row's word, found once per word and plan. */
function statusOf(indexes: Indexes, word: string, words: StatusWords | undefined): string | null {
  let status = indexes.statuses.get(word);
  if (status === undefined) {
    status = normalizeStatus(word, words);
    indexes.statuses.set(word, status);
  }
  return status;
}

/**
 * Every text a username or e-mail is looked up by (a person's own, or the look of one) is in one set, which each
 * look-alike index asks first: most rows look like nobody, and their look is then looked up once, not three times.
 */
function emptyPeopleIndex(): PeopleIndex {
  const [usernames, emails] = [new Set<string>(), new Set<string>()];
  return {
    username: new Index(usernames),
    employeeid: new Index(),
    email: new Index(emails),
    elsewhere: { username: new Index(usernames), email: new Index(emails) },
    lookAlike: { username: new LookAlikeIndex(usernames), email: new LookAlikeIndex(emails) },
  };
}

function addPerson(index: PeopleIndex, u: UserRecord, siteid: number): void {
  if (u.siteid === siteid) {
    index.username.add(u.username, u);
    index.employeeid.add(u.employeeid, u);
  } else index.elsewhere.username.add(u.username, u);
  index.lookAlike.username.add(u.username, u);
}

function addAddresses(
  index: PeopleIndex,
  u: UserRecord | undefined,
  addresses: ReadonlySet<string>,
  siteid: number,
): void {
  if (!u) return;
  const into = u.siteid === siteid ? index.email : index.elsewhere.email;
  for (const address of addresses) {
    into.add(address, u);
    index.lookAlike.email.add(address, u);
  }
}

function peopleIndex(users: readonly UserRecord[], siteid: number, emails: EmailsByUser): PeopleIndex {
  const index = emptyPeopleIndex();
  const byId = new Map(users.map((u) => [u.userid, u]));
  for (const u of users) addPerson(index, u, siteid);
  for (const [userid, addresses] of emails) addAddresses(index, byId.get(userid), addresses, siteid);
  return index;
}

/**
 * The same index, a slice of people at a time (20,000 people at once were one long task of the window); null when
 * stopped.
 */
async function peopleIndexInSlices(
  users: readonly UserRecord[],
  siteid: number,
  emails: EmailsByUser,
  slicing: Slicing,
): Promise<PeopleIndex | null> {
  const index = emptyPeopleIndex();
  const byId = new Map<number, UserRecord>();
  const people = await forEachSliced(
    users.length,
    (i) => {
      const u = users[i]!;
      byId.set(u.userid, u);
      addPerson(index, u, siteid);
    },
    slicing,
  );
  const addresses = [...emails];
  const done =
    people &&
    (await forEachSliced(
      addresses.length,
      (i) => addAddresses(index, byId.get(addresses[i]![0]), addresses[i]![1], siteid),
      slicing,
    ));
  return done ? index : null;
}

/**
 * The people index of each list of cached people as read (a new read is a new list), for one site and one map of
 * addresses: built once, a slice at a time, and taken again by each plan of it (a mapping change, the next file).
 */
const builtIndexes = new WeakMap<
  readonly UserRecord[],
  { siteid: number; emails: EmailsByUser; built: Promise<PeopleIndex | null> }
>();

/** The people index, the one built before when there is one; never stopped (other plans may be waiting on it). */
function sharedPeopleIndex(
  users: readonly UserRecord[],
  siteid: number,
  emails: EmailsByUser,
  slicing: Slicing,
): Promise<PeopleIndex | null> {
  const kept = builtIndexes.get(users);
  if (kept && kept.siteid === siteid && kept.emails === emails) return kept.built;
  const { stopped: _stopped, ...unstoppable } = slicing;
  const built = peopleIndexInSlices(users, siteid, emails, unstoppable);
  builtIndexes.set(users, { siteid, emails, built });
  return built;
}

/**
 * Starts indexing the cached people of a site before a file is planned against them (while the worker reads it):
 * the plan then takes the index as built.
 */
export function warmPeopleIndex(users: readonly UserRecord[], siteid: number, emails: EmailsByUser): void {
  void sharedPeopleIndex(users, siteid, emails, {});
}

/** Why a row's username or e-mail cannot be used (added to `reasons`): someone on another site holds it. */
function heldElsewhere(
  index: PeopleIndex,
  v: RowValues,
  folded: Folded,
  people: UserRecord[],
  reasons: string[],
): void {
  for (const field of UNIQUE_EVERYWHERE) {
    const value = v[field];
    const label = LABEL[field];
    for (const owner of index.elsewhere[field].getFolded(folded[field])) {
      const owned = who(owner);
      const aLabel = withArticle(label);
      reasons.push(
        `The ${label} "${value}" belongs to ${owned} on another site: ${aLabel} is unique across sites, so the platform would refuse it.`,
      );
      if (!people.includes(owner)) people.push(owner);
    }
  }
}

/** Whether the person holds this very username or e-mail (compared as the platform does, without regard to case). */
function holds(u: UserRecord, field: UniqueEverywhere, folded: string, emails: EmailsByUser): boolean {
  return field === 'username'
    ? u.username.toLowerCase() === folded
    : emails.get(u.userid)?.has(folded) === true;
}

/**
 * Who, at any site the cache keeps, holds a username or e-mail that looks like the row's but is written with other
 * characters.
 */
function lookAlikes(
  index: PeopleIndex,
  emails: EmailsByUser,
  field: UniqueEverywhere,
  value: string,
  folded: string,
): readonly HeldValue<UserRecord>[] {
  // the key is a skeleton, lower-cased: most find nobody, with nothing made for them
  const byText = (key: string): readonly HeldValue<UserRecord>[] => {
    const here = index[field].getFolded(key);
    const elsewhere = index.elsewhere[field].getFolded(key);
    if (here.length === 0 && elsewhere.length === 0) return NO_HELD;
    return [...here, ...elsewhere].map((person) => ({
      value: field === 'username' ? person.username : key,
      person,
    }));
  };
  const found = index.lookAlike[field].find(value, byText, folded);
  // someone who also holds the row's value itself (an address kept in two scripts) is found by it, not flagged
  return found.length === 0 ? found : found.filter(({ person }) => !holds(person, field, folded, emails));
}

const NO_HELD: readonly HeldValue<UserRecord>[] = [];

/**
 * Why a row's username or e-mail cannot be used (added to `reasons`): it only looks like someone's, so the platform
 * would take the two for different people.
 */
function lookAlikeReasons(
  index: PeopleIndex,
  emails: EmailsByUser,
  row: { values: RowValues; folded: Folded },
  user: UserRecord | undefined,
  found: { people: UserRecord[]; reasons: string[] },
): void {
  const { people, reasons } = found;
  const v = row.values;
  for (const field of UNIQUE_EVERYWHERE) {
    const value = v[field];
    if (!value) continue;
    for (const { value: theirs, person } of lookAlikes(index, emails, field, value, row.folded[field])) {
      const rowPerson = person === user ? null : `${v.firstname ?? ''} ${v.lastname ?? ''}`.trim();
      reasons.push(lookAlikeReason({ label: LABEL[field], value, theirs, owner: who(person), rowPerson }));
      if (!people.includes(person)) people.push(person);
    }
  }
}

/**
 * Why a row's username or e-mail cannot be used (added to `reasons`): someone at a site not kept on this laptop holds
 * it (main's index says so, not the cache).
 */
function heldAtSitesNotKept(
  notKept: SitesNotKept | undefined,
  v: RowValues,
  folded: Folded,
  reasons: string[],
): void {
  const username = v.username && notKept?.username.get(folded.username);
  if (username)
    reasons.push(
      `${v.username} is already a user at ${username}, a site not kept on this laptop: a username is unique across sites, so the platform would refuse it.`,
    );
  const email = v.email && notKept?.email.get(folded.email);
  if (email)
    reasons.push(
      `${v.email} is already the e-mail of a user at ${email}, a site not kept on this laptop: an e-mail is unique across sites, so the platform would refuse it.`,
    );
}

/** A row that would give someone a username or e-mail the sites not kept could not be checked for: not queued. */
function uncheckedSkip(plan: RowPlan, notKept: SitesNotKept | undefined): RowPlan {
  if (!notKept?.unchecked) return plan;
  const gives =
    plan.action === 'create' ||
    (plan.action === 'identity' && plan.changes.username !== undefined) ||
    ((plan.action === 'update' || plan.action === 'identity') && plan.emailAdded !== undefined);
  if (!gives) return plan;
  const what =
    plan.action === 'create'
      ? "this new person's username or e-mail"
      : plan.action === 'identity' && plan.changes.username !== undefined
        ? 'this username'
        : 'this e-mail';
  const why = notKept.unchecked.charAt(0).toLowerCase() + notKept.unchecked.slice(1);
  const user = plan.action === 'create' ? {} : { user: plan.user };
  return {
    rowNumber: plan.rowNumber,
    action: 'skipped',
    reason: `Not queued: ${why}, so ${what} could already be someone else's there. Sync, then drop the file again.`,
    ...user,
  };
}

/**
 * Per identifying value, the row that holds it, or the rows when several do (most values are on one row: no array for
 * them); `shared`, the rows whose value another row holds too (few: most rows need no lookup of their own).
 */
type FileIndex = Record<Identifying, Map<string, number | number[]>> & {
  shared: Record<Identifying, Set<number>>;
};

/**
 * The rows of the file that hold each identifying value (rows from..to); `folded` gets each row's values lower-cased,
 * the very strings the plan looks up again (their hash made once).
 */
function indexRows(
  inFile: FileIndex,
  folded: Folded[],
  rows: readonly ImportRow[],
  from: number,
  to: number,
): void {
  for (let i = from; i < to; i += 1) {
    const row = rows[i]!;
    const keys = foldedOf(row.values);
    folded[i] = keys;
    for (const field of IDENTIFYING) {
      const value = keys[field];
      if (!value) continue;
      const map = inFile[field];
      const held = map.get(value);
      if (held === undefined) map.set(value, row.rowNumber);
      else addHolder(inFile, field, value, held, row.rowNumber);
    }
  }
}

/** A second row (or more) holding a value: both are marked as sharing it. */
function addHolder(
  inFile: FileIndex,
  field: Identifying,
  value: string,
  held: number | number[],
  rowNumber: number,
) {
  const shared = inFile.shared[field];
  shared.add(rowNumber);
  if (typeof held !== 'number') held.push(rowNumber);
  else {
    inFile[field].set(value, [held, rowNumber]);
    shared.add(held);
  }
}

const NO_ROWS: readonly number[] = [];

/**
 * The other rows of the file holding this value (lower-cased); `own`: the value is the row's own, as indexed (a row no
 * other row shares a value with is not looked up).
 */
function otherRowsWith(
  inFile: FileIndex,
  field: Identifying,
  folded: string,
  rowNumber: number,
  own: boolean,
): readonly number[] {
  if (own && !inFile.shared[field].has(rowNumber)) return NO_ROWS;
  const held = inFile[field].get(folded);
  if (held === undefined || held === rowNumber) return NO_ROWS;
  if (typeof held === 'number') return [held];
  return held.filter((n) => n !== rowNumber);
}

const emptyFileIndex = (): FileIndex => ({
  username: new Map(),
  employeeid: new Map(),
  email: new Map(),
  shared: { username: new Set(), employeeid: new Set(), email: new Set() },
});

function indexesOf(
  rows: readonly ImportRow[],
  users: readonly UserRecord[],
  siteid: number,
  emails: EmailsByUser,
): Indexes {
  const inFile = emptyFileIndex();
  const folded: Folded[] = [];
  indexRows(inFile, folded, rows, 0, rows.length);
  return { index: peopleIndex(users, siteid, emails), inFile, folded, statuses: new Map() };
}

export function planImport(
  rows: readonly ImportRow[],
  users: readonly UserRecord[],
  siteid: number,
  emails: EmailsByUser,
  options: MatchOptions,
): RowPlan[] {
  const indexes = indexesOf(rows, users, siteid, emails);
  return rows.map((row, i) => planChecked(row, options, indexes, i, emails));
}

/** The same plan, made a slice of rows at a time (no long task of the window); null when `stopped()` turns true. */
export async function planImportInSlices(
  rows: readonly ImportRow[],
  users: readonly UserRecord[],
  siteid: number,
  emails: EmailsByUser,
  options: MatchOptions,
  stopped: () => boolean,
  slicing: Slicing = {},
): Promise<RowPlan[] | null> {
  const sliced = { ...slicing, stopped };
  const index = await sharedPeopleIndex(users, siteid, emails, sliced);
  const inFile = emptyFileIndex();
  const folded: Folded[] = [];
  if (!index || !(await forEachSliced(rows.length, (i) => indexRows(inFile, folded, rows, i, i + 1), sliced)))
    return null;
  const indexes = { index, inFile, folded, statuses: new Map<string, string | null>() };
  return mapSliced(rows, (row, i) => planChecked(row, options, indexes, i, emails), sliced);
}

/**
 * A row's plan, less what could not be checked: a create against an unknown cache, a value the sites not kept could not
 * be asked about.
 */
function planChecked(
  row: ImportRow,
  options: MatchOptions,
  indexes: Indexes,
  at: number,
  emails: EmailsByUser,
): RowPlan {
  return uncheckedSkip(
    skipCreateOnUnknownCache(
      planRow(row, indexes.folded[at]!, options, indexes, emails),
      options.unknownCache,
    ),
    options.notKept,
  );
}

/** The row's dates as ISO days (null: it gives none); what cannot be read is added to `errors`. */
function datesOf(v: RowValues, order: DayMonthOrder | undefined, errors: string[]): RowValues | null {
  let dates: RowValues | null = null;
  for (const field of DATE_FIELDS) {
    const value = v[field];
    if (!value) continue;
    const date = parseTextDate(value, order);
    if ('iso' in date) (dates ??= {})[field] = date.iso;
    else errors.push(`${FIELD_LABELS[field]}: ${date.error}`);
  }
  return dates;
}

function planRow(
  row: ImportRow,
  folded: Folded,
  options: MatchOptions,
  indexes: Indexes,
  emails: EmailsByUser,
): RowPlan {
  const { index, inFile } = indexes;
  const { rowNumber, values: given } = row;
  const status = given.status ? statusOf(indexes, given.status, options.statusWords) : null;
  const errors = validate(given, status);
  if (given.group && !options.groups?.has(given.group.toLowerCase()))
    errors.push(`Profile group "${given.group.slice(0, 80)}" is not a group on this site.`);
  const dates = datesOf(given, options.dateOrder, errors);
  const keyValue = given[options.key];
  if (!keyValue)
    errors.push(`No ${LABEL[options.key]} (the key chosen to find people): the row cannot be matched.`);
  if (errors.length > 0) return { rowNumber, action: 'invalid', errors };

  const matches = findByKey(index, options, keyValue!, folded[options.key]);
  if (matches.length > 1)
    return {
      rowNumber,
      action: 'ambiguous',
      reason: `${matches.length} people on the site have the ${LABEL[options.key]} "${keyValue}".`,
      people: [...matches],
    };
  const user = matches[0];
  // a new person without a username in the file gets the derived one (free in the cache, the file and elsewhere)
  const derives = !user && !given.username && row.derived !== undefined;
  // the row's own values when nothing changes them (most rows: no copy made)
  const v: RowValues =
    derives || (status !== null && status !== given.status)
      ? { ...given, ...(derives ? { username: row.derived } : {}), ...(status ? { status } : {}) }
      : given;
  const values = dates ? { ...v, ...dates } : v;
  const checked = {
    rowNumber,
    values: v,
    folded: derives ? { ...folded, username: v.username!.toLowerCase() } : folded,
    derives,
  };
  const conflict = crossCheck(checked, { user, found: matches }, options, { index, inFile }, emails);
  if (conflict) return conflict;

  if (!user) {
    if (options.mode === 'update')
      return {
        rowNumber,
        action: 'skipped',
        reason: `No one on the site has the ${LABEL[options.key]} "${keyValue}" (update only: nobody is created).`,
      };
    const lacks = newPersonLacks(v, options);
    if (lacks) return { rowNumber, action: 'invalid', errors: [lacks] };
    return {
      rowNumber,
      action: 'create',
      values,
      ...(derives && options.usernameRule ? { derivedFrom: options.usernameRule } : {}),
    };
  }
  return planUpdate({ rowNumber, values }, user, options, emails);
}

const NEW_PERSON_NEEDS = ['username', 'firstname', 'lastname'] as const;

/** Why a new person's row cannot create them (a name it lacks, what the credential requires); null when it can. */
function newPersonLacks(v: RowValues, options: MatchOptions): string | null {
  // the common row has all it needs: no list made for it
  const requires = options.requires ?? [];
  if (NEW_PERSON_NEEDS.every((f) => v[f]) && requires.every((f) => v[f])) return null;
  const missing = NEW_PERSON_NEEDS.filter((f) => !v[f]).map((f) => FIELD_LABELS[f].toLowerCase());
  if (missing.length > 0) return newPersonNeeds(missing, options.usernameRule);
  const lacking = requires.filter((f) => !v[f]).map((f) => FIELD_LABELS[f].toLowerCase());
  return `The credential requires a ${lacking.join(', a ')}, and the row has none.`;
}

/** What a new person's row lacks, in words; a username can be derived once the coordinator chooses how. */
function newPersonNeeds(missing: readonly string[], rule: UsernameRule | undefined): string {
  const how =
    missing.includes('username') && !rule
      ? ' Choose above how usernames are made for new people, or add a Username column.'
      : '';
  return `A new person needs a ${missing.join(', a ')}.${how}`;
}

/**
 * The people the key finds once the queue is sent; or, when none, the one a queued change takes the value off (it is
 * theirs on the platform until then).
 */
function findByKey(
  index: PeopleIndex,
  options: MatchOptions,
  keyValue: string,
  folded: string,
): readonly UserRecord[] {
  const found = index[options.key].getFolded(folded);
  if (found.length > 0) return found;
  const holder = heldUntilSent(options.queued, options.key, keyValue);
  // on this site: the site's index holds them by their username as it will be
  return holder && index.username.get(holder.username).includes(holder) ? [holder] : [];
}

/**
 * Every identifying value must belong to this person (or to no one), in the site, in the file and in what is queued:
 * otherwise the row is a conflict.
 */
function crossCheck(
  row: ImportRow & { folded: Folded; derives: boolean },
  { user, found }: { user: UserRecord | undefined; found: readonly UserRecord[] },
  options: MatchOptions,
  { index, inFile }: Pick<Indexes, 'index' | 'inFile'>,
  emails: EmailsByUser,
): RowPlan | null {
  const { rowNumber, values: v, folded } = row;
  const reasons: string[] = [];
  const people: UserRecord[] = user ? [user] : [];
  let otherRows: Set<number> | null = null;
  for (const field of IDENTIFYING) {
    const value = v[field];
    if (!value) continue;
    const label = LABEL[field];
    // the key's owners were looked up to find the person (`found`, the same value: a row without its key is invalid)
    const owners = field === options.key ? found : index[field].getFolded(folded[field]);
    for (const owner of owners) {
      if (owner === user) continue;
      const owned = who(owner);
      reasons.push(
        user
          ? `The ${label} "${value}" belongs to ${owned}, but the ${LABEL[options.key]} finds ${who(user)}.`
          : `The ${label} "${value}" already belongs to ${owned}: creating would give two people the same ${label}.`,
      );
      if (!people.includes(owner)) people.push(owner);
    }
    // lower-cased again there: the same key
    const holder = heldUntilSent(options.queued, field, folded[field]);
    if (holder && holder !== user) {
      const held = who(holder);
      reasons.push(
        `Your queued change takes the ${label} "${value}" off ${held}, but it is not sent yet: send the Outbox first, then drop the file again.`,
      );
      if (!people.includes(holder)) people.push(holder);
    }
    const own = field !== 'username' || !row.derives;
    const rowsWith = otherRowsWith(inFile, field, folded[field], rowNumber, own);
    if (rowsWith.length > 0) {
      const rows = `row${rowsWith.length > 1 ? 's' : ''} ${rowsWith.slice(0, 5).join(', ')}`;
      const more = rowsWith.length > 5 ? '…' : '';
      reasons.push(`The ${label} "${value}" is also on ${rows}${more}.`);
      otherRows ??= new Set();
      for (const n of rowsWith) otherRows.add(n);
    }
  }
  lookAlikeReasons(index, emails, row, user, { people, reasons });
  heldElsewhere(index, v, folded, people, reasons);
  heldAtSitesNotKept(options.notKept, v, folded, reasons);
  return reasons.length > 0
    ? { rowNumber, action: 'conflict', reasons, people, rows: otherRows ? [...otherRows] : [] }
    : null;
}

/** A row that finds one person: only what differs from them as they will be once the queue is sent. */
function planUpdate(row: ImportRow, user: UserRecord, options: MatchOptions, emails: EmailsByUser): RowPlan {
  const { rowNumber, values: v } = row;
  // a person created offline (stand-in id < 0) is not on the platform yet: the row changes the queued person
  const queuedCreate = user.userid < 0 ? options.queued?.creates.get(user.userid) : undefined;
  if (user.userid < 0 && (!queuedCreate || options.mode === 'create')) {
    const then = queuedCreate ? ' (create only: nobody is updated)' : ': edit or discard it there';
    return {
      rowNumber,
      action: 'skipped',
      reason: `${who(user)} is already waiting in the Outbox to be created${then}.`,
      user,
    };
  }
  if (options.mode === 'create')
    return {
      rowNumber,
      action: 'skipped',
      reason: `Already on the site as ${who(user)} (create only: nobody is updated).`,
      user,
    };

  const changes: UserChanges = {};
  for (const field of ['firstname', 'lastname', 'status', 'username', 'employeeid'] as const) {
    const next = v[field];
    const same =
      field === 'username' || field === 'employeeid'
        ? next?.toLowerCase() === user[field].toLowerCase()
        : next === user[field];
    if (next && !same) changes[field] = next;
  }
  const emailAdded = v.email && !emails.get(user.userid)?.has(v.email.toLowerCase()) ? v.email : undefined;
  // setting back a username or id a queued change replaces is no change on the platform: an update, not an identity
  // change
  const renames = (field: 'username' | 'employeeid') =>
    changes[field] !== undefined && heldUntilSent(options.queued, field, changes[field]) !== user;
  const identity = renames('username') || (renames('employeeid') && user.employeeid !== '');
  const keeps = keptAssignments(options.extras, options.queued?.deletions, user.userid, v);
  if (Object.keys(changes).length === 0 && !emailAdded && !keeps)
    return { rowNumber, action: 'unchanged', user };
  const queued = emailAdded ? emailAgainstQueue(options.queued?.removedEmails, user.userid, emailAdded) : {};
  const kept = (['credential', 'course'] as const).filter((k) => keeps?.[k]);
  const undoes: OverriddenField[] = [
    ...queuedChangesUndone(user, changes),
    ...(queued.overrides ? (['email'] as const) : []),
    ...kept,
  ];
  const email = emailAdded ? { emailAdded, ...(queued.after ? { emailAfter: queued.after } : {}) } : {};
  return {
    rowNumber,
    action: identity ? 'identity' : 'update',
    user,
    changes,
    ...email,
    ...(undoes.length > 0 ? { undoes } : {}),
    ...(queuedCreate ? { queuedCreate } : {}),
    ...(keeps ? { keeps } : {}),
  };
}
