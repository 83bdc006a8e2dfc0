import { describe, expect, it } from 'vitest';
import type {
  CredentialAssignmentRecord,
  CredentialRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../../shared/records.ts';
import { previewBulk, type BulkContext } from './plan.ts';

const person = (userid: number, status = 'Active'): UserRecord => ({
  userid,
  siteid: 101,
  username: `u${userid}`,
  firstname: 'F',
  lastname: `L${userid}`,
  employeeid: '',
  status,
  usertype: 'User',
  searchKeys: [],
  sortName: '',
});
function held(
  credentialid: number,
  userid: number,
  startIso: string,
  expirationIso: string,
  fields: Partial<CredentialAssignmentRecord> = {},
): CredentialAssignmentRecord {
  return {
    id: `${credentialid}-${userid}`,
    credentialid,
    userid,
    startdate: startIso,
    startIso,
    expirationdate: expirationIso,
    expirationIso,
    credentialnumber: 'N-1',
    status: 'active',
    attachmentcount: 0,
    notes: '',
    ...fields,
  };
}
const ctx: BulkContext = {
  access: 'full',
  groupAccess: new Set(['5-2']),
  moduleAccess: new Set(),
  credentialsHeld: new Map([['9-3', held(9, 3, '2025-01-01', '2026-01-01')]]),
  trainingHeld: new Map(),
};
const firstAid: CredentialRecord = {
  credentialid: 9,
  credentialname: 'First Aid',
  description: '',
  categoryid: 1,
  categoryname: '',
  requiredstartdate: true,
  requiredexpirationdate: true,
  requiredcredentialnum: false,
  requirements: '',
  activeusercount: 0,
  inactiveusercount: 0,
};

describe('the preview of a bulk action', () => {
  it('queues a status change for each user not already in that status, with the base it was made from', () => {
    const preview = previewBulk(
      [person(1), person(2, 'Inactive')],
      { type: 'status', status: 'Inactive' },
      ctx,
    );
    expect(preview.drafts).toHaveLength(1);
    expect(preview.drafts[0]).toMatchObject({
      op: { kind: 'user.update', userid: 1, changes: { status: 'Inactive' } },
      base: { status: 'Active' },
    });
    expect(preview.noops.map((n) => n.user.userid)).toEqual([2]);
  });

  it('queues nothing with a read-only token and says why', () => {
    const preview = previewBulk(
      [person(1)],
      { type: 'status', status: 'Inactive' },
      { ...ctx, access: 'readonly' },
    );
    expect(preview.drafts).toEqual([]);
    expect(preview.refused[0]?.reason).toContain('read-only');
  });

  it('refuses a status change with a token limited to one feature, saying it does not reach people', () => {
    const preview = previewBulk(
      [person(1)],
      { type: 'status', status: 'Inactive' },
      { ...ctx, access: 'feature' },
    );
    expect(preview.drafts).toEqual([]);
    expect(preview.refused[0]?.reason).toContain('does not include people');
  });

  it('lets a token limited to one feature grant a feature', () => {
    const preview = previewBulk(
      [person(1)],
      { type: 'moduleAccess', grant: true, accessID: 3, moduleName: 'Safety' },
      { ...ctx, access: 'feature' },
    );
    expect(preview.drafts.map((d) => d.op.kind)).toEqual(['moduleAccess.grant']);
  });

  it('refuses a credential assignment missing a date the credential requires', () => {
    const preview = previewBulk(
      [person(1)],
      {
        type: 'credential',
        credential: firstAid,
        startdate: '2026-01-01',
        expirationdate: '',
        credentialnumber: '',
        notes: '',
      },
      ctx,
    );
    expect(preview.drafts).toEqual([]);
    expect(preview.refused[0]?.reason).toContain('requires an expiration date');
  });

  it('renews with only a new expiration date, keeping the start date the holder has, though the credential requires one', () => {
    const preview = previewBulk(
      [person(3)],
      {
        type: 'credential',
        credential: firstAid,
        startdate: '',
        expirationdate: '2028-01-01',
        credentialnumber: '',
        notes: '',
      },
      ctx,
    );
    expect(preview.drafts.map((d) => d.op)).toEqual([
      {
        kind: 'credentialAssignment.update',
        credentialid: 9,
        userid: 3,
        changes: { expirationdate: '2028-01-01' },
      },
    ]);
  });

  it('still refuses a new assignment without the start date the credential requires', () => {
    const preview = previewBulk(
      [person(1), person(3)],
      {
        type: 'credential',
        credential: firstAid,
        startdate: '',
        expirationdate: '2028-01-01',
        credentialnumber: '',
        notes: '',
      },
      ctx,
    );
    expect(preview.refused.map((r) => [r.user.userid, r.reason])).toEqual([
      [1, 'First Aid requires a start date.'],
    ]);
    expect(preview.drafts).toHaveLength(1);
  });

  it('assigns a credential with its dates to those who lack it, and renews it for those who hold it', () => {
    const preview = previewBulk(
      [person(1), person(3)],
      {
        type: 'credential',
        credential: firstAid,
        startdate: '2026-01-01',
        expirationdate: '2028-01-01',
        credentialnumber: '',
        notes: '',
      },
      ctx,
    );
    expect(preview.drafts.map((d) => d.op)).toEqual([
      {
        kind: 'credentialAssignment.create',
        credentialid: 9,
        userid: 1,
        fields: { startdate: '2026-01-01', expirationdate: '2028-01-01' },
      },
      {
        kind: 'credentialAssignment.update',
        credentialid: 9,
        userid: 3,
        changes: { startdate: '2026-01-01', expirationdate: '2028-01-01' },
      },
    ]);
    expect(preview.drafts[1]?.base).toEqual({ startdate: '2025-01-01', expirationdate: '2026-01-01' });
    expect(preview.changes[1]?.reason).toBe(
      'F L3: renew First Aid, start Jan 1, 2025 → Jan 1, 2026, expires Jan 1, 2026 → Jan 1, 2028',
    );
  });

  it('renews only what differs: the number left empty and the same start date are not sent', () => {
    const preview = previewBulk(
      [person(3)],
      {
        type: 'credential',
        credential: firstAid,
        startdate: '2025-01-01',
        expirationdate: '2027-01-01',
        credentialnumber: '',
        notes: '',
      },
      ctx,
    );
    expect(preview.drafts.map((d) => d.op)).toEqual([
      {
        kind: 'credentialAssignment.update',
        credentialid: 9,
        userid: 3,
        changes: { expirationdate: '2027-01-01' },
      },
    ]);
  });

  it('skips a holder whose dates are already those entered', () => {
    const preview = previewBulk(
      [person(3)],
      {
        type: 'credential',
        credential: firstAid,
        startdate: '2025-01-01',
        expirationdate: '2026-01-01',
        credentialnumber: '',
        notes: '',
      },
      ctx,
    );
    expect(preview.drafts).toEqual([]);
    expect(preview.noops[0]?.reason).toContain('already holds First Aid');
  });

  it('refuses to renew an assignment still waiting to be sent (it is edited in the Outbox)', () => {
    const waiting = { ...held(9, 4, '', ''), pendingChange: 'create' } as CredentialAssignmentRecord;
    const preview = previewBulk(
      [person(4)],
      {
        type: 'credential',
        credential: firstAid,
        startdate: '2026-01-01',
        expirationdate: '2028-01-01',
        credentialnumber: '',
        notes: '',
      },
      { ...ctx, credentialsHeld: new Map([['9-4', waiting]]) },
    );
    expect(preview.refused[0]?.reason).toContain('still waiting to be sent');
  });

  it('removes a credential from its holders only', () => {
    const preview = previewBulk(
      [person(1), person(3)],
      { type: 'credentialRemove', credential: firstAid },
      ctx,
    );
    expect(preview.drafts.map((d) => d.op)).toEqual([
      { kind: 'credentialAssignment.delete', credentialid: 9, userid: 3 },
    ]);
    expect(preview.noops[0]?.reason).toBe('does not hold First Aid');
  });

  it('records what a bulk removal takes away, so an undo after apply can put it back', () => {
    const preview = previewBulk([person(3)], { type: 'credentialRemove', credential: firstAid }, ctx);
    expect(preview.drafts[0]?.base).toEqual({
      startdate: '2025-01-01',
      expirationdate: '2026-01-01',
      credentialnumber: 'N-1',
      notes: '',
    });
  });

  it('moves the due date of an assigned course and assigns it to the others', () => {
    const course: TrainingAssignmentRecord = {
      transcriptid: 70,
      userid: 3,
      courseid: 50,
      siteid: 101,
      course_name: 'Fall protection',
      course_type: 1,
      course_status: 'active',
      assignment_method: '',
      start_date: '',
      start_time: '',
      startIso: '',
      due_date: '03/01/2026',
      due_time: '',
      dueIso: '2026-03-01',
      assignment_created_date: '',
      createdIso: '',
    };
    const withTraining = { ...ctx, trainingHeld: new Map([['3-50', course]]) };
    const preview = previewBulk(
      [person(1), person(3)],
      { type: 'training', courseid: 50, courseName: 'Fall protection', duedate: '2026-06-01' },
      withTraining,
    );
    expect(preview.drafts.map((d) => d.op)).toEqual([
      { kind: 'trainingAssignment.create', userid: 1, courseid: 50, fields: { duedate: '2026-06-01' } },
      { kind: 'trainingAssignment.update', transcriptid: 70, changes: { duedate: '2026-06-01' } },
    ]);
    expect(preview.changes[1]?.reason).toBe('F L3: Fall protection due Mar 1, 2026 → Jun 1, 2026');
    expect(
      previewBulk(
        [person(1), person(3)],
        { type: 'trainingRemove', courseid: 50, courseName: 'Fall protection' },
        withTraining,
      ).drafts.map((d) => d.op),
    ).toEqual([{ kind: 'trainingAssignment.delete', transcriptid: 70 }]);
    // the removal keeps whose course it was and its dates (the undo assigns it again)
    expect(
      previewBulk(
        [person(3)],
        { type: 'trainingRemove', courseid: 50, courseName: 'Fall protection' },
        withTraining,
      ).drafts[0]?.base,
    ).toEqual({
      userid: 3,
      courseid: 50,
      duedate: '03/01/2026',
      startdate: '',
    });
  });

  it('leaves the due date of a course a person has completed as it is, and says why', () => {
    const done: TrainingAssignmentRecord = {
      transcriptid: 71,
      userid: 3,
      courseid: 50,
      siteid: 101,
      course_name: 'Fall protection',
      course_type: 1,
      course_status: 'Completed',
      assignment_method: '',
      start_date: '',
      start_time: '',
      startIso: '',
      due_date: '03/15/2026',
      due_time: '',
      dueIso: '2026-03-15',
      assignment_created_date: '',
      createdIso: '',
    };
    const preview = previewBulk(
      [person(3)],
      { type: 'training', courseid: 50, courseName: 'Fall protection', duedate: '2026-12-31' },
      { ...ctx, trainingHeld: new Map([['3-50', done]]) },
    );
    expect(preview.drafts).toEqual([]);
    expect(preview.noops.map((n) => n.reason)).toEqual(['already completed Fall protection']);
  });

  it('grants group access only to those who lack it', () => {
    const group = {
      groupid: 5,
      siteid: 101,
      categoryid: 1,
      groupname: 'Crew A',
      usercount: 0,
      accessusercount: 0,
    };
    const preview = previewBulk([person(1), person(2)], { type: 'groupAccess', grant: true, group }, ctx);
    expect(preview.drafts.map((d) => d.op)).toEqual([
      { kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 1 },
    ]);
  });

  it('refuses a group of another site', () => {
    const group = {
      groupid: 6,
      siteid: 102,
      categoryid: 1,
      groupname: 'Other',
      usercount: 0,
      accessusercount: 0,
    };
    expect(previewBulk([person(1)], { type: 'groupAccess', grant: true, group }, ctx).refused).toHaveLength(
      1,
    );
  });
});

describe('the preview of a renewal', () => {
  const renew = (fields: { startdate?: string; expirationdate?: string; numbers?: [number, string][] }) => ({
    type: 'renew' as const,
    credential: firstAid,
    startdate: fields.startdate ?? '',
    expirationdate: fields.expirationdate ?? '',
    numbers: new Map(fields.numbers ?? []),
  });
  const holders: BulkContext = {
    ...ctx,
    credentialsHeld: new Map([
      ['9-3', held(9, 3, '2025-01-01', '2026-01-01')],
      ['9-4', held(9, 4, '2025-02-01', '2026-02-01', { credentialnumber: '' })],
    ]),
  };

  it('gives each holder the dates entered and their own new number, as an update of the assignment they hold', () => {
    const preview = previewBulk(
      [person(3), person(4)],
      renew({
        startdate: '2026-01-01',
        expirationdate: '2028-01-01',
        numbers: [
          [3, 'A-3'],
          [4, 'B-4'],
        ],
      }),
      holders,
    );
    expect(preview.drafts.map((d) => d.op)).toEqual([
      {
        kind: 'credentialAssignment.update',
        credentialid: 9,
        userid: 3,
        changes: { startdate: '2026-01-01', expirationdate: '2028-01-01', credentialnumber: 'A-3' },
      },
      {
        kind: 'credentialAssignment.update',
        credentialid: 9,
        userid: 4,
        changes: { startdate: '2026-01-01', expirationdate: '2028-01-01', credentialnumber: 'B-4' },
      },
    ]);
    expect(preview.drafts[0]?.base).toEqual({
      startdate: '2025-01-01',
      expirationdate: '2026-01-01',
      credentialnumber: 'N-1',
    });
    expect(preview.renewals.map((r) => r.user.userid)).toEqual([3, 4]);
  });

  it('keeps the number held when none is given for that person', () => {
    const preview = previewBulk([person(3)], renew({ expirationdate: '2028-01-01' }), holders);
    expect(preview.drafts.map((d) => d.op)).toEqual([
      {
        kind: 'credentialAssignment.update',
        credentialid: 9,
        userid: 3,
        changes: { expirationdate: '2028-01-01' },
      },
    ]);
  });

  it('names a missing expiration date as missing and plans nothing, rather than skipping everyone', () => {
    const preview = previewBulk([person(3), person(4)], renew({ startdate: '2026-01-01' }), holders);
    expect(preview.problems).toEqual(['Enter the new expiration date.']);
    expect([preview.drafts, preview.noops, preview.refused]).toEqual([[], [], []]);
  });

  it('renews nobody who does not hold the credential, and says to assign it instead', () => {
    const preview = previewBulk([person(1), person(3)], renew({ expirationdate: '2028-01-01' }), holders);
    expect(preview.refused.map((r) => [r.user.userid, r.reason])).toEqual([
      [1, 'does not hold First Aid (use Assign a credential)'],
    ]);
    expect(preview.drafts.map((d) => d.op.kind)).toEqual(['credentialAssignment.update']);
    expect(preview.renewals.map((r) => r.user.userid)).toEqual([3]);
  });

  it('asks for the number of a holder without one when the credential requires a number', () => {
    const numbered = { ...firstAid, requiredcredentialnum: true };
    const preview = previewBulk(
      [person(3), person(4)],
      { ...renew({ expirationdate: '2028-01-01' }), credential: numbered },
      holders,
    );
    expect(preview.refused.map((r) => [r.user.userid, r.reason])).toEqual([
      [4, 'First Aid requires a credential number.'],
    ]);
  });
});
