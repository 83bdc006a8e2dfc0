/**
 * A record of the platform's answer that failed validation, in the
 * coordinator's words: "row 5, Maria Bailey: the e-mail address is not a valid
 * e-mail address". The record is named by what it is and, where the raw record
 * has one readable, by its name (a person by their name, else their username),
 * else by its id; the field by the shared table of field words; what is wrong
 * by zod's issue code. No route, API field name or zod message reaches the
 * user: the sync's message already says which list (sync/names.ts).
 */
import type { z } from 'zod';
import { schemas, type SchemaName } from '../../shared/api/wire.ts';
import { knownFieldInSentence } from '../../shared/field-words.ts';
import { MAX_FIELD_CHARS } from '../../shared/ipc-limits.ts';
import { nameInMessage } from '../sync/names.ts';
import { ApiError } from './errors.ts';

type Raw = Readonly<Record<string, unknown>>;
type Issue = z.core.$ZodIssue;

/** What is wrong when zod's issue says nothing a coordinator could use. */
const NOT_IN_FORM = 'is not in the form Fieldbook expects';

/** Allowed values listed in the message up to this many. */
const FEW_VALUES = 5;

/** A record the platform sent that could not be read: the page holding it is not used. */
export class UnreadableRecord extends ApiError {
  /** "row 5, Maria Bailey: the e-mail address is not a valid e-mail address" */
  readonly issue: string;

  /**
   * `message`: the sentence on its own (default: "The platform’s answer could not be read: <issue>. Nothing of it was
   * used.")
   */
  constructor(
    issue: string,
    httpcode?: number,
    message = `The platform’s answer could not be read: ${issue}. Nothing of it was used.`,
  ) {
    super(
      { code: 'malformed-response', message, ...(httpcode !== undefined ? { httpcode } : {}) },
      { retryable: false },
    );
    this.name = 'UnreadableRecord';
    this.issue = issue;
  }
}

/** What is wrong with an answer as a whole, in words: after "… could not be read: " (a list's) and on its own. */
const ANSWER_FAULTS = {
  'not-data': 'the platform’s answer was not in its data format (it may have been cut off on the way)',
  'no-list': 'the platform’s answer held no list where it always sends one',
} as const;

/**
 * An answer that cannot be read as a whole (not JSON, no list where the Data API
 * puts one): said like a record that cannot be read, without the route or the
 * API's key ("The groups of Riverside Plant could not be read: the platform’s
 * answer was not in its data format …"). Nothing of it is used.
 */
export function unreadableAnswer(fault: keyof typeof ANSWER_FAULTS, httpcode?: number): UnreadableRecord {
  const issue = ANSWER_FAULTS[fault];
  return new UnreadableRecord(
    issue,
    httpcode,
    `${issue.charAt(0).toUpperCase()}${issue.slice(1)}, so nothing of it was used.`,
  );
}

interface RecordKind {
  /** "a person", "an e-mail address" */
  one: string;
  /** the field whose value names the record as "(id 123)" when it has no readable name */
  id: string;
  /** the record's own id (a holder's `userid` is its person's, "the person") */
  ownId?: string;
  /** the field holding the record's own name: "the name" */
  nameField?: string;
  /** the record's readable name, from its raw fields */
  name?: (raw: Raw) => string | null;
  /** how a named record reads: "Maria Bailey", "the course “Forklift Safety”" */
  named?: (name: string) => string;
}

/** Text that may name a record: not one over the length limit (it may be what is wrong, and is not read). */
const naming = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= MAX_FIELD_CHARS;

const text = (raw: Raw, field: string): string | null => {
  const value = raw[field];
  return naming(value) ? nameInMessage(value) : null;
};

/** "Maria Bailey", else the username; null when neither is readable text. */
function personName(raw: Raw): string | null {
  const parts = [raw['firstname'], raw['lastname']].filter(naming);
  return nameInMessage(parts.join(' ')) ?? text(raw, 'username');
}

/** A person, named by their name; a holder's `userid` is not its own id but its person's ("the id of the person"). */
const person = (one = 'a person', ownId: string | null = 'userid'): RecordKind => ({
  one,
  id: 'userid',
  ...(ownId !== null ? { ownId } : {}),
  name: personName,
  named: (name) => name,
});

