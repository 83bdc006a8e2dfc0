import { describe, expect, it } from 'vitest';
import type {
  CredentialAssignmentRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../../shared/records.ts';
import {
  credentialAssignmentDeleteDraft,
  credentialAssignmentEditDraft,
  trainingEditDraft,
  userEditDraft,
} from './single-edit.ts';
import { reverseOp } from '../../../shared/undo/reverse.ts';
import { outboxOp } from '../../../shared/testing/test-ops.ts';

const ann: UserRecord = {
  userid: 1,
  siteid: 101,
  username: 'ann',
  firstname: 'Ann',
  lastname: 'Lee',
  employeeid: 'E1',
  status: 'Active',
  usertype: 'User',
  searchKeys: [],
  sortName: '',
};

describe('single-record edits', () => {
  it('send only the fields that change, with their base values', () => {
    expect(userEditDraft(ann, { firstname: 'Anna', lastname: 'Lee', status: 'Active' })).toMatchObject({
      op: { kind: 'user.update', userid: 1, changes: { firstname: 'Anna' } },
      base: { firstname: 'Ann' },
    });
  });

  it('queue nothing when nothing changes', () => {
    expect(userEditDraft(ann, { firstname: ' Ann ' })).toBeNull();
  });

  it('compare assignment dates by day, whatever their format', () => {
    const held: CredentialAssignmentRecord = {
      id: '9-1',
      credentialid: 9,
      userid: 1,
      startdate: '01/15/2026',
      startIso: '2026-01-15',
      expirationdate: '06/30/2028',
      expirationIso: '2028-06-30',
      credentialnumber: '',
      status: 'active',
      attachmentcount: 0,
      notes: '',
    };
    expect(
      credentialAssignmentEditDraft(
        held,
        { startdate: '2026-01-15', expirationdate: '2029-06-30' },
        'First Aid',
      ),
    ).toMatchObject({
      op: { changes: { expirationdate: '2029-06-30' } },
      base: { expirationdate: '06/30/2028' },
    });
  });

  it('move a training due date', () => {
    const t = {
      transcriptid: 5,
      due_date: 'March 01 2027 09:00:00',
      dueIso: '2027-03-01',
      start_date: '',
      startIso: '',
      course_status: 'active',
    } as TrainingAssignmentRecord;
    expect(trainingEditDraft(t, { duedate: '2027-04-01' }, 'Forklift')?.op).toEqual({
      kind: 'trainingAssignment.update',
      transcriptid: 5,
      changes: { duedate: '2027-04-01' },
    });
  });

  it("record a removed assignment's dates and number, so an undo after apply re-creates it as it was", () => {
    const held: CredentialAssignmentRecord = {
      id: '9-1',
      credentialid: 9,
      userid: 1,
      startdate: '01/15/2026',
      startIso: '2026-01-15',
      expirationdate: '06/30/2028',
      expirationIso: '2028-06-30',
      credentialnumber: 'FA-7',
      status: 'active',
      attachmentcount: 0,
      notes: 'renewed',
    };
    const draft = credentialAssignmentDeleteDraft(held, 'First Aid');
    const reversal = reverseOp(outboxOp(draft.op, { status: 'done', base: draft.base ?? {} }));
    expect(reversal.kind === 'reverse' && reversal.step.op).toEqual({
      kind: 'credentialAssignment.create',
      credentialid: 9,
      userid: 1,
      fields: {
        startdate: '01/15/2026',
        expirationdate: '06/30/2028',
        credentialnumber: 'FA-7',
        notes: 'renewed',
      },
    });
  });
});
