/** Usernames, e-mails and employee ids: clean, or refused with the character named. */
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../shared/records.ts';
import { emailsByUser, planImport, type RowPlan } from './match.ts';
import { rowsOf } from './rows.ts';
import { guessMapping } from './mapping.ts';
import type { MatchKey } from './match.ts';

const ann: UserRecord = { userid: 7, siteid: 101, username: 'ann.lee', firstname: 'Ann', lastname: 'Lee', employeeid: '004711', status: 'Active', usertype: 'User', searchKeys: [], sortName: '' };
const emails = emailsByUser([{ emailid: 1, userid: 7, email: 'ann@example.com', status: 'Active', isprimary: null }]);
const HEADERS = ['Username', 'First name', 'Last name', 'Employee ID', 'E-mail'];

/** One row of a file with these cells, planned against Ann. */
function planCells(cells: string[], key: MatchKey = 'username'): RowPlan {
  const sheet = { headers: HEADERS, headerRowNumber: 1, rows: [{ rowNumber: 2, cells }], warnings: [] };
  return planImport(rowsOf(sheet, guessMapping(HEADERS)), [ann], 101, emails, { key, mode: 'upsert' })[0]!;
}
const errorsOf = (plan: RowPlan) => (plan.action === 'invalid' ? plan.errors.join(' ') : `planned as ${plan.action}`);

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
    expect(errorsOf(planCells(['ann.lee', 'Ann', 'Lee', '', 'ann@exam\u200bple.com']))).toContain('E-mail "ann@example.com" holds a zero-width space (U+200B) at character 9');
  });

  it('refuses an employee id with a soft hyphen or a right-to-left override', () => {
    expect(errorsOf(planCells(['ann.lee', 'Ann', 'Lee', '00\u00ad4711', ''], 'employeeid'))).toContain('Employee ID "004711" holds a soft hyphen (U+00AD) at character 3');
    expect(errorsOf(planCells(['ann.lee', 'Ann', 'Lee', '\u202e004711', ''], 'employeeid'))).toContain('right-to-left override (U+202E) at character 1');
  });

  it('trims no-break and other spaces around the values, so Ann is found and left unchanged', () => {
    expect(planCells(['\u00a0ann.lee\u3000', 'Ann', 'Lee', '004711\u00a0', '\u2007ann@example.com\u00a0']).action).toBe('unchanged');
  });

  it('composes accents (NFC): a decomposed "José" is the same name as a composed one', () => {
    const plan = planCells(['jose', 'Jose\u0301', 'Lee', '', '']);
    expect(plan.action === 'create' && plan.values.firstname).toBe('Jos\u00e9');
  });
});

describe('e-mail addresses as the platform checks them', () => {
  it.each(['ann@example', 'ann lee@example.com', 'ann@exa,mple.com', '<ann@example.com>', 'ann@@example.com'])('refuses "%s"', (email) => {
    expect(errorsOf(planCells(['ann.lee', 'Ann', 'Lee', '', email]))).toContain('is not an e-mail address the platform accepts');
  });

  it('accepts an address with accents, as the platform does', () => {
    expect(planCells(['ann.lee', 'Ann', 'Lee', '', 'zoë@exämple.com'])).toMatchObject({ action: 'update', emailAdded: 'zoë@exämple.com' });
  });

  it('refuses a username with a space inside, which the platform refuses', () => {
    expect(errorsOf(planCells(['ann lee', 'Ann', 'Lee', '', '']))).toContain('the platform refuses usernames with spaces');
  });
});