function called(noun: string, id: string, nameField: string): RecordKind {
  const one = `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
  return {
    one,
    id,
    ownId: id,
    nameField,
    name: (raw) => text(raw, nameField),
    named: (name) => `the ${noun} “${name}”`,
  };
}

/** One noun per wire schema. */
const KINDS: Readonly<Record<SchemaName, RecordKind>> = {
  site: called('site', 'siteid', 'sitename'),
  user: person(),
  groupMember: person(),
  accessUser: person(),
  email: { one: 'an e-mail address', id: 'emailid', ownId: 'emailid' },
  profileCategory: called('profile category', 'categoryid', 'categoryname'),
  group: called('group', 'groupid', 'groupname'),
  module: called('feature', 'accessID', 'moduleName'),
  credentialCategory: called('credential category', 'categoryid', 'categoryname'),
  credential: called('credential', 'credentialid', 'credentialname'),
  credentialAssignment: person('a holder', null),
  course: called('course', 'courseid', 'coursename'),
  trainingAssignment: {
    one: 'a training assignment',
    id: 'transcriptid',
    ownId: 'transcriptid',
    name: personName,
    named: (name) => `the training assignment of ${name}`,
  },
};

/** Where the table's label (a column's heading) reads short inside this sentence. */
const IN_THIS_SENTENCE: Readonly<Record<string, string>> = {
  email: 'e-mail address',
  emailid: 'id of an e-mail address',
  course_name: 'name of the course',
  assignment_method: 'method of assignment',
  assignment_created_date: 'date it was assigned',
};

/** Fields named in the plural: "the notes are …". */
const PLURAL: ReadonlySet<string> = new Set(['links', 'notes', 'requirements']);

/** Fields that give another record by its id ("the id of the site"): the table names the record ("Site"). */
const REFERENCES: ReadonlySet<string> = new Set([
  'userid',
  'siteid',
  'categoryid',
  'groupid',
  'courseid',
  'credentialid',
  'accessID',
  'transcriptid',
]);

const isRaw = (value: unknown): value is Raw =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** An id as the platform numbers records (a positive integer, maybe sent as text), else null: a bad id is not shown. */
function readableId(value: unknown): string | null {
  const id = typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? String(id) : null;
}

/** "Maria Bailey", "the course “Forklift Safety”", "a person (id 123)", "a person". */
function recordInWords(kind: RecordKind, raw: Raw): string {
  const name = kind.name?.(raw);
  if (name && kind.named) return kind.named(name);
  const id = readableId(raw[kind.id]);
  return id === null ? kind.one : `${kind.one} (id ${id})`;
}

function wordsFor(kind: RecordKind, field: string, topLevel: boolean): string | null {
  if (topLevel && field === kind.ownId) return 'the id';
  if (topLevel && field === kind.nameField) return 'the name';
  const words = IN_THIS_SENTENCE[field] ?? knownFieldInSentence(field);
  if (words === null) return null;
  return REFERENCES.has(field) ? `the id of the ${words}` : `the ${words}`;
}

/**
 * The field an issue is about, in words ("the e-mail address", "the id", "the
 * name"): the deepest the table knows, and whether the issue is about its value
 * itself or an item of its list (else about something inside it: "the
 * links", whose keys are not fields). A field the table does not know is named
 * by a sentence that does not pretend.
 */
function fieldOf(
  kind: RecordKind,
  path: readonly PropertyKey[],
): { words: string; key: string; topLevel: boolean; itself: boolean } {
  const keys = path.flatMap((key, at) => (typeof key === 'string' ? [{ key, at }] : []));
  const [top] = keys;
  if (!top) return { words: 'the record', key: '', topLevel: false, itself: true };
  for (const { key, at } of keys.toReversed()) {
    const words = wordsFor(kind, key, at === 0);
    if (words !== null)
      return {
        words,
        key,
        topLevel: at === 0,
        itself: path.slice(at + 1).every((k) => typeof k === 'number'),
      };
  }
  const words = naming(top.key)
    ? `a value the platform calls “${nameInMessage(top.key) ?? '?'}”`
    : 'the name of a field';
  return { words, key: top.key, topLevel: top.at === 0, itself: keys.length === 1 };
}

/** zod's word for what a union's member or a type check expected. */
function expected(issue: Issue | undefined): string {
  if (issue?.code === 'invalid_type') return issue.expected;
  // a format is one of text (an integer sent as text: wire.ts)
  if (issue?.code === 'invalid_format') return 'string';
  return issue?.code ?? '';
}

/** What a value that is none of these types is not: "is not text", "is not a number". */
function notOfType(types: readonly string[]): string {
  const has = (type: string) => types.includes(type);
  // free text accepts text, numbers and null: a value none of those is not text
  if (has('string') && has('null')) return 'is not text';
  if (has('boolean')) return 'is not yes or no';
  if (has('int')) return 'is not a whole number';
  if (has('number')) return 'is not a number';
  if (has('string')) return 'is not text';
  if (has('date')) return 'is not a date';
  return NOT_IN_FORM;
}

const FORMATS: Readonly<Record<string, string>> = {
  email: 'is not a valid e-mail address',
  date: 'is not a date',
  datetime: 'is not a date and time',
  time: 'is not a time of day',
};

function allowedValues(values: readonly unknown[]): string {
  const shown = values.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  if (shown.length === 0 || shown.length > FEW_VALUES || shown.length < values.length)
    return 'is not one of the allowed values';
  return `is not one of the allowed values (${shown.map((v) => `“${nameInMessage(String(v)) ?? ''}”`).join(', ')})`;
}

function isZeroOrLess(value: unknown): boolean {
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && n <= 0;
}

/**
 * What is wrong with a value, from zod's issue about it: "is missing", "is not
 * a number", "is not a date", "is not text", "is too long (at most 80
 * characters)", "is not a valid e-mail address", "is not one of the allowed
 * values (“Active”, “Inactive”)", else "is not in the form Fieldbook expects".
 * `mayBeAbsent`: the field may be left out (a null is then not "missing").
 */
export function problemInWords(issue: Issue, value: unknown, mayBeAbsent = false): string {
  // said of a field's name too (the length limit: field-length.ts), whatever its value
  if (issue.code === 'too_big' && issue.origin === 'string')
    return `is too long (at most ${Number(issue.maximum).toLocaleString('en-US')} characters)`;
  // null is how the platform leaves a value out; where leaving it out is fine, null is a value of the wrong type
  if (value === undefined || (value === null && !mayBeAbsent)) return 'is missing';
  switch (issue.code) {
    case 'invalid_type':
      return notOfType([issue.expected]);
    case 'invalid_union':
      return notOfType(issue.errors.map((branch) => expected(branch[0])));
    case 'invalid_format':
      return FORMATS[issue.format] ?? NOT_IN_FORM;
    case 'too_big':
      return NOT_IN_FORM;
    case 'invalid_value':
      return allowedValues(issue.values);
    case 'custom':
      // the one refinement of the wire schemas: an id is a positive number
      return isZeroOrLess(value) ? 'is not a positive number' : NOT_IN_FORM;
    default:
      return NOT_IN_FORM;
  }
}

/**
 * The issue that says most: inside a union whose one member matched the
 * value's shape (an e-mail given as an object), that member's issue about one
 * of its fields, with the path to it.
 */
function innermost(
  issue: Issue,
  path: readonly PropertyKey[],
): { issue: Issue; path: readonly PropertyKey[] } {
  if (issue.code !== 'invalid_union') return { issue, path };
  const deeper = issue.errors
    .map((branch) => branch[0])
    .filter((sub): sub is Issue => sub !== undefined && sub.path.length > 0);
  const [only] = deeper;
  return deeper.length === 1 && only ? innermost(only, [...path, ...only.path]) : { issue, path };
}

/** The record may leave this field out. */
function mayBeAbsent(schema: SchemaName, field: string): boolean {
  const shape: Readonly<Record<string, z.ZodType>> = schemas[schema].shape;
  return shape[field]?.safeParse(undefined).success ?? false;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * The first bad record of a list, in words: its row (counted from startrow,
 * `indexInList` mapping an index of the validated subset back to the list),
 * the record, the field, what is wrong.
 */
export function recordIssue(
  error: z.ZodError,
  list: readonly unknown[],
  schema: SchemaName,
  startrow: number,
  indexInList?: (i: number) => number,
): string {
  const first = error.issues[0];
  const at = typeof first?.path[0] === 'number' ? first.path[0] : null;
  if (!first || at === null) return `the list ${NOT_IN_FORM}`;
  const index = indexInList ? indexInList(at) : at;
  const row = `row ${startrow + index}`;
  const raw = list[index];
  if (raw === undefined || raw === null) return `${row} is empty`;
  const kind = KINDS[schema];
  if (!isRaw(raw)) return `${row} is not ${kind.one} Fieldbook can read`;
  const { issue, path } = innermost(first, first.path.slice(1));
  const field = fieldOf(kind, path);
  // a text over the length limit is too long wherever it sits (a link, a key inside an extra field)
  const problem =
    field.itself || issue.code === 'too_big'
      ? problemInWords(issue, valueAt(raw, path), field.topLevel && mayBeAbsent(schema, field.key))
      : NOT_IN_FORM;
  const record = recordInWords(kind, raw);
  const agreed = PLURAL.has(field.key) ? problem.replace(/^is /, 'are ') : problem;
  return `${row}, ${record}: ${field.words} ${agreed}`;
}
