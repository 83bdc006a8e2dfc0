/** HR files as they come: usernames made for new hires, HR's status words, the choices kept per profile. */
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../shared/records.ts';
import {
  baseUsername,
  deriveUsernames,
  hrStatusWords,
  loadHrChoices,
  platformStatus,
  saveHrChoices,
  withDerivedUsernames,
} from './hr-files.ts';
import { emailsByUser, planImport, type ImportRow } from './match.ts';
import { draftsOf } from './rows.ts';

const person = (userid: number, username: string, siteid = 101, employeeid = `E${userid}`): UserRecord => ({
  userid,
  siteid,
  username,
  firstname: '',
  lastname: '',
  employeeid,
  status: 'Active',
  usertype: 'User',
  searchKeys: [],
  sortName: '',
});
const hire = (
  rowNumber: number,
  firstname: string,
  lastname: string,
  extra: ImportRow['values'] = {},
): ImportRow => ({ rowNumber, values: { employeeid: `H${rowNumber}`, firstname, lastname, ...extra } });
const derivedOf = (rows: ImportRow[]) => rows.map((r) => r.derived);

describe('the username rule', () => {
  it('makes first.last, initial + last and the e-mail local part, in lower case', () => {
    const v = { firstname: 'Anna', lastname: 'Smith', email: 'A.Smith@Example.com' };
    expect([
      baseUsername('first.last', v),
      baseUsername('initial.last', v),
      baseUsername('email', v),
    ]).toEqual(['anna.smith', 'asmith', 'a.smith']);
  });

  it('folds accents to ASCII and drops what the platform refuses (spaces, apostrophes)', () => {
    expect(baseUsername('first.last', { firstname: 'José María', lastname: "Müller-O'Brien" })).toBe(
      'josemaria.muller-obrien',
    );
    expect(baseUsername('initial.last', { firstname: 'Łukasz', lastname: 'Straße' })).toBe('lstrasse');
  });

  it('makes none when the row lacks what the rule needs', () => {
    expect(baseUsername('email', { firstname: 'Anna', lastname: 'Smith' })).toBe('');
    expect(baseUsername('first.last', { firstname: 'Anna' })).toBe('');
  });

  it('numbers a name the cache holds, at any site, pending creates included', () => {
    const users = [person(1, 'anna.smith'), person(2, 'anna.smith2', 102), person(-3, 'Anna.Smith3')];
    const rows = withDerivedUsernames([hire(2, 'Anna', 'Smith')], {
      users,
      siteid: 101,
      key: 'employeeid',
      rule: 'first.last',
    });
    expect(derivedOf(rows)).toEqual(['anna.smith4']);
  });

  it('numbers two hires of the same name in the file, and past a username another row gives', () => {
    const rows = [
      hire(2, 'Anna', 'Smith'),
      hire(3, 'Anna', 'Smith'),
      hire(4, 'Ann', 'Smith', { username: 'Anna.Smith' }),
    ];
    expect(
      derivedOf(
        withDerivedUsernames(rows, { users: [], siteid: 101, key: 'employeeid', rule: 'first.last' }),
      ),
    ).toEqual(['anna.smith2', 'anna.smith3', undefined]);
  });

  it('numbers past a name held at a site not kept on this laptop', () => {
    const rows = withDerivedUsernames([hire(2, 'Anna', 'Smith')], {
      users: [],
      siteid: 101,
      key: 'employeeid',
      rule: 'first.last',
      heldElsewhere: new Set(['anna.smith']),
    });
    expect(derivedOf(rows)).toEqual(['anna.smith2']);
  });

  it('gives none to a row whose employee ID finds someone on the site (it updates them)', () => {
    const rows = withDerivedUsernames([hire(2, 'Anna', 'Smith', { employeeid: 'E1' })], {
      users: [person(1, 'asmith')],
      siteid: 101,
      key: 'employeeid',
      rule: 'first.last',
    });
    expect(derivedOf(rows)).toEqual([undefined]);
  });

  it('gives none before the coordinator chooses a rule', () => {
    expect(
      derivedOf(
        withDerivedUsernames([hire(2, 'Anna', 'Smith')], {
          users: [],
          siteid: 101,
          key: 'employeeid',
          rule: null,
        }),
      ),
    ).toEqual([undefined]);
  });

  it('counts 2, 3, … past each other', () => {
    const taken = new Set(['x']);
    const made = deriveUsernames(
      [2, 3, 4].map((rowNumber) => ({
        rowNumber,
        values: { firstname: 'X', lastname: 'Y', email: 'x@a.io' },
      })),
      'email',
      (n) => taken.has(n),
    );
    expect([...made.values()]).toEqual(['x2', 'x3', 'x4']);
  });
});

