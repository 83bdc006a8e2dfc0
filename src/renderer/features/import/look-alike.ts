/**
 * Usernames and e-mails that look the same as another but are written with
 * other characters ("christopher.yоung" with a Cyrillic о beside
 * christopher.young): the platform takes them as two people. Compared by the
 * confusable skeleton of Unicode's UTS #39 (section 4): the text decomposed
 * (NFD), default-ignorable characters dropped, each character replaced by the
 * prototype Unicode's confusables.txt gives it, decomposed again. The mapping
 * is the `unhomoglyph` package's copy of confusables.txt (Unicode 13.0); the
 * package's own function skips both decompositions, so the skeleton is made
 * here (docs/decisions.md, "Look-alike usernames and e-mails"). Usernames and
 * e-mails are compared without regard to case, so the skeleton is lower-cased.
 * Pure.
 */
import prototypes from 'unhomoglyph/data.json';
import { withArticle } from '../../app/words.ts';

const PROTOTYPE: ReadonlyMap<string, string> = new Map(Object.entries(prototypes as Record<string, string>));

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const NOT_PRINTABLE_ASCII = /[^ -~]/;
/**
 * The printable ASCII characters confusables.txt maps to something else (0 → O, 1 → l, m → rn…): the only work an ASCII
 * value needs.
 */
const ASCII_PROTOTYPE: readonly (string | undefined)[] = Array.from({ length: 128 }, (_, code) => {
  const char = String.fromCharCode(code);
  return NOT_PRINTABLE_ASCII.test(char) ? undefined : PROTOTYPE.get(char);
});
const prototypeOf = (char: string) => PROTOTYPE.get(char) ?? char;

/** A printable ASCII value's skeleton: each mapped character replaced, by a table (a regex's callback cost more). */
function asciiSkeleton(value: string): string {
  let skeleton = '';
  let from = 0;
  for (let i = 0; i < value.length; i += 1) {
    const prototype = ASCII_PROTOTYPE[value.charCodeAt(i)];
    if (prototype === undefined) continue;
    skeleton += value.slice(from, i) + prototype;
    from = i + 1;
  }
  return from === 0 ? value : skeleton + value.slice(from);
}

/** The value's UTS #39 skeleton, lower-cased: two values with the same one look alike. */
export function lookAlikeKey(value: string): string {
  // most values are printable ASCII: no decomposition to do, and a few characters to map (a 100,000-person site is
  // indexed at each plan, and each row of a file looked up)
  if (!NOT_PRINTABLE_ASCII.test(value)) return asciiSkeleton(value).toLowerCase();
  let skeleton = '';
  for (const char of value.normalize('NFD').replace(IGNORABLE, '')) skeleton += prototypeOf(char);
  return skeleton.normalize('NFD').toLowerCase();
}

const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Cherokee',
  'Coptic',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Lisu',
  'Canadian_Aboriginal',
] as const;
const SCRIPT_TESTS = SCRIPTS.map(
  (name) => [name.replace('_', ' '), new RegExp(`^\\p{Script=${name}}$`, 'u')] as const,
);

/** "Cyrillic "о" (U+043E) at character 15": the first character of `value` not where `other` has it (1 = the first). */
function differingCharacter(value: string, other: string): string {
  const chars = Array.from(value);
  const others = Array.from(other.toLowerCase());
  let at = chars.findIndex((c, i) => c.toLowerCase() !== others[i]);
  // the same characters, in another number (m for rn): the first one that has a look-alike
  if (at < 0)
    at = Math.max(
      0,
      chars.findIndex((c) => lookAlikeKey(c) !== c.toLowerCase()),
    );
  const char = chars[at] ?? '';
  const script = SCRIPT_TESTS.find(([, test]) => test.test(char))?.[0];
  const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  return `${script ? `${script} ` : ''}"${char}" (${code}) at character ${at + 1}`;
}

/**
 * Why a row's value cannot be used, naming the character that differs. `rowPerson`: the row's person when it
 * is someone else than the owner (blank when the file names nobody); null when the row is the owner's own.
 */
export function lookAlikeReason(o: {
  label: string;
  value: string;
  theirs: string;
  owner: string;
  rowPerson: string | null;
}): string {
  const looks = `The ${o.label} "${o.value}"${o.rowPerson ? ` of ${o.rowPerson}` : ''} looks the same as`;
  const differs = `but is written with other characters (${differingCharacter(o.value, o.theirs)})`;
  const an = withArticle(o.label);
  return o.rowPerson === null
    ? `${looks} "${o.theirs}" of ${o.owner} ${differs}: the row would give them ${an} that only looks like their own. Correct the spreadsheet.`
    : `${looks} "${o.theirs}", the ${o.label} of ${o.owner}, ${differs}: the platform would take them for two people. If they are the same person, correct the spreadsheet; if not, choose ${an} that does not look like theirs.`;
}

/** Someone's username or e-mail, as they have it. */
export interface HeldValue<Person> {
  value: string;
  person: Person;
}

const NOBODY: readonly never[] = [];

/**
 * People by the look-alike key of their usernames and e-mails. Only values
 * whose key is not their own lower-cased text are kept here (those holding
 * 0, 1, m or a letter of another script): the others are found by their text.
 */
export class LookAlikeIndex<Person> {
  private readonly map = new Map<string, HeldValue<Person>[]>();
  /**
   * `known`, when given: a set this index adds each of its keys to, and which also holds every text `find`'s `byText`
   * finds someone by; a key it lacks then finds nobody without asking either (one lookup instead of three).
   */
  private readonly known: Set<string> | undefined;
  constructor(known?: Set<string>) {
    this.known = known;
  }
  add(value: string, person: Person): void {
    if (!value) return;
    const key = lookAlikeKey(value);
    if (key === value.toLowerCase()) return;
    this.known?.add(key);
    const list = this.map.get(key);
    if (!list) this.map.set(key, [{ value, person }]);
    else if (!list.some((held) => held.person === person && held.value === value))
      list.push({ value, person });
  }
  /**
   * The people holding a value that looks like this one but is written otherwise; `byText`: who holds a value written
   * as the key; `lower`: the value lower-cased, when the caller has it already.
   */
  find(
    value: string,
    byText: (key: string) => readonly HeldValue<Person>[],
    lower = value.toLowerCase(),
  ): readonly HeldValue<Person>[] {
    const key = lookAlikeKey(value);
    if (this.known?.has(key) === false) return NOBODY;
    const held = this.map.get(key);
    // most values look like nobody's: nothing is made for them
    const found = held ? held.filter((h) => h.value.toLowerCase() !== lower) : NOBODY;
    if (key === lower) return found;
    const byKey = byText(key);
    return found.length === 0 ? byKey : [...found, ...byKey];
  }
}
