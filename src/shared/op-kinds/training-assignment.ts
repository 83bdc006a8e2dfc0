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
import { toIsoDate } from '../dates.ts';
import type { TrainingAssignmentRecord } from '../records.ts';
import { removing, type OpKindDefinition, type OpSpecOf } from './definition.ts';

import {
  trainingAssignmentCreateSchema,
  trainingAssignmentUpdateSchema,
  trainingAssignmentDeleteSchema,
} from './training-assignment.schema.ts';

const TRAINING_ASSIGNMENT = {
  undoRecordKey: null,
  featureTokenMaySend: false,
  changes: 'training',
  shows: 'trainingAssignments',
} as const;

/** A course assigned offline as the views list it until the server gives its transcript (its course named later). */
function assigned(
  spec: OpSpecOf<'trainingAssignment.create'>,
  transcriptid: number,
): TrainingAssignmentRecord {
  const { duedate, startdate, assignmentmethod } = spec.fields;
  return {
    transcriptid,
    userid: spec.userid,
    courseid: spec.courseid,
    siteid: 0,
    course_name: '',
    course_type: null,
    course_status: 'active',
    assignment_method: assignmentmethod ?? '',
    start_date: startdate ?? '',
    start_time: '',
    startIso: toIsoDate(startdate),
    due_date: duedate ?? '',
    due_time: '',
    dueIso: toIsoDate(duedate),
    assignment_created_date: '',
    createdIso: '',
  };
}

/** The assignment with an update's changes, under the record's field names, its dates indexed again. */
function changed(
  current: TrainingAssignmentRecord,
  { duedate, startdate, coursestatus }: OpSpecOf<'trainingAssignment.update'>['changes'],
): TrainingAssignmentRecord {
  const next = { ...current };
  if (duedate !== undefined) Object.assign(next, { due_date: duedate, dueIso: toIsoDate(duedate) });
  if (startdate !== undefined) Object.assign(next, { start_date: startdate, startIso: toIsoDate(startdate) });
  if (coursestatus !== undefined) next.course_status = coursestatus;
  return next;
}

export const trainingAssignmentCreate: OpKindDefinition<'trainingAssignment.create', 'trainingAssignments'> =
  {
    ...TRAINING_ASSIGNMENT,
    schema: trainingAssignmentCreateSchema,
    effect: 'create',
    createdIdField: 'transcriptid',
    // no transcript id until the server gives one: keyed by who and which course
    targetKey: (spec, tempUserKey) =>
      newTrainingAssignmentTargetKey(targetUserRef(spec.userid, tempUserKey), spec.courseid),
    recordKey: () => null,
    overlay: (spec, _current, standInId) => ({ record: assigned(spec, standInId), change: 'create' }),
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

export const trainingAssignmentUpdate: OpKindDefinition<'trainingAssignment.update', 'trainingAssignments'> =
  {
    ...TRAINING_ASSIGNMENT,
    schema: trainingAssignmentUpdateSchema,
    effect: 'update',
    createdIdField: null,
    targetKey: (spec) => trainingAssignmentTargetKey(spec.transcriptid),
    recordKey: (spec) => spec.transcriptid,
    overlay: (spec, current) =>
      current ? { record: changed(current, spec.changes), change: 'update' } : null,
    reverse: (op, spec) =>
      reverseUpdate(op, spec.changes, (changes) => ({
        kind: 'trainingAssignment.update',
        transcriptid: spec.transcriptid,
        changes,
      })),
  };

export const trainingAssignmentDelete: OpKindDefinition<'trainingAssignment.delete', 'trainingAssignments'> =
  {
    ...TRAINING_ASSIGNMENT,
    schema: trainingAssignmentDeleteSchema,
    effect: 'delete',
    createdIdField: null,
    targetKey: (spec) => trainingAssignmentTargetKey(spec.transcriptid),
    recordKey: (spec) => spec.transcriptid,
    overlay: removing,
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
