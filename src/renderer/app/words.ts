/**
 * The coordinator's words for the platform's field names, and plural forms.
 * One table for every view that names a field (conflicts, Outbox, Inspect, undo,
 * previews, import columns): a raw API name is never shown to a person.
 */

const FIELD_LABELS: Readonly<Record<string, string>> = {
  userid: 'Person',
  siteid: 'Site',
  username: 'Username',
  firstname: 'First name',
  lastname: 'Last name',
  employeeid: 'Employee ID',
  status: 'Status',
  usertype: 'User type',
  email: 'E-mail',
  emailid: 'E-mail',
  isprimary: 'Primary e-mail',
  groupid: 'Group',
  groupname: 'Group',
  categoryid: 'Category',
  accessID: 'Feature',
  credentialid: 'Credential',
  credentialname: 'Credential',
  startdate: 'Start date',
  expirationdate: 'Expiration date',
  credentialnumber: 'Credential number',
  notes: 'Notes',
  courseid: 'Course',
  coursename: 'Course',
  course_name: 'Course',
  course_status: 'Training status',
  start_date: 'Start date',
  start_time: 'Start time',
  due_date: 'Due date',
  due_time: 'Due time',
  assignment_method: 'Assigned by',
  transcriptid: 'Training assignment',
  // the names outbox ops use for training fields, and the others they change
  duedate: 'Due date',
  coursestatus: 'Training status',
  assignmentmethod: 'Assigned by',
  password: 'Password',
  /** the record as a whole (is it there at all?), in conflicts and the undo preview */
  record: 'Record',
};

/** "expirationdate" → "Expiration date"; an unknown name is made readable rather than shown raw. */
export function fieldLabel(field: string): string {
  const known = FIELD_LABELS[field];
  if (known !== undefined) return known;
  const spaced = field
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A field's label inside a sentence: "status", "first name", "employee ID" (acronyms keep their capitals). */
export function fieldInSentence(field: string): string {
  return fieldLabel(field).replace(/\b([A-Z])(?=[a-z-])/g, (letter) => letter.toLowerCase());
}

/** Every raw field name the table knows (for the test that no view shows one). */
export const RAW_FIELD_NAMES: readonly string[] = Object.keys(FIELD_LABELS);

const pluralRules = new Map<string, Intl.PluralRules>();

function rules(locale: string | undefined): Intl.PluralRules {
  const key = locale ?? '';
  let r = pluralRules.get(key);
  if (!r) {
    r = new Intl.PluralRules(locale ?? 'en');
    pluralRules.set(key, r);
  }
  return r;
}

/**
 * "1 change", "3 changes", "1,204 changes": the count formatted in the locale, the noun
 * chosen by `Intl.PluralRules` (`other` defaults to the noun + "s").
 */
export function plural(n: number, one: string, other: string = `${one}s`, locale?: string): string {
  const word = rules(locale).select(n) === 'one' ? one : other;
  return `${new Intl.NumberFormat(locale).format(n)} ${word}`;
}

/** "a person", "an e-mail": the indefinite article for an English noun phrase. */
export function withArticle(noun: string): string {
  return /^(?:[aeiou]|e-)/i.test(noun) && !/^(?:user|uni|euro|one)/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/**
 * A record the cache does not hold (another site's person, a record removed since): named by what it is,
 * never by its internal id ("user 10179" means nothing to a coordinator).
 */
export const NOT_ON_THIS_LAPTOP = {
  person: 'a person not on this laptop',
  credential: 'a credential not on this laptop',
  course: 'a course not on this laptop',
  training: 'a training assignment not on this laptop',
  group: 'a group not on this laptop',
  feature: 'a feature not on this laptop',
  email: 'an e-mail address not on this laptop',
  site: 'a site not on this laptop',
} as const;

/** A record on this laptop whose name the platform sent empty: named by what it is, never by its id. */
export const NO_NAME = {
  course: 'a course with no name',
} as const;

/** "Ann Lee's Rigging"; "Rigging of a person not on this laptop" (a possessive after an unknown reads badly). */
export function ownedBy(owner: string, thing: string): string {
  return owner === NOT_ON_THIS_LAPTOP.person ? `${thing} of ${owner}` : `${owner}'s ${thing}`;
}
