/** Matching rows to people: never the wrong person. */
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../shared/records.ts';
import { emailsByUser, planImport, planImportInSlices, type MatchOptions, type RowValues } from './match.ts';
import type { SitesNotKept } from './not-kept.ts';
import { draftsOf } from './rows.ts';
import { applyPendingToEmails, applyPendingToUsers } from '../../outbox/pending.ts';
import { outboxOp } from '../../../shared/testing/test-ops.ts';

const person = (
  userid: number,
  username: string,
  firstname: string,
  lastname: string,
  employeeid: string,
): UserRecord => ({
  userid,
  siteid: 101,
  username,
  firstname,
  lastname,
  employeeid,
  status: 'Active',
  usertype: 'User',
  searchKeys: [],
  sortName: '',
});
const ann = person(7, 'ann', 'Ann', 'Lee', 'E7');
const bo = person(8, 'bo', 'Bo', 'Ray', 'E8');
const twinA = person(9, 'kim1', 'Kim', 'Park', 'E9');
const twinB = person(10, 'kim2', 'Kim', 'Park', 'E9');
const emails = emailsByUser([
  { emailid: 1, userid: 7, email: 'ann@example.com', status: 'Active', isprimary: null },
  { emailid: 2, userid: 8, email: 'bo@example.com', status: 'Active', isprimary: null },
]);

const plan = (rows: RowValues[], options: Partial<MatchOptions> = {}) =>
  planImport(
    rows.map((values, i) => ({ rowNumber: i + 2, values })),
    [ann, bo, twinA, twinB],
    101,
    emails,
    { key: 'username', mode: 'upsert', ...options },
  );

describe('usernames and e-mail addresses, unique across sites', () => {
  const dee = { ...person(20, 'dee', 'Dee', 'Fox', 'E20'), siteid: 102 };
  const withDee = (values: RowValues) =>
    planImport(
      [{ rowNumber: 2, values }],
      [ann, bo, dee],
      101,
      emailsByUser([{ emailid: 3, userid: 20, email: 'dee@example.com', status: 'Active', isprimary: null }]),
      { key: 'username', mode: 'upsert' },
    );

  it('refuses to create a person with a username someone on another site has (the platform would refuse it), naming them', () => {
    const [row] = withDee({ username: 'Dee', firstname: 'Dee', lastname: 'Moss' });
    expect(row).toMatchObject({ action: 'conflict', people: [dee] });
    expect(row?.action === 'conflict' && row.reasons[0]).toContain(
      'belongs to Dee Fox (dee, employee ID E20) on another site',
    );
  });

  it("refuses an e-mail address that is another site's person's", () => {
    const plans = withDee({ username: 'ann', email: 'DEE@example.com' });
    expect(plans).toMatchObject([{ action: 'conflict', people: [ann, dee] }]);
    expect(plans[0]?.action === 'conflict' && plans[0].reasons.join(' ')).toContain(
      'an e-mail is unique across sites',
    );
  });

  it('matches people only on the chosen site: a name alone elsewhere is no conflict', () => {
    expect(withDee({ username: 'cy', firstname: 'Dee', lastname: 'Fox' })).toMatchObject([
      { action: 'create' },
    ]);
  });
});

