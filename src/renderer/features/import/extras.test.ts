/** What every new person of an import is given: group access, a credential, a course, each after the create. */
import { describe, expect, it } from 'vitest';
import { emailsByUser, planImport, type GroupRef, type MatchOptions, type RowValues } from './match.ts';
import { draftsOf } from './rows.ts';
import { extraKinds, extrasEffects, extrasRefusal, requiredOfRows, type ImportExtras } from './extras.ts';
import { firstWriteRefusal } from '../../../shared/access.ts';

const groups = new Map<string, GroupRef>([['operations', { groupid: 10, groupname: 'Operations' }]]);
const plan = (rows: RowValues[], options: Partial<MatchOptions> = {}) =>
  planImport(
    rows.map((values, i) => ({ rowNumber: i + 2, values })),
    [],
    101,
    emailsByUser([]),
    { key: 'username', mode: 'upsert', groups, ...options },
  );
const cy = { username: 'cy', firstname: 'Cy', lastname: 'Ode' };
const rigging: ImportExtras['credential'] = {
  credentialid: 20,
  credentialname: 'Rigging',
  required: { startdate: false, expirationdate: true, credentialnumber: false },
  fields: { expirationdate: '2027-01-31' },
};

describe('what new people are given', () => {
  it('queues the group, the credential and the course after the create, each waiting for the new id', () => {
    const extras: ImportExtras = {
      group: { groupid: 10, groupname: 'Operations' },
      credential: rigging,
      course: { courseid: 30, coursename: 'Fall arrest', duedate: '2026-12-01' },
    };
    const drafts = draftsOf(plan([cy]), 101, new Set(), new Set(), { extras, groups });
    expect(drafts.map((d) => d.op.kind)).toEqual([
      'user.create',
      'groupAccess.grant',
      'credentialAssignment.create',
      'trainingAssignment.create',
    ]);
    const createId = drafts[0]!.id!;
    for (const d of drafts.slice(1)) {
      expect(d.dependsOn).toEqual([createId]);
      expect(d.bindings).toEqual([{ fromOp: createId, field: 'userid' }]);
    }
    expect(drafts[2]!.op).toMatchObject({ credentialid: 20, fields: { expirationdate: '2027-01-31' } });
    expect(drafts[3]!.op).toMatchObject({ courseid: 30, fields: { duedate: '2026-12-01' } });
  });

  it('gives two new people grants of their own targets, so one failing never holds up the other', () => {
    const drafts = draftsOf(
      plan([cy, { username: 'dee', firstname: 'Dee', lastname: 'Fox' }]),
      101,
      new Set(),
      new Set(),
      { extras: { group: { groupid: 10, groupname: 'Operations' } }, groups },
    );
    const grants = drafts.filter((d) => d.op.kind === 'groupAccess.grant').map((d) => d.targetKey);
    expect(grants).toEqual(['groupAccess:10-user:new:101:cy', 'groupAccess:10-user:new:101:dee']);
  });

  it('grants the group a Profile group column names on the row', () => {
    const drafts = draftsOf(plan([{ ...cy, group: 'OPERATIONS' }]), 101, new Set(), new Set(), {
      extras: {},
      groups,
    });
    expect(drafts[1]!.op).toEqual({ kind: 'groupAccess.grant', siteid: 101, groupid: 10, userid: 0 });
  });

  it('calls a row whose group is not on the site invalid, with the reason', () => {
    expect(plan([{ ...cy, group: 'Night shift' }])).toMatchObject([
      { action: 'invalid', errors: ['Profile group "Night shift" is not a group on this site.'] },
    ]);
  });

  it('refuses a credential without the date it requires, and an expiration before the start', () => {
    expect(extrasRefusal({ credential: { ...rigging, fields: {} } })).toBe(
      'The credential “Rigging” requires an expiration date.',
    );
    expect(
      extrasRefusal({
        credential: { ...rigging, fields: { startdate: '2027-02-01', expirationdate: '2027-01-31' } },
      }),
    ).toBe('The credential “Rigging”: the expiration date is before the start date.');
    expect(extrasRefusal({ credential: rigging })).toBeNull();
  });

  it('says that group access makes the new people Supervisors', () => {
    expect(extrasEffects({ group: { groupid: 10, groupname: 'Operations' } }, false).join(' ')).toContain(
      'Supervisor',
    );
    expect(extrasEffects({}, false)).toEqual([]);
  });

  it('asks the shared write rule about every kind it adds', () => {
    const kinds = extraKinds(
      { credential: rigging, course: { courseid: 30, coursename: 'Fall arrest' } },
      true,
    );
    expect(kinds).toEqual(['groupAccess.grant', 'credentialAssignment.create', 'trainingAssignment.create']);
    expect(firstWriteRefusal('feature', ['user.create', ...kinds])).not.toBeNull();
  });

  it("takes a row's own credential dates and due date, read from text, over those for the file", () => {
    const extras: ImportExtras = {
      credential: rigging,
      course: { courseid: 30, coursename: 'Fall arrest', duedate: '2026-12-01' },
    };
    const plans = plan([{ ...cy, expirationdate: '4 Mar 2028', duedate: '25/12/2026' }]);
    const ops = draftsOf(plans, 101, new Set(), new Set(), { extras, groups }).map((d) => d.op);
    expect(ops[1]).toMatchObject({
      kind: 'credentialAssignment.create',
      fields: { expirationdate: '2028-03-04' },
    });
    expect(ops[2]).toMatchObject({ kind: 'trainingAssignment.create', fields: { duedate: '2026-12-25' } });
  });

  it('calls a row with a date whose day and month could be either way round invalid, until the order is chosen', () => {
    expect(plan([{ ...cy, duedate: '03/04/2026' }])).toMatchObject([
      { action: 'invalid', errors: [expect.stringContaining('could be 3 April 2026 or 4 March 2026')] },
    ]);
    expect(plan([{ ...cy, duedate: '03/04/2026' }], { dateOrder: 'mdy' })).toMatchObject([
      { action: 'create', values: { duedate: '2026-03-04' } },
    ]);
  });

  it("needs, on each new person's row, what the credential requires and the file does not give", () => {
    const requires = requiredOfRows({ credential: { ...rigging, fields: {} } });
    expect(requires).toEqual(['expirationdate']);
    expect(plan([cy], { requires })).toMatchObject([
      {
        action: 'invalid',
        errors: ['The credential requires a credential expiration date, and the row has none.'],
      },
    ]);
    expect(extrasRefusal({ credential: { ...rigging, fields: {} } }, new Set(['expirationdate']))).toBeNull();
  });

  it('refuses credential columns with no credential chosen, rather than dropping them', () => {
    expect(extrasRefusal({}, new Set(['startdate']))).toContain('choose the credential they are for');
  });
});
