/**
 * The preview's plan as the window makes it (the site's people indexed once, before the file is dropped; a row's file
 * duplicates looked up only when another row shares its value) is the plan the import always made: the expected
 * plans (__snapshots__/plan-paths.test.ts.snap, and those inline) were written by the code before that change (commit
 * 39dc418), for a file that holds every kind of row.
 */
import { describe, expect, it } from 'vitest';
import type { EmailRecord, UserRecord } from '../../../shared/records.ts';
import {
  emailsByUser,
  planImportInSlices,
  warmPeopleIndex,
  type ImportRow,
  type MatchOptions,
  type RowPlan,
} from './match.ts';

const person = (userid: number, username: string, siteid = 101, employeeid = `E${userid}`): UserRecord => ({
  userid,
  siteid,
  username,
  firstname: username.charAt(0).toUpperCase() + username.slice(1),
  lastname: 'Lee',
  employeeid,
  status: 'Active',
  usertype: 'User',
  searchKeys: [],
  sortName: '',
});
const address = (emailid: number, userid: number, email: string): EmailRecord => ({
  emailid,
  userid,
  email,
  status: 'Active',
  isprimary: null,
});

const people = [person(1, 'ann'), person(2, 'bo'), person(3, 'kim'), person(4, 'carl', 102)];
const addresses = [address(1, 1, 'ann@example.com'), address(2, 2, 'bo@example.com')];

/** A file with a row of each kind: new, changed, unchanged, shared with other rows, look-alike, held elsewhere. */
const file: ImportRow[] = [
  { username: 'dee', firstname: 'Dee', lastname: 'Fox', email: 'dee@example.com' },
  { username: 'ann', firstname: 'Ann', lastname: 'Moss', email: 'ann@example.com' },
  { username: 'bo', firstname: 'Bo', lastname: 'Lee', email: 'bo@example.com' },
  { username: 'eve', firstname: 'Eve', lastname: 'Ray' },
  { username: 'аnn', firstname: 'Anna', lastname: 'Lee' }, // a Cyrillic а
  { username: 'EVE', firstname: 'Eve', lastname: 'Ray' },
  { username: 'carl', firstname: 'Carl', lastname: 'Holt' },
  { username: 'fay', firstname: 'Fay', lastname: 'Lim', email: 'bo@example.com' },
  { username: 'gus', firstname: 'Gus', lastname: 'Orr', email: 'team@example.com' },
  { username: 'hal', firstname: 'Hal', lastname: 'Orr', email: 'Team@example.com' },
  { username: 'ida', firstname: 'Ida', lastname: 'Orr', email: 'team@example.com' },
  { username: 'jo', firstname: 'Jo' },
  { username: 'kim', firstname: 'Kim', lastname: 'Lee', employeeid: 'E1' },
  { firstname: 'Lu', lastname: 'Wu' },
].map((values, i) => ({ rowNumber: i + 2, values }));

/** What a coordinator sees of a plan: its row, what it does, why, and whom it names. */
function shown(plan: RowPlan): string {
  const why =
    'reasons' in plan ? plan.reasons : 'errors' in plan ? plan.errors : 'reason' in plan ? [plan.reason] : [];
  const named =
    'people' in plan ? plan.people.map((p) => p.username) : 'user' in plan ? [plan.user?.username] : [];
  const rows = 'rows' in plan ? ` rows ${plan.rows.join(',')}` : '';
  return `${plan.rowNumber} ${plan.action} [${named.join(',')}]${rows} ${why.join(' | ')}`;
}

const options: MatchOptions = { key: 'username', mode: 'upsert', usernameRule: 'first.last' };

describe('the plan of a varied file', () => {
  it('is the one the import made before its planning was made cheaper', async () => {
    const emails = emailsByUser(addresses);
    // as the Import view does: the site's people indexed before the file is dropped
    warmPeopleIndex(people, 101, emails);
    const plans = await planImportInSlices(file, people, 101, emails, options, () => false, { budgetMs: 0 });
    expect(plans?.map(shown)).toMatchSnapshot();
  });

  it('creates nobody against an unknown cache, as before', async () => {
    const emails = emailsByUser(addresses);
    const unknown = { ...options, unknownCache: 'Not synced yet' };
    const plans = await planImportInSlices(file, people, 101, emails, unknown, () => false, { budgetMs: 0 });
    expect(plans?.map(shown)).toMatchSnapshot();
  });

  it('names the row holding, as written, the username derived for a new person', async () => {
    const rows: ImportRow[] = [
      { rowNumber: 2, values: { employeeid: 'E50', firstname: 'Lu', lastname: 'Wu' }, derived: 'lu.wu' },
      { rowNumber: 3, values: { employeeid: 'E51', username: 'lu.wu', firstname: 'Lu', lastname: 'Wu' } },
    ];
    const byId = { ...options, key: 'employeeid' as const };
    const plans = await planImportInSlices(rows, people, 101, emailsByUser(addresses), byId, () => false);
    expect(plans?.map(shown)).toMatchInlineSnapshot(`
      [
        "2 conflict [] rows 3 The username "lu.wu" is also on row 3.",
        "3 create [] ",
      ]
    `);
  });

  it('is made against the addresses as read again, for the same people', async () => {
    const before = emailsByUser(addresses);
    const newRow = file.slice(0, 1);
    expect((await planImportInSlices(newRow, people, 101, before, options, () => false))?.[0]?.action).toBe(
      'create',
    );
    const after = emailsByUser([...addresses, address(3, 3, 'dee@example.com')]);
    const plans = await planImportInSlices(newRow, people, 101, after, options, () => false);
    expect(plans?.map(shown)).toMatchInlineSnapshot(`
      [
        "2 conflict [kim] rows  The e-mail "dee@example.com" already belongs to Kim Lee (kim, employee ID E3): creating would give two people the same e-mail.",
      ]
    `);
  });
});
