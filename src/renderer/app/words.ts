/**
 * The coordinator's words for the platform's field names, and plural forms.
 * One table for every view that names a field (conflicts, Outbox, Inspect, undo,
 * previews, import columns): a raw API name is never shown to a person. The
 * table itself is in src/shared/field-words.ts, which main uses too.
 */

export { fieldLabel, fieldInSentence, RAW_FIELD_NAMES } from '../../shared/field-words.ts';

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

/**
 * A list's count line: "1,234 holders", or "500 of 1,234 holders (scroll for more)" while
 * only the first pages are read. The noun is what a row is to the coordinator, never
 * the platform's word for it ("assignment").
 */
export function listCount(shown: number, total: number, one: string, other?: string): string {
  const counted = plural(total, one, other);
  return shown < total ? `${new Intl.NumberFormat().format(shown)} of ${counted} (scroll for more)` : counted;
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
