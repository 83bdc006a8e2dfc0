/**
 * One operation of each kind, all about user 1 and aimed at the records the overlay tests
 * cache for them: e-mail 5, group access 7-1, feature access 101-3-1, credential 9, training 900
 * (a new kind without a sample is a type error).
 */
import type { OpKind, OpSpec } from '../../shared/ipc.ts';

export const SAMPLE_OPS: Record<OpKind, OpSpec> = {
  'user.update': { kind: 'user.update', userid: 1, changes: { status: 'Inactive' } },
  'user.create': {
    kind: 'user.create',
    siteid: 101,
    fields: { username: 'bo', firstname: 'Bo', lastname: 'Ray' },
  },
  'email.add': { kind: 'email.add', userid: 1, email: 'lee@example.test' },
  'email.remove': { kind: 'email.remove', userid: 1, emailid: 5 },
  'groupAccess.grant': { kind: 'groupAccess.grant', siteid: 101, groupid: 8, userid: 1 },
  'groupAccess.revoke': { kind: 'groupAccess.revoke', siteid: 101, groupid: 7, userid: 1 },
  'moduleAccess.grant': { kind: 'moduleAccess.grant', siteid: 101, accessID: 4, userid: 1 },
  'moduleAccess.revoke': { kind: 'moduleAccess.revoke', siteid: 101, accessID: 3, userid: 1 },
  'credentialAssignment.create': {
    kind: 'credentialAssignment.create',
    credentialid: 10,
    userid: 1,
    fields: { expirationdate: '2027-01-01' },
  },
  'credentialAssignment.update': {
    kind: 'credentialAssignment.update',
    credentialid: 9,
    userid: 1,
    changes: { expirationdate: '2028-01-01' },
  },
  'credentialAssignment.delete': { kind: 'credentialAssignment.delete', credentialid: 9, userid: 1 },
  'trainingAssignment.create': {
    kind: 'trainingAssignment.create',
    userid: 1,
    courseid: 31,
    fields: { duedate: '2027-01-01' },
  },
  'trainingAssignment.update': {
    kind: 'trainingAssignment.update',
    transcriptid: 900,
    changes: { duedate: '2027-02-01' },
  },
  'trainingAssignment.delete': { kind: 'trainingAssignment.delete', transcriptid: 900 },
};
