/** A course assigned to a person (their transcript): assigned, its dates or status changed, or removed. */
import { newTrainingAssignmentTargetKey, targetUserRef, trainingAssignmentTargetKey } from '../keys.ts';
import {
  createdNumber,
  defined,
  present,
  reverseByAdding,
  reverseByRemoving,
  reverseUpdate,
  text,
} from '../undo/reversal.ts';
import type { OpKindDefinition } from './definition.ts';

import {
  trainingAssignmentCreateSchema,
  trainingAssignmentUpdateSchema,
  trainingAssignmentDeleteSchema,
} from './training-assignment.schema.ts';

const TRAINING_ASSIGNMENT = {
  featureTokenMaySend: false,
  changes: 'training',
  shows: 'trainingAssignments',
} as const;

export const trainingAssignmentCreate: OpKindDefinition<'trainingAssignment.create'> = {
  ...TRAINING_ASSIGNMENT,
  schema: trainingAssignmentCreateSchema,
  effect: 'create',
  createdIdField: 'transcriptid',
  // no transcript id until the server gives one: keyed by who and which course
  targetKey: (spec, tempUserKey) =>
    newTrainingAssignmentTargetKey(targetUserRef(spec.userid, tempUserKey), spec.courseid),
  recordKey: () => null,
  reverse: (op, spec) => {
    const transcriptid = createdNumber(op);
    if (transcriptid === null)
      return {
        kind: 'irreversible',
        reason: "The new assignment's id was not recorded, so it cannot be removed from here.",
      };
    return reverseByRemoving(
      op,
      { kind: 'trainingAssignment.delete', transcriptid },
      present(defined({ duedate: spec.fields.duedate })),
    );
  },
};

export const trainingAssignmentUpdate: OpKindDefinition<'trainingAssignment.update'> = {
  ...TRAINING_ASSIGNMENT,
  schema: trainingAssignmentUpdateSchema,
  effect: 'update',
  createdIdField: null,
  targetKey: (spec) => trainingAssignmentTargetKey(spec.transcriptid),
  recordKey: (spec) => spec.transcriptid,
  reverse: (op, spec) =>
    reverseUpdate(op, spec.changes, (changes) => ({
      kind: 'trainingAssignment.update',
      transcriptid: spec.transcriptid,
      changes,
    })),
};

export const trainingAssignmentDelete: OpKindDefinition<'trainingAssignment.delete'> = {
  ...TRAINING_ASSIGNMENT,
  schema: trainingAssignmentDeleteSchema,
  effect: 'delete',
  createdIdField: null,
  targetKey: (spec) => trainingAssignmentTargetKey(spec.transcriptid),
  recordKey: (spec) => spec.transcriptid,
  // assigned again from who and which course the removal recorded: a new assignment, not the old one's progress
  reverse: (op) => {
    const userid = op.base['userid'];
    const courseid = op.base['courseid'];
    if (typeof userid !== 'number' || typeof courseid !== 'number') {
      return {
        kind: 'irreversible',
        reason: 'Whose assignment of which course it was was not recorded, so it cannot be assigned again.',
      };
    }
    const fields = defined({
      duedate: op.base['duedate'] ? text(op.base['duedate']) : undefined,
      startdate: op.base['startdate'] ? text(op.base['startdate']) : undefined,
    });
    return reverseByAdding(
      op,
      { kind: 'trainingAssignment.create', userid, courseid, fields },
      present(),
      'A new assignment: the progress of the removed one is not restored.',
    );
  },
};
