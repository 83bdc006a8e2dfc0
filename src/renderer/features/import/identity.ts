/**
 * Usernames, e-mail addresses and employee ids are what find a person: a value
 * that looks the same as another but holds an invisible character would make a
 * near-duplicate person. Each is normalised (NFC, whitespace of every kind
 * trimmed from its ends); any invisible, format or control character left
 * inside is refused, named with its position. E-mails are checked as the
 * platform checks them. Pure.
 */
import { FIELD_LABELS } from './mapping.ts';

/**
 * Characters a person cannot see: format (Cf), control (Cc), separators other than the plain space, every
 * Default_Ignorable_Code_Point (the combining grapheme joiner, variation selectors, the Hangul fillers U+115F,
 * U+1160, U+3164 and U+FFA0, which fonts draw as nothing), and the blank Braille pattern U+2800, which is not
 * ignorable but is drawn blank.
 */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]|(?! )\p{Zs}/u;

const NAMES: Readonly<Record<number, string>> = {
  0x00a0: 'no-break space',
  0x00ad: 'soft hyphen',
  0x034f: 'combining grapheme joiner',
  0x061c: 'Arabic letter mark',
  0x180e: 'Mongolian vowel separator',
  0x2007: 'figure space',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x202f: 'narrow no-break space',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0x3000: 'ideographic space',
  0xfeff: 'zero-width no-break space (byte-order mark)',
  0x115f: 'Hangul choseong filler',
  0x1160: 'Hangul jungseong filler',
  0x2800: 'blank Braille pattern',
  0x3164: 'Hangul filler',
  0xffa0: 'half-width Hangul filler',
  0x0009: 'tab',
  0x000a: 'line break',
  0x000d: 'carriage return',
};

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** "zero-width space (U+200B)"; an unnamed one by its kind. */
function describeCharacter(char: string): string {
  const code = char.codePointAt(0)!;
  const kind = /\p{Cc}/u.test(char)
    ? 'control character'
    : /\p{Z}/u.test(char)
      ? 'space character'
      : /\p{Cf}/u.test(char)
        ? 'invisible formatting character'
        : 'invisible character';
  return `${NAMES[code] ?? kind} (${hex(code)})`;
}

/** The value as it is compared and sent: composed (NFC), without whitespace of any kind at its ends. */
export function normalizeIdentity(value: string): string {
  return value.normalize('NFC').trim();
}

/**
 * Why a value holds an invisible character, naming the first one and where it stands (1 = the first character); null
 * when it holds none.
 */
function invisibleCharacter(label: string, value: string): string | null {
  if (!INVISIBLE.test(value)) return null;
  const chars = Array.from(value);
  const at = chars.findIndex((c) => INVISIBLE.test(c));
  const shown = chars
    .filter((c) => !INVISIBLE.test(c))
    .join('')
    .slice(0, 40);
  const others = chars.filter((c) => INVISIBLE.test(c)).length - 1;
  const character = describeCharacter(chars[at]!);
  const position = at + 1;
  const more = others > 0 ? ` (and ${others} more invisible character${others > 1 ? 's' : ''})` : '';
  return `${label} "${shown}" holds a ${character} at character ${position}${more}: it would look the same as a value without it. Delete it in the spreadsheet and save the file again.`;
}

/** The platform's own check of an address (and its length limit): what it would refuse, refused here first. */
const PLATFORM_EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
const EMAIL_MAX = 320;

/** What is wrong with a row's username, e-mail and employee id (values already normalised). */
export function identityErrors(
  values: Partial<Record<'username' | 'email' | 'employeeid', string>>,
): string[] {
  const errors: string[] = [];
  for (const field of ['username', 'email', 'employeeid'] as const) {
    const value = values[field];
    const invisible = value ? invisibleCharacter(FIELD_LABELS[field], value) : null;
    if (invisible) errors.push(invisible);
    else if (field === 'username' && value?.includes(' '))
      errors.push(
        `Username "${value.slice(0, 40)}" holds a space: the platform refuses usernames with spaces.`,
      );
    else if (field === 'email' && value && !(value.length <= EMAIL_MAX && PLATFORM_EMAIL.test(value)))
      errors.push(`"${value.slice(0, 60)}" is not an e-mail address the platform accepts.`);
  }
  return errors;
}
