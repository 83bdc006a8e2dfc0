/** Usernames and e-mails that only look like someone's: a conflict naming both people, never a new person. */
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../shared/records.ts';
import { emailsByUser, planImport, type MatchKey, type RowPlan, type RowValues } from './match.ts';
import { LookAlikeIndex, lookAlikeKey, type HeldValue } from './look-alike.ts';

const person = (
  userid: number,
  siteid: number,
  username: string,
  firstname: string,
  lastname: string,
  employeeid: string,
): UserRecord => ({
  userid,
  siteid,
  username,
  firstname,
  lastname,
  employeeid,
  status: 'Active',
  usertype: 'User',
  searchKeys: [],
  sortName: '',
});
const christopher = person(7, 101, 'christopher.young', 'Christopher', 'Young', 'E7');
const marta = person(8, 101, 'marta.ruiz', 'Marta', 'Ruiz', 'E8');
const dee = person(20, 102, 'dee.fox', 'Dee', 'Fox', 'E20');
const emails = emailsByUser([
  { emailid: 1, userid: 7, email: 'christopher.young@example.com', status: 'Active', isprimary: null },
  { emailid: 2, userid: 20, email: 'dee.fox@example.com', status: 'Active', isprimary: null },
]);
/** The Cyrillic small letter o, which looks like the Latin o. */
const CYRILLIC_O = '\u043e';

function planRow(values: RowValues, key: MatchKey = 'username'): RowPlan {
  return planImport([{ rowNumber: 2, values }], [christopher, marta, dee], 101, emails, {
    key,
    mode: 'upsert',
  })[0]!;
}
const reasonsOf = (plan: RowPlan) =>
  plan.action === 'conflict' ? plan.reasons.join(' ') : `planned as ${plan.action}`;

describe('the look of a value (UTS #39 skeleton)', () => {
  it('is the same for a Latin and a Cyrillic o, and for m and rn', () => {
    expect(lookAlikeKey(`christopher.y${CYRILLIC_O}ung`)).toBe(lookAlikeKey('christopher.young'));
    expect(lookAlikeKey('rnarta.ruiz')).toBe(lookAlikeKey('marta.ruiz'));
  });

  it('does not depend on case, on how an accent is composed, or on an invisible character', () => {
    expect(lookAlikeKey('Christopher.YOUNG')).toBe(lookAlikeKey('christopher.young'));
    expect(lookAlikeKey('jos\u00e9')).toBe(lookAlikeKey('jose\u0301'));
    expect(lookAlikeKey('ann\u034f.lee')).toBe(lookAlikeKey('ann.lee'));
  });

  it('tells apart values that do not look alike', () => {
    expect(lookAlikeKey('christopher.young')).not.toBe(lookAlikeKey('christopher.yang'));
    expect(lookAlikeKey('jos\u00e9')).not.toBe(lookAlikeKey('jose'));
  });
});

