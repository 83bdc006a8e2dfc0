/**
 * Operation -> API route (issue 4, "Operations"). Pure: a description of the
 * request, sent by `index.ts`.
 */
import type { OpSpec } from '../../shared/ipc.ts';
import { OP_KIND_TABLE } from '../../shared/op-kinds.ts';

export type WriteMethod = 'POST' | 'PUT' | 'DELETE';

export interface WriteRequest {
  method: WriteMethod;
  path: string;
  body?: Record<string, unknown>;
}

/** Training assignment changes are sent with the search-field names; the record uses underscores. */
export const TRAINING_WIRE_FIELD = {
  duedate: 'due_date',
  startdate: 'start_date',
  coursestatus: 'course_status',
} as const;

export function writeRequestOf(op: OpSpec): WriteRequest {
  switch (op.kind) {
    case 'user.update':
      return { method: 'PUT', path: `/users/${op.userid}`, body: { ...op.changes } };
    case 'user.create':
      return { method: 'POST', path: `/sites/${op.siteid}/users`, body: { ...op.fields } };
    case 'email.add':
      return { method: 'POST', path: `/users/${op.userid}/emails`, body: { email: op.email } };
    case 'email.remove':
      return { method: 'DELETE', path: `/users/${op.userid}/emails/${op.emailid}` };
    case 'groupAccess.grant':
      return {
        method: 'POST',
        path: `/sites/${op.siteid}/access/groups/${op.groupid}/users`,
        body: { userid: op.userid },
      };
    case 'groupAccess.revoke':
      return { method: 'DELETE', path: `/users/${op.userid}/access/groups/${op.groupid}` };
    case 'moduleAccess.grant':
      return {
        method: 'POST',
        path: `/sites/${op.siteid}/access/modules/${op.accessID}/users`,
        body: { userid: op.userid },
      };
    case 'moduleAccess.revoke':
      return { method: 'DELETE', path: `/users/${op.userid}/access/modules/${op.accessID}` };
    case 'credentialAssignment.create':
      return {
        method: 'POST',
        path: `/credentials/${op.credentialid}/assignments`,
        body: { userid: op.userid, ...op.fields },
      };
    case 'credentialAssignment.update':
      return {
        method: 'PUT',
        path: `/credentials/${op.credentialid}/assignments/${op.credentialid}-${op.userid}`,
        body: { ...op.changes },
      };
    case 'credentialAssignment.delete':
      return {
        method: 'DELETE',
        path: `/credentials/${op.credentialid}/assignments/${op.credentialid}-${op.userid}`,
      };
    case 'trainingAssignment.create':
      return {
        method: 'POST',
        path: `/trainingassignments/user/${op.userid}/course/${op.courseid}`,
        body: { ...op.fields },
      };
    case 'trainingAssignment.update':
      return { method: 'PUT', path: `/trainingassignments/${op.transcriptid}`, body: { ...op.changes } };
    case 'trainingAssignment.delete':
      return { method: 'DELETE', path: `/trainingassignments/${op.transcriptid}` };
  }
}

/** The id a create's 701 body carries, by kind (the reference server adds it; the real platform may not). */
export function createdIdField(op: OpSpec): string | null {
  return OP_KIND_TABLE[op.kind].createdIdField;
}

/** What an update changes, in the field names of the record read back (its conflict fields). */
export function changesOf(op: OpSpec): Record<string, unknown> | null {
  return 'changes' in op ? { ...op.changes } : null;
}
