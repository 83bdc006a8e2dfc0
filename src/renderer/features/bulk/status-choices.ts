/**
 * The statuses an assignment's edit form offers: those the platform is known to
 * accept (spec/data-api-v1.md: a credential assignment's status is "active";
 * spec/api-notes.md: a course status is active, completed or inactive), in the
 * coordinator's words, sent as the platform writes them. A record's own value
 * that is none of those stays first, as it is: opening the form and queueing a
 * date never changes it. Pure.
 */
export const CREDENTIAL_ASSIGNMENT_STATUSES = ['active'] as const;
export const COURSE_STATUSES = ['active', 'completed', 'inactive'] as const;

const WORDS: Readonly<Record<string, string>> = {
  active: 'Active',
  completed: 'Completed',
  inactive: 'Inactive',
};

/** "active" → "Active"; an unknown value as it is, with a capital; none: "(none)". */
export function statusWords(value: string): string {
  const known = WORDS[value.trim().toLowerCase()];
  if (known) return known;
  const shown = value.trim();
  return shown ? shown.charAt(0).toUpperCase() + shown.slice(1) : '(none)';
}

export interface StatusChoice {
  value: string;
  label: string;
}

/**
 * The choices for a record whose status is `current`: the known statuses, the record's own first when it is none of
 * them.
 */
export function statusChoices(known: readonly string[], current: string): StatusChoice[] {
  const choices = known.map((value) => ({ value, label: statusWords(value) }));
  // "Active" and "active" are the same status: the record's spelling is kept, so nothing changes unasked
  const same = known.find((value) => value.toLowerCase() === current.trim().toLowerCase());
  if (same) return choices.map((c) => (c.value === same ? { ...c, value: current } : c));
  return [{ value: current, label: statusWords(current) }, ...choices];
}
