/** A credential held by a person (their assignment): assigned, its dates and number changed, or removed. */
import { credentialAssignmentKey, credentialAssignmentTargetKey, targetUserRef } from '../keys.ts';
import {
  defined,
  present,
  reverseByAdding,
  reverseByRemoving,
  reverseUpdate,
  text,
} from '../undo/reversal.ts';
import { toIsoDate } from '../dates.ts';
import type { CredentialAssignmentRecord } from '../records.ts';
import { removing, type OpKindDefinition, type OpSpecOf } from './definition.ts';

import {
  credentialAssignmentCreateSchema,
  credentialAssignmentUpdateSchema,
  credentialAssignmentDeleteSchema,
} from './credential-assignment.schema.ts';

type AssignmentKind =
  'credentialAssignment.create' | 'credentialAssignment.update' | 'credentialAssignment.delete';

const CREDENTIAL_ASSIGNMENT = {
  undoRecordKey: null,
  featureTokenMaySend: false,
  changes: 'credentials',
  shows: 'credentialAssignments',
  targetKey: (spec: OpSpecOf<AssignmentKind>, tempUserKey?: string) =>
    credentialAssignmentTargetKey(spec.credentialid, targetUserRef(spec.userid, tempUserKey)),
  recordKey: (spec: OpSpecOf<AssignmentKind>) => credentialAssignmentKey(spec.credentialid, spec.userid),
} as const;

/** An assignment not cached yet, before the fields its create sets. */
function unassigned({ credentialid, userid }: OpSpecOf<AssignmentKind>): CredentialAssignmentRecord {
  const id = credentialAssignmentKey(credentialid, userid);
  return {
    id,
    credentialid,
    userid,
    startdate: '',
    startIso: '',
    expirationdate: '',
    expirationIso: '',
    credentialnumber: '',
    status: 'active',
    attachmentcount: 0,
    notes: '',
  };
}

/** The record with the fields set, its dates indexed again. */
function withFields(
  record: CredentialAssignmentRecord,
  fields: OpSpecOf<'credentialAssignment.create'>['fields'],
): CredentialAssignmentRecord {
  const next = { ...record, ...fields };
  return { ...next, startIso: toIsoDate(next.startdate), expirationIso: toIsoDate(next.expirationdate) };
}

/** The fields of a credential assignment a removal records, so an undo can re-create it as it was. */
const ASSIGNMENT_IMAGE_FIELDS = ['startdate', 'expirationdate', 'credentialnumber', 'notes'] as const;

export const credentialAssignmentCreate: OpKindDefinition<
  'credentialAssignment.create',
  'credentialAssignments'
> = {
  ...CREDENTIAL_ASSIGNMENT,
  schema: credentialAssignmentCreateSchema,
  effect: 'create',
  createdIdField: 'assignmentid',
  // assigning a credential already held shows as a change of it
  overlay: (spec, current) => ({
    record: withFields(current ?? unassigned(spec), spec.fields),
    change: current ? 'update' : 'create',
  }),
  reverse: (op, spec) =>
    reverseByRemoving(
      op,
      { kind: 'credentialAssignment.delete', credentialid: spec.credentialid, userid: spec.userid },
      present(defined(spec.fields)),
    ),
};

export const credentialAssignmentUpdate: OpKindDefinition<
  'credentialAssignment.update',
  'credentialAssignments'
> = {
  ...CREDENTIAL_ASSIGNMENT,
  schema: credentialAssignmentUpdateSchema,
  effect: 'update',
  createdIdField: null,
  overlay: (spec, current) =>
    current ? { record: withFields(current, spec.changes), change: 'update' } : null,
  reverse: (op, spec) =>
    reverseUpdate(op, spec.changes, (changes) => ({
      kind: 'credentialAssignment.update',
      credentialid: spec.credentialid,
      userid: spec.userid,
      changes,
    })),
};

export const credentialAssignmentDelete: OpKindDefinition<
  'credentialAssignment.delete',
  'credentialAssignments'
> = {
  ...CREDENTIAL_ASSIGNMENT,
  schema: credentialAssignmentDeleteSchema,
  effect: 'delete',
  createdIdField: null,
  overlay: removing,
  // re-created from the before-image the removal recorded (dates, number, notes)
  reverse: (op, spec) => {
    if (!ASSIGNMENT_IMAGE_FIELDS.some((field) => field in op.base)) {
      return {
        kind: 'irreversible',
        reason:
          'Its dates and number were not recorded when it was removed, so it cannot be re-created as it was.',
      };
    }
    const fields: Record<string, string> = {};
    for (const field of ASSIGNMENT_IMAGE_FIELDS)
      if (text(op.base[field]) !== '') fields[field] = text(op.base[field]);
    return reverseByAdding(
      op,
      { kind: 'credentialAssignment.create', credentialid: spec.credentialid, userid: spec.userid, fields },
      present(fields),
      'Attachments of the removed assignment are not restored.',
    );
  },
};