describe("usernames and e-mails at the sites not kept on this laptop (main's index, not the cache)", () => {
  const northDepot = (over: Partial<SitesNotKept> = {}): SitesNotKept => ({
    username: new Map([['ana.silva', 'North Depot']]),
    email: new Map([['ana@north.example', 'North Depot']]),
    unchecked: null,
    readAt: null,
    ...over,
  });
  const planWith = (rows: RowValues[], notKept: SitesNotKept, options: Partial<MatchOptions> = {}) =>
    plan(rows, { notKept, ...options });

  it("plans no create for a username someone has at a site not kept, and says where in the coordinator's words", () => {
    const [row] = planWith([{ username: 'Ana.Silva', firstname: 'Ana', lastname: 'Silva' }], northDepot());
    expect(row).toMatchObject({ action: 'conflict', people: [] });
    expect(row?.action === 'conflict' && row.reasons.join(' ')).toContain(
      'Ana.Silva is already a user at North Depot, a site not kept on this laptop',
    );
  });

  it('refuses to add an e-mail a user at a site not kept has', () => {
    const [row] = planWith([{ username: 'ann', email: 'ANA@north.example' }], northDepot());
    expect(row).toMatchObject({ action: 'conflict', people: [ann] });
    expect(row?.action === 'conflict' && row.reasons.join(' ')).toContain(
      'ANA@north.example is already the e-mail of a user at North Depot, a site not kept on this laptop',
    );
  });

  it('creates a person whose username and e-mail no site holds', () => {
    expect(
      planWith([{ username: 'cy', firstname: 'Cy', lastname: 'Ode', email: 'cy@example.com' }], northDepot()),
    ).toMatchObject([{ action: 'create' }]);
  });

  describe('when those sites could not be checked', () => {
    const unknown = northDepot({
      username: new Map(),
      email: new Map(),
      unchecked:
        'The usernames and e-mails of Quarry, not kept on this laptop, are not known here until a sync has read them',
    });

    it('queues no new person, saying why and what to do', () => {
      const [row] = planWith([{ username: 'cy', firstname: 'Cy', lastname: 'Ode' }], unknown);
      expect(row).toMatchObject({ action: 'skipped' });
      expect(row?.action === 'skipped' && row.reason).toBe(
        "Not queued: the usernames and e-mails of Quarry, not kept on this laptop, are not known here until a sync has read them, so this new person's username or e-mail could already be someone else's there. Sync, then drop the file again.",
      );
    });

    it('queues no new username and no new e-mail either, but updates that give neither go ahead', () => {
      const plans = planWith(
        [
          { employeeid: 'E7', email: 'ann.new@example.com' },
          { employeeid: 'E8', username: 'bo2' },
          { employeeid: 'E99', username: 'zed', firstname: 'Zed', lastname: 'Quinn' },
        ],
        unknown,
        { key: 'employeeid' },
      );
      expect(plans.map((p) => p.action)).toEqual(['skipped', 'skipped', 'skipped']);
      expect(
        plans.map((p) => p.action === 'skipped' && p.reason.match(/so (this [-a-z' ]+) could/)?.[1]),
      ).toEqual(['this e-mail', 'this username', "this new person's username or e-mail"]);
      expect(planWith([{ username: 'bo', firstname: 'Bob' }], unknown)).toMatchObject([
        { action: 'update', changes: { firstname: 'Bob' } },
      ]);
    });
  });
});

describe('one match, none, several', () => {
  it('creates a person no one on the site matches', () => {
    expect(plan([{ username: 'cy', firstname: 'Cy', lastname: 'Ode' }])).toMatchObject([
      { action: 'create', rowNumber: 2 },
    ]);
  });

  it('updates only the fields that differ', () => {
    expect(plan([{ username: 'ann', firstname: 'Anna', lastname: 'Lee', status: 'active' }])).toMatchObject([
      { action: 'update', changes: { firstname: 'Anna' } },
    ]);
  });

  it('leaves alone a person the row does not change', () => {
    expect(plan([{ username: 'ANN', firstname: 'Ann', email: 'Ann@Example.com' }])).toMatchObject([
      { action: 'unchanged' },
    ]);
  });

  it('calls a key that finds several people ambiguous, naming them, and queues nothing', () => {
    const plans = plan([{ employeeid: 'E9', firstname: 'Kimberly' }], { key: 'employeeid' });
    expect(plans).toMatchObject([{ action: 'ambiguous', people: [twinA, twinB] }]);
    expect(draftsOf(plans, 101)).toEqual([]);
  });

  it('finds people by e-mail when that is the key', () => {
    expect(plan([{ email: 'BO@example.com', lastname: 'Rey' }], { key: 'email' })).toMatchObject([
      { action: 'update', user: bo, changes: { lastname: 'Rey' } },
    ]);
  });

  it('adds an e-mail the person does not have yet, as an addition', () => {
    const plans = plan([{ username: 'ann', email: 'ann.lee@example.com' }]);
    expect(plans).toMatchObject([{ action: 'update', changes: {}, emailAdded: 'ann.lee@example.com' }]);
    expect(draftsOf(plans, 101).map((d) => d.op)).toEqual([
      { kind: 'email.add', userid: 7, email: 'ann.lee@example.com' },
    ]);
  });
});

describe('identity cross-checks', () => {
  it("refuses a row whose username finds Ann but whose employee id is Bo's, showing both", () => {
    const plans = plan([{ username: 'ann', employeeid: 'E8', firstname: 'Tom', lastname: 'Novak' }]);
    expect(plans).toMatchObject([{ action: 'conflict', people: [ann, bo] }]);
    expect(plans[0]?.action === 'conflict' && plans[0].reasons[0]).toContain('belongs to Bo Ray (bo');
    expect(draftsOf(plans, 101)).toEqual([]);
  });

  it("refuses a row whose e-mail is someone else's", () => {
    expect(plan([{ username: 'ann', email: 'bo@example.com' }])).toMatchObject([
      { action: 'conflict', people: [ann, bo] },
    ]);
  });

  it("refuses to create a person with someone else's employee id", () => {
    expect(plan([{ username: 'tom', firstname: 'Tom', lastname: 'Novak', employeeid: 'e7' }])).toMatchObject([
      { action: 'conflict', people: [ann] },
    ]);
  });

  it('refuses both rows that give the same employee id, each naming the other', () => {
    const plans = plan([
      { username: 'tom', firstname: 'Tom', lastname: 'Novak', employeeid: 'N1' },
      { username: 'tim', firstname: 'Tim', lastname: 'Novak', employeeid: 'n1' },
    ]);
    expect(plans).toMatchObject([
      { action: 'conflict', rows: [3] },
      { action: 'conflict', rows: [2] },
    ]);
  });

  it('refuses the same person twice in one file', () => {
    expect(
      plan([
        { username: 'bo', firstname: 'Bo' },
        { username: 'BO', firstname: 'Bob' },
      ]).map((p) => p.action),
    ).toEqual(['conflict', 'conflict']);
  });

  it('puts a change of employee id in its own category, queued only when ticked', () => {
    const plans = plan([{ username: 'ann', employeeid: 'E70' }]);
    expect(plans).toMatchObject([{ action: 'identity', changes: { employeeid: 'E70' } }]);
    expect(draftsOf(plans, 101)).toEqual([]);
    expect(draftsOf(plans, 101, new Set(), new Set([2])).map((d) => d.op)).toEqual([
      { kind: 'user.update', userid: 7, changes: { employeeid: 'E70' } },
    ]);
  });

  it('puts a rename of a username in its own category', () => {
    expect(plan([{ employeeid: 'E7', username: 'ann.lee' }], { key: 'employeeid' })).toMatchObject([
      { action: 'identity', changes: { username: 'ann.lee' } },
    ]);
  });

  it('gives an employee id to a person without one as an ordinary update', () => {
    const noId = person(11, 'dee', 'Dee', 'Fox', '');
    const plans = planImport(
      [{ rowNumber: 2, values: { username: 'dee', employeeid: 'E11' } }],
      [noId],
      101,
      new Map(),
      { key: 'username', mode: 'upsert' },
    );
    expect(plans).toMatchObject([{ action: 'update', changes: { employeeid: 'E11' } }]);
  });
});

describe('modes', () => {
  it('create only: a known person is skipped, not updated', () => {
    expect(plan([{ username: 'ann', firstname: 'Anna' }], { mode: 'create' })).toMatchObject([
      { action: 'skipped' },
    ]);
  });

  it('update only: an unknown person is skipped, not created', () => {
    expect(plan([{ username: 'cy', firstname: 'Cy', lastname: 'Ode' }], { mode: 'update' })).toMatchObject([
      { action: 'skipped' },
    ]);
  });
});

describe('the same file dropped again before a replay', () => {
  // what the view plans against: the cache with the Outbox's unsent ops applied
  const pending = [
    outboxOp({
      kind: 'user.create',
      siteid: 101,
      fields: { username: 'cy', firstname: 'Cy', lastname: 'Ode', password: 'x' },
    }),
    outboxOp({ kind: 'email.add', userid: 7, email: 'ann.lee@example.com' }),
  ];
  const users = applyPendingToUsers([ann, bo], pending);
  const effectiveEmails = emailsByUser(
    applyPendingToEmails(
      [{ emailid: 1, userid: 7, email: 'ann@example.com', status: 'Active', isprimary: null }],
      pending,
    ),
  );
  const again = (values: RowValues) =>
    planImport([{ rowNumber: 2, values }], users, 101, effectiveEmails, { key: 'username', mode: 'upsert' });

  it('does not create again a person already waiting in the Outbox to be created', () => {
    const [row] = again({ username: 'cy', firstname: 'Cy', lastname: 'Ode' });
    expect(row).toMatchObject({ action: 'skipped' });
    expect(row?.action === 'skipped' && row.reason).toContain('already waiting in the Outbox to be created');
  });

  it('does not add again an e-mail already waiting in the Outbox', () => {
    expect(again({ username: 'ann', firstname: 'Ann', email: 'ann.lee@example.com' })).toMatchObject([
      { action: 'unchanged' },
    ]);
  });
});

describe('invalid rows, with the reason', () => {
  it('refuses a formula-like cell, whatever hides it', () => {
    const plans = plan([
      { username: 'cy', firstname: "-2+3+cmd|' /C calc'!A0", lastname: 'X' },
      { username: 'dy', firstname: '\uff1d1+1', lastname: 'X' },
    ]);
    expect(plans.map((p) => p.action)).toEqual(['invalid', 'invalid']);
    expect(plans[0]?.action === 'invalid' && plans[0].errors[0]).toContain(
      'looks like a spreadsheet formula',
    );
  });

  it('refuses an employee id that the spreadsheet turned into a date', () => {
    expect(plan([{ employeeid: '2024-03-05', firstname: 'X' }], { key: 'employeeid' })).toMatchObject([
      { action: 'invalid', errors: [expect.stringContaining('looks like a date')] },
    ]);
  });

  it('refuses a row without the key', () => {
    expect(plan([{ firstname: 'X' }], { key: 'employeeid' })).toMatchObject([
      { action: 'invalid', errors: [expect.stringContaining('No employee ID')] },
    ]);
  });

  it('needs a username and both names to create', () => {
    expect(plan([{ employeeid: 'N5', firstname: 'X' }], { key: 'employeeid' })).toMatchObject([
      { action: 'invalid', errors: [expect.stringMatching(/^A new person needs a username, a last name\./)] },
    ]);
  });

  it('refuses an unknown status and a malformed e-mail', () => {
    const plans = plan([
      { username: 'cy', firstname: 'Cy', lastname: 'Ode', status: 'Sabbatical', email: 'nope' },
    ]);
    expect(plans[0]?.action === 'invalid' && plans[0].errors).toEqual([
      expect.stringContaining('Sabbatical'),
      expect.stringContaining('not an e-mail'),
    ]);
  });
});

describe('the statuses of a file', () => {
  it('gives each row its own, however many rows write the same word', () => {
    const plans = plan([
      { username: 'cy', firstname: 'Cy', lastname: 'Ode', status: 'inactive' },
      { username: 'dy', firstname: 'Dy', lastname: 'Ode', status: 'Active' },
      { username: 'ey', firstname: 'Ey', lastname: 'Ode', status: 'Sabbatical' },
      { username: 'fy', firstname: 'Fy', lastname: 'Ode', status: 'inactive' },
    ]);
    expect(plans.map((p) => (p.action === 'create' ? p.values.status : p.action))).toEqual([
      'Inactive',
      'Active',
      'invalid',
      'Inactive',
    ]);
  });
});

describe('the queued batch', () => {
  it("queues a new person's e-mail to wait for the new id, and leaves out excluded rows", () => {
    const plans = plan([
      { username: 'cy', firstname: 'Cy', lastname: 'Ode', email: 'cy@example.com' },
      { username: 'dy', firstname: 'Dy', lastname: 'Ode' },
    ]);
    const drafts = draftsOf(plans, 101, new Set([3]));
    expect(drafts.map((d) => d.op.kind)).toEqual(['user.create', 'email.add']);
    expect(drafts[1]).toMatchObject({
      dependsOn: [drafts[0]!.id],
      bindings: [{ fromOp: drafts[0]!.id, field: 'userid' }],
    });
  });
});

describe('planning a large file a slice at a time', () => {
  const rows = Array.from({ length: 50 }, (_, i) => ({
    rowNumber: i + 2,
    values: {
      username: i === 7 ? 'ann' : `p${i}`,
      firstname: 'P',
      lastname: 'Q',
      employeeid: i === 9 ? 'E8' : '',
    },
  }));
  const options: MatchOptions = { key: 'username', mode: 'upsert' };

  it('gives the same plans as planning at once', async () => {
    expect(
      await planImportInSlices(rows, [ann, bo], 101, emails, options, () => false, { budgetMs: 0 }),
    ).toEqual(planImport(rows, [ann, bo], 101, emails, options));
  });

  it('stops when the file or the settings change meanwhile', async () => {
    let slices = 0;
    expect(
      await planImportInSlices(rows, [ann, bo], 101, emails, options, () => ++slices > 2, { budgetMs: 0 }),
    ).toBeNull();
  });
});
