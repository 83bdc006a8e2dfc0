import { describe, expect, it } from 'vitest';
import type { CredentialAssignmentRecord, EmailRecord, UserRecord } from '../../shared/records.ts';
import { OP_KINDS } from '../../shared/ipc.ts';
import type { OutboxOp } from '../../shared/outbox.ts';
import { OP_KIND_TABLE, type EffectiveCollection } from '../../shared/op-kinds.ts';
import {
  applyPendingToCredentialAssignments,
  applyPendingToEmails,
  applyPendingToGroupAccess,
  applyPendingToModuleAccess,
  applyPendingToTrainingAssignments,
  applyPendingToUsers,
} from './pending.ts';
import { outboxOp, statusOp } from '../../shared/testing/test-ops.ts';
import { credentialAssignment, trainingAssignment } from '../testing/fixtures.ts';
import { SAMPLE_OPS } from '../testing/op-samples.ts';

const ann: UserRecord = {
  userid: 1,
  siteid: 101,
  username: 'ann',
  firstname: 'Ann',
  lastname: 'Lee',
  employeeid: 'E1',
  status: 'Active',
  usertype: 'User',
  searchKeys: ['ann lee'],
  sortName: 'lee, ann',
};

describe('the effective state shown in the views', () => {
  it('shows a queued status change at once, marked pending', () => {
    const [shown] = applyPendingToUsers([ann], [statusOp(1, 'Inactive')]);
    expect(shown).toMatchObject({ status: 'Inactive', pending: { change: 'update', status: 'pending' } });
  });

  it('applies several queued edits in queue order', () => {
    const [shown] = applyPendingToUsers(
      [ann],
      [statusOp(1, 'Active', { seq: 20 }), statusOp(1, 'Inactive', { seq: 10 })],
    );
    expect(shown?.status).toBe('Active');
    expect(shown?.pending?.opIds).toHaveLength(2);
  });

  it('shows the cached record as it is once the op is done', () => {
    const [shown] = applyPendingToUsers([ann], [statusOp(1, 'Inactive', { status: 'done' })]);
    expect(shown).toEqual(ann);
  });

  it('flags a record whose edit is in conflict', () => {
    const [shown] = applyPendingToUsers([ann], [statusOp(1, 'Inactive', { status: 'conflict' })]);
    expect(shown?.pending?.status).toBe('conflict');
  });

  it('lists a user created offline, searchable by name', () => {
    const create = outboxOp({
      kind: 'user.create',
      siteid: 101,
      fields: { username: 'bo', firstname: 'Bo', lastname: 'Ray' },
    });
    const shown = applyPendingToUsers([ann], [create]);
    expect(shown).toHaveLength(2);
    expect(shown[1]).toMatchObject({ username: 'bo', pending: { change: 'create' } });
    expect(shown[1]!.userid).toBeLessThan(0);
    expect(shown[1]!.searchKeys).toContain('ray');
  });

  it('shows an assigned credential with its dates normalised', () => {
    const assign = outboxOp({
      kind: 'credentialAssignment.create',
      credentialid: 9,
      userid: 1,
      fields: { startdate: '2026-01-01', expirationdate: '01/01/2028' },
    });
    const [shown] = applyPendingToCredentialAssignments([], [assign]);
    expect(shown).toMatchObject({
      id: '9-1',
      startIso: '2026-01-01',
      expirationIso: '2028-01-01',
      pending: { change: 'create' },
    });
  });

  it('marks a credential assignment queued for deletion without hiding it', () => {
    const held: CredentialAssignmentRecord = {
      id: '9-1',
      credentialid: 9,
      userid: 1,
      startdate: '',
      startIso: '',
      expirationdate: '',
      expirationIso: '',
      credentialnumber: '',
      status: 'active',
      attachmentcount: 0,
      notes: '',
    };
    const [shown] = applyPendingToCredentialAssignments(
      [held],
      [outboxOp({ kind: 'credentialAssignment.delete', credentialid: 9, userid: 1 })],
    );
    expect(shown?.pending?.change).toBe('delete');
  });

  it('shows a revoked group access as going', () => {
    const grant = { id: '5-1', groupid: 5, userid: 1, siteid: 101 };
    const [shown] = applyPendingToGroupAccess(
      [grant],
      [outboxOp({ kind: 'groupAccess.revoke', siteid: 101, groupid: 5, userid: 1 })],
    );
    expect(shown?.pending?.change).toBe('delete');
  });
});

describe('every kind of operation, in the collection its row of the op-kind table names', () => {
  const email: EmailRecord = {
    emailid: 5,
    userid: 1,
    email: 'ann@example.test',
    status: 'Active',
    isprimary: true,
  };
  // one op of each kind, aimed at the records cached below (a new kind without a sample is a type error)
  const SAMPLE = SAMPLE_OPS;
  const SHOWN: { [K in EffectiveCollection]: (ops: OutboxOp[]) => { pending?: unknown }[] } = {
    users: (ops) => applyPendingToUsers([ann], ops),
    emails: (ops) => applyPendingToEmails([email], ops),
    groupAccess: (ops) => applyPendingToGroupAccess([{ id: '7-1', groupid: 7, userid: 1, siteid: 101 }], ops),
    moduleAccess: (ops) =>
      applyPendingToModuleAccess([{ id: '101-3-1', accessID: 3, siteid: 101, userid: 1 }], ops),
    credentialAssignments: (ops) =>
      applyPendingToCredentialAssignments([credentialAssignment(9, 1, '2026-12-31')], ops),
    trainingAssignments: (ops) =>
      applyPendingToTrainingAssignments([trainingAssignment(900, 1, 30, '2026-12-31')], ops),
  };

  it.each([...OP_KINDS])('%s shows there, marked pending', (kind) => {
    const rows = SHOWN[OP_KIND_TABLE[kind].shows]([outboxOp(SAMPLE[kind])]);
    expect(rows.filter((r) => r.pending)).toHaveLength(1);
  });
});