describe('a new hire planned with a derived username', () => {
  const rows = withDerivedUsernames(
    [hire(2, 'Zoë', 'Ng', { email: 'zoe@example.com', status: 'Active employee' })],
    { users: [], siteid: 101, key: 'employeeid', rule: 'first.last' },
  );
  const plans = planImport(rows, [], 101, emailsByUser([]), {
    key: 'employeeid',
    mode: 'upsert',
    usernameRule: 'first.last',
  });

  it('is created, marked as derived', () => {
    expect(plans).toMatchObject([
      { action: 'create', values: { username: 'zoe.ng', status: 'Active' }, derivedFrom: 'first.last' },
    ]);
  });

  it('is sent with the derived username and the platform status', () => {
    expect(draftsOf(plans, 101)[0]?.op).toMatchObject({
      kind: 'user.create',
      fields: { username: 'zoe.ng', status: 'Active' },
    });
  });

  it('is a conflict, not queued, when the derived username is held at a site not kept on this laptop', () => {
    const notKept = {
      username: new Map([['zoe.ng', 'Quarry']]),
      email: new Map(),
      unchecked: null,
      readAt: null,
    };
    const [row] = planImport(rows, [], 101, emailsByUser([]), {
      key: 'employeeid',
      mode: 'upsert',
      usernameRule: 'first.last',
      notKept,
    });
    expect(row?.action === 'conflict' && row.reasons[0]).toContain('zoe.ng is already a user at Quarry');
  });

  it('without a rule, is invalid and says to choose one', () => {
    const [row] = planImport([hire(2, 'Zoë', 'Ng')], [], 101, emailsByUser([]), {
      key: 'employeeid',
      mode: 'upsert',
    });
    expect(row?.action === 'invalid' && row.errors[0]).toContain(
      'Choose above how usernames are made for new people',
    );
  });
});

describe("HR's status words", () => {
  it.each([
    ['Terminated', 'Inactive'],
    ['left', 'Inactive'],
    ['Leaver', 'Inactive'],
    ['Resigned', 'Inactive'],
    ['Retired', 'Inactive'],
    ['Active employee', 'Active'],
    ['EMPLOYED', 'Active'],
    ['Current', 'Active'],
    ['offline', 'Offline'],
  ])('reads "%s" as %s', (word, status) => {
    expect(platformStatus(word)).toBe(status);
  });

  it('leaves "On leave" to the coordinator, then follows their choice', () => {
    expect(platformStatus('On leave')).toBeNull();
    expect(platformStatus('On  Leave', { 'on leave': 'Active' })).toBe('Active');
  });

  it("lets the coordinator's choice win over the usual meaning", () => {
    expect(platformStatus('Retired', { retired: 'Offline' })).toBe('Offline');
  });

  it("lists the words of the file that are not the platform's own, once each", () => {
    expect(hrStatusWords(['Terminated', 'Active', 'terminated', undefined, 'On leave'])).toEqual([
      'Terminated',
      'On leave',
    ]);
  });

  it('deactivates a leaver the file calls "Terminated"', () => {
    const leaver = person(5, 'lee');
    const plans = planImport(
      [{ rowNumber: 2, values: { employeeid: 'E5', status: 'Terminated' } }],
      [leaver],
      101,
      emailsByUser([]),
      { key: 'employeeid', mode: 'upsert' },
    );
    expect(plans).toMatchObject([{ action: 'update', changes: { status: 'Inactive' } }]);
  });

  it('refuses a word not chosen yet, asking for the choice', () => {
    const [row] = planImport(
      [{ rowNumber: 2, values: { employeeid: 'E5', status: 'On leave' } }],
      [person(5, 'lee')],
      101,
      emailsByUser([]),
      { key: 'employeeid', mode: 'upsert' },
    );
    expect(row?.action === 'invalid' && row.errors[0]).toBe(
      'Status "On leave": choose above what it means on the platform (Active, Offline, Inactive).',
    );
  });
});

describe('the choices, kept per profile', () => {
  const memory = () => {
    const kept = new Map<string, string>();
    return {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => void kept.set(k, v),
    };
  };

  it("are remembered for the profile, and not for another's", () => {
    const storage = memory();
    saveHrChoices('p1', { usernameRule: 'initial.last', statusWords: { 'on leave': 'Active' } }, storage);
    expect(loadHrChoices('p1', storage)).toEqual({
      usernameRule: 'initial.last',
      statusWords: { 'on leave': 'Active' },
    });
    expect(loadHrChoices('p2', storage)).toEqual({ usernameRule: null, statusWords: {} });
  });

  it('forget what is unreadable rather than guess', () => {
    const storage = memory();
    storage.setItem('fieldbook.import.hr.p1', '{"usernameRule":"nick","statusWords":{"left":"Gone"}}');
    expect(loadHrChoices('p1', storage)).toEqual({ usernameRule: null, statusWords: {} });
  });
});
