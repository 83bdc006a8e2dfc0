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
  planAloneInSlices,
  planImportInSlices,
  warmPeopleIndex,
  type EmailsByUser,
  type ImportRow,
  type MatchOptions,
  type RowPlan,
} from './match.ts';
import { NONE_NOT_KEPT, type SitesNotKept } from './not-kept.ts';

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

/** Each row planned alone as the rows arrive (two slices), as the Import view does while the file is read. */
async function plannedAhead(
  rows: readonly ImportRow[],
  emails: EmailsByUser,
): Promise<Map<ImportRow, RowPlan>> {
  const made = new Map<ImportRow, RowPlan>();
  for (const slice of [rows.slice(0, 5), rows.slice(5)]) {
    const each = (at: number, plan: RowPlan) => made.set(slice[at]!, plan);
    await planAloneInSlices(slice, people, 101, emails, options, each, () => false);
  }
  return made;
}

describe('the plan of a varied file, started while the file is read', () => {
  it('is the one the import always made: rows sharing a value with later rows are planned again', async () => {
    const emails = emailsByUser(addresses);
    const made = await plannedAhead(file, emails);
    const ahead = (row: ImportRow) => made.get(row);
    const plans = await planImportInSlices(file, people, 101, emails, options, () => false, {}, ahead);
    // the plans the first test holds to those the code before wrote
    const whole = await planImportInSlices(file, people, 101, emails, options, () => false);
    expect(plans?.map(shown)).toEqual(whole?.map(shown));
    expect(plans).toEqual(whole);
    // the seven rows no other row shares a value with kept the plans made ahead
    expect(plans?.filter((plan, i) => plan === made.get(file[i]!))).toHaveLength(7);
  });

  /** The varied file planned ahead, then whole with main's answer on the sites not kept. */
  async function withAnswer(notKept: SitesNotKept): Promise<RowPlan[] | null> {
    const emails = emailsByUser(addresses);
    const made = await plannedAhead(file, emails);
    const answered = { ...options, notKept };
    return planImportInSlices(
      file,
      people,
      101,
      emails,
      answered,
      () => false,
      {},
      (row) => made.get(row),
    );
  }

  it("is planned again for a row whose username a site not kept holds, main's answer coming only at the end", async () => {
    const plans = await withAnswer({ ...NONE_NOT_KEPT, username: new Map([['dee', 'Harbour site']]) });
    expect(plans?.[0]).toMatchObject({
      action: 'conflict',
      reasons: [expect.stringContaining('Harbour site')],
    });
  });

  it('is planned again for every row when the sites not kept could not be checked', async () => {
    const plans = await withAnswer({
      ...NONE_NOT_KEPT,
      unchecked: 'The sites not kept could not be checked',
    });
    expect(plans?.[0]).toMatchObject({
      action: 'skipped',
      reason: expect.stringContaining('could not be checked'),
    });
  });

  it('is planned again for a new person given a derived username once the whole file was read', async () => {
    const emails = emailsByUser(addresses);
    const arriving: ImportRow = {
      rowNumber: 2,
      values: { employeeid: 'E50', firstname: 'Lu', lastname: 'Wu' },
    };
    const byId = { ...options, key: 'employeeid' as const };
    const made = new Map<ImportRow, RowPlan>();
    await planAloneInSlices(
      [arriving],
      people,
      101,
      emails,
      byId,
      (_, plan) => made.set(arriving, plan),
      () => false,
    );
    const derived = { ...arriving, derived: 'lu.wu' };
    // the derived row is another object, but the plan must never take a plan made without its username
    const plans = await planImportInSlices(
      [derived],
      people,
      101,
      emails,
      byId,
      () => false,
      {},
      () => made.get(arriving),
    );
    expect(plans?.map(shown)).toEqual(['2 create [] ']);
  });
});
