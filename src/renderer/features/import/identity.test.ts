/** Usernames, e-mails and employee ids: clean, or refused with the character named. */
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../shared/records.ts';
import { emailsByUser, planImport, type RowPlan } from './match.ts';
import { identityErrors } from './identity.ts';
import { rowsOf } from './rows.ts';
import { guessMapping } from './mapping.ts';
import type { MatchKey } from './match.ts';

const ann: UserRecord = {
  userid: 7,
  siteid: 101,
  username: 'ann.lee',
  firstname: 'Ann',
  lastname: 'Lee',
  employeeid: '004711',
  status: 'Active',
  usertype: 'User',
  searchKeys: [],
  sortName: '',
};
const emails = emailsByUser([
  { emailid: 1, userid: 7, email: 'ann@example.com', status: 'Active', isprimary: null },
]);
const HEADERS = ['Username', 'First name', 'Last name', 'Employee ID', 'E-mail'];

/** One row of a file with these cells, planned against Ann. */
function planCells(cells: string[], key: MatchKey = 'username'): RowPlan {
  const sheet = { headers: HEADERS, headerRowNumber: 1, rows: [{ rowNumber: 2, cells }], warnings: [] };
  return planImport(rowsOf(sheet, guessMapping(HEADERS)), [ann], 101, emails, { key, mode: 'upsert' })[0]!;
}
const errorsOf = (plan: RowPlan) =>
  plan.action === 'invalid' ? plan.errors.join(' ') : `planned as ${plan.action}`;

describe('invisible characters in what identifies a person', () => {
  it('refuses a username ending in a zero-width space, naming the character and where it is, instead of creating a near-duplicate of Ann', () => {
    const plan = planCells(['ann.lee\u200b', 'Ann', 'Lee', '', '']);
    expect(plan.action).toBe('invalid');
    expect(errorsOf(plan)).toContain('Username "ann.lee" holds a zero-width space (U+200B) at character 8');
  });

  it.each([
    ['a soft hyphen', 'ann\u00adlee', 'soft hyphen (U+00AD) at character 4'],
    ['a right-to-left override', '\u202eeel.nna', 'right-to-left override (U+202E) at character 1'],
    ['a no-break space inside', 'ann\u00a0lee', 'no-break space (U+00A0) at character 4'],
  ])('refuses a username with %s', (_, username, named) => {
    expect(errorsOf(planCells([username, 'Ann', 'Lee', '', '']))).toContain(named);
  });

  it('refuses an e-mail address holding a zero-width space, which the platform would otherwise take as a new address', () => {
    expect(errorsOf(planCells(['ann.lee', 'Ann', 'Lee', '', 'ann@exam\u200bple.com']))).toContain(
      'E-mail "ann@example.com" holds a zero-width space (U+200B) at character 9',
    );
  });

  it('refuses an employee id with a soft hyphen or a right-to-left override', () => {
    expect(errorsOf(planCells(['ann.lee', 'Ann', 'Lee', '00\u00ad4711', ''], 'employeeid'))).toContain(
      'Employee ID "004711" holds a soft hyphen (U+00AD) at character 3',
    );
    expect(errorsOf(planCells(['ann.lee', 'Ann', 'Lee', '\u202e004711', ''], 'employeeid'))).toContain(
      'right-to-left override (U+202E) at character 1',
    );
  });

  it.each([
    ['a combining grapheme joiner', '\u034f', 'combining grapheme joiner (U+034F)'],
    ['a Hangul filler', '\u3164', 'Hangul filler (U+3164)'],
    ['a blank Braille pattern', '\u2800', 'blank Braille pattern (U+2800)'],
    ['a Hangul choseong filler', '\u115f', 'Hangul choseong filler (U+115F)'],
    ['a Hangul jungseong filler', '\u1160', 'Hangul jungseong filler (U+1160)'],
    ['a half-width Hangul filler', '\uffa0', 'half-width Hangul filler (U+FFA0)'],
    ['a variation selector', '\ufe0f', 'invisible character (U+FE0F)'],
    ['a Khmer inherent vowel', '\u17b4', 'invisible character (U+17B4)'],
  ])(
    'refuses %s inside a username, an e-mail or an employee id, naming the field and the character',
    (_, char, named) => {
      expect(errorsOf(planCells([`ann${char}.lee`, 'Ann', 'Lee', '', '']))).toContain(
        `Username "ann.lee" holds a ${named} at character 4`,
      );
      expect(errorsOf(planCells(['ann.lee', 'Ann', 'Lee', '', `ann${char}@example.com`]))).toContain(
        `E-mail "ann@example.com" holds a ${named} at character 4`,
      );
      expect(errorsOf(planCells(['ann.lee', 'Ann', 'Lee', `0047${char}11`, ''], 'employeeid'))).toContain(
        `Employee ID "004711" holds a ${named} at character 5`,
      );
    },
  );

  it('refuses every default-ignorable code point and the blank fillers in each identifying field', () => {
    const ignorable = /\p{Default_Ignorable_Code_Point}/u;
    const passed: string[] = [];
    for (let code = 0; code <= 0x10ffff; code += 1) {
      const char = String.fromCodePoint(code);
      if (!ignorable.test(char) && code !== 0x2800) continue;
      for (const field of ['username', 'email', 'employeeid'] as const) {
        const value = field === 'email' ? `a${char}b@example.com` : `a${char}b`;
        if (identityErrors({ [field]: value }).length === 0) passed.push(`${field} U+${code.toString(16)}`);
      }
    }
    expect(passed).toEqual([]);
  });

  it('refuses a username that is nothing but a Hangul filler, which would look blank', () => {
    expect(errorsOf(planCells(['\u3164', 'Ann', 'Lee', '', '']))).toContain(
      'Username "" holds a Hangul filler (U+3164) at character 1',
    );
  });

  it('trims no-break and other spaces around the values, so Ann is found and left unchanged', () => {
    expect(
      planCells(['\u00a0ann.lee\u3000', 'Ann', 'Lee', '004711\u00a0', '\u2007ann@example.com\u00a0']).action,
    ).toBe('unchanged');
  });

  it('composes accents (NFC): a decomposed "José" is the same name as a composed one', () => {
    const plan = planCells(['jose', 'Jose\u0301', 'Lee', '', '']);
    expect(plan.action === 'create' && plan.values.firstname).toBe('Jos\u00e9');
  });
});

describe('e-mail addresses as the platform checks them', () => {
  it.each([
    'ann@example',
    'ann lee@example.com',
    'ann@exa,mple.com',
    '<ann@example.com>',
    'ann@@example.com',
  ])('refuses "%s"', (email) => {
    expect(errorsOf(planCells(['ann.lee', 'Ann', 'Lee', '', email]))).toContain(
      'is not an e-mail address the platform accepts',
    );
  });

  it('accepts an address with accents, as the platform does', () => {
    expect(planCells(['ann.lee', 'Ann', 'Lee', '', 'zoë@exämple.com'])).toMatchObject({
      action: 'update',
      emailAdded: 'zoë@exämple.com',
    });
  });

  it('refuses a username with a space inside, which the platform refuses', () => {
    expect(errorsOf(planCells(['ann lee', 'Ann', 'Lee', '', '']))).toContain(
      'the platform refuses usernames with spaces',
    );
  });
});