describe('a username or e-mail that only looks like an existing one', () => {
  it('is a conflict naming both people, never a new person beside christopher.young', () => {
    const plan = planRow({
      username: `christopher.y${CYRILLIC_O}ung`,
      firstname: 'Christopher',
      lastname: 'Young',
    });
    expect(plan).toMatchObject({ action: 'conflict', people: [christopher] });
    expect(reasonsOf(plan)).toContain(
      `The username "christopher.y${CYRILLIC_O}ung" of Christopher Young looks the same as "christopher.young", the username of Christopher Young (christopher.young, employee ID E7)`,
    );
    // the character that differs, named by its script and code
    expect(reasonsOf(plan)).toContain(`Cyrillic "${CYRILLIC_O}" (U+043E) at character 14`);
  });

  it('is a conflict for a look-alike e-mail on a new person', () => {
    const plan = planRow({
      username: 'chris.young',
      firstname: 'Chris',
      lastname: 'Young',
      email: `christopher.y${CYRILLIC_O}ung@example.com`,
    });
    expect(plan).toMatchObject({ action: 'conflict', people: [christopher] });
    expect(reasonsOf(plan)).toContain(
      'looks the same as "christopher.young@example.com", the e-mail of Christopher Young',
    );
  });

  it('is a conflict when it looks like the username of someone on another site the cache keeps', () => {
    expect(planRow({ username: `dee.f${CYRILLIC_O}x`, firstname: 'Dee', lastname: 'Fox' })).toMatchObject({
      action: 'conflict',
      people: [dee],
    });
  });

  it('is a conflict when written with ASCII look-alikes (rn for m)', () => {
    expect(planRow({ username: 'rnarta.ruiz', firstname: 'Marta', lastname: 'Ruiz' })).toMatchObject({
      action: 'conflict',
      people: [marta],
    });
  });

  it('names everyone it looks like: one written with other look-alikes and one written as its look', () => {
    // the Cyrillic а: looks like marta.ruiz (m is rn to the eye) and like rnarta.ruiz, written as it looks
    const rnarta = person(9, 101, 'rnarta.ruiz', 'Rn', 'Arta', 'E9');
    const [plan] = planImport(
      [{ rowNumber: 2, values: { username: 'm\u0430rta.ruiz', firstname: 'Marta', lastname: 'Ruiz' } }],
      [christopher, marta, rnarta],
      101,
      emails,
      { key: 'username', mode: 'upsert' },
    );
    expect(plan).toMatchObject({ action: 'conflict', people: [marta, rnarta] });
  });

  it('is a conflict when its look is how someone else writes their username', () => {
    // marta.ruiz looks like rnarta.ruiz (m is rn to the eye), and only rnarta.ruiz is on the site
    const rnarta = person(9, 101, 'rnarta.ruiz', 'Rn', 'Arta', 'E9');
    const [plan] = planImport(
      [{ rowNumber: 2, values: { username: 'marta.ruiz', firstname: 'Marta', lastname: 'Ruiz' } }],
      [christopher, rnarta],
      101,
      emails,
      { key: 'username', mode: 'upsert' },
    );
    expect(plan).toMatchObject({ action: 'conflict', people: [rnarta] });
  });

  it('is a conflict when its e-mail looks like how someone on the site writes theirs', () => {
    const written = emailsByUser([
      { emailid: 3, userid: 8, email: 'rnarta@exarnple.corn', status: 'Active', isprimary: null },
    ]);
    const [plan] = planImport(
      [
        {
          rowNumber: 2,
          values: { username: 'm.r', firstname: 'M', lastname: 'R', email: 'marta@example.com' },
        },
      ],
      [christopher, marta],
      101,
      written,
      { key: 'username', mode: 'upsert' },
    );
    expect(plan).toMatchObject({ action: 'conflict', people: [marta] });
  });

  it('is a conflict, not a rename, when the employee id finds the person and the username only looks like theirs', () => {
    const plan = planRow(
      {
        employeeid: 'E7',
        username: `christopher.y${CYRILLIC_O}ung`,
        firstname: 'Christopher',
        lastname: 'Young',
      },
      'employeeid',
    );
    expect(plan).toMatchObject({ action: 'conflict', people: [christopher] });
    expect(reasonsOf(plan)).toContain('the row would give them a username that only looks like their own');
  });

  it('leaves the person unchanged when the row writes their username in other letter case', () => {
    expect(
      planRow({ username: 'Christopher.Young', firstname: 'Christopher', lastname: 'Young' }).action,
    ).toBe('unchanged');
  });

  it('creates a person whose username merely resembles one (a different letter)', () => {
    expect(planRow({ username: 'christopher.yang', firstname: 'Christopher', lastname: 'Yang' }).action).toBe(
      'create',
    );
  });
});

describe('the look-alike index with a set of the texts people are found by', () => {
  const asked: string[] = [];
  const byText = (key: string): readonly HeldValue<string>[] => {
    asked.push(key);
    return key === 'rnarta.ruiz' ? [{ value: 'rnarta.ruiz', person: 'the one written as the look' }] : [];
  };

  it('adds the look of each value it holds to the set', () => {
    const known = new Set<string>();
    new LookAlikeIndex<string>(known).add('marta.ruiz', 'marta');
    expect([...known]).toEqual([lookAlikeKey('marta.ruiz')]);
  });

  it('asks nothing more for a look the set lacks: most rows look like nobody', () => {
    asked.length = 0;
    const index = new LookAlikeIndex<string>(new Set(['rnarta.ruiz']));
    expect(index.find('big.1@example.com', byText)).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('still finds by a look the set holds, whoever holds it', () => {
    asked.length = 0;
    const known = new Set(['rnarta.ruiz']);
    const index = new LookAlikeIndex<string>(known);
    index.add('marta.ruiz', 'marta');
    const found = index.find('m\u0430rta.ruiz', byText).map((held) => held.person);
    expect(found).toEqual(['marta', 'the one written as the look']);
    expect(asked).toEqual(['rnarta.ruiz']);
  });
});
