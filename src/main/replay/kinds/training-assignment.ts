/**
 * A course assigned to a person, on main's side: assigned by POST on the person and course, changed by PUT and
 * removed by DELETE on its transcript; its changes are sent under the wire's field names.
 */
import type { OpSpecOf } from '../../../shared/op-kinds/definition.ts';
import { ABSENT, list, presentState, type ReplayClient } from '../read.ts';
import { NO_PERSON, NOT_LISTED, type ReplayKind } from './definition.ts';

/** Training assignment changes are sent with the search-field names; the record uses underscores. */
const TRAINING_WIRE_FIELD = {
  duedate: 'due_date',
  startdate: 'start_date',
  coursestatus: 'course_status',
} as const;

/** A training assignment with its change fields also under the names an op uses (duedate, startdate, coursestatus). */
function trainingFields(t: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...t };
  for (const [opField, wireField] of Object.entries(TRAINING_WIRE_FIELD)) out[opField] = t[wireField];
  return out;
}

type Assignment = { transcriptid: number } & Record<string, unknown>;

const stateOf = (assignment: Assignment | undefined) =>
  assignment ? presentState(trainingFields(assignment), assignment.transcriptid) : ABSENT;

/** An assignment by its transcript, present or not. */
async function readByTranscript(
  client: ReplayClient,
  spec: OpSpecOf<'trainingAssignment.update' | 'trainingAssignment.delete'>,
  signal?: AbortSignal,
) {
  const path = `/trainingassignments/${spec.transcriptid}`;
  const found = await list(client, path, ['trainingassignments'], 'trainingAssignment', signal);
  return stateOf(found.find((t) => t.transcriptid === spec.transcriptid));
}

export const trainingAssignmentCreate: ReplayKind<'trainingAssignment.create'> = {
  writeRequest: (spec) => ({
    method: 'POST',
    path: `/trainingassignments/user/${spec.userid}/course/${spec.courseid}`,
    body: { ...spec.fields },
  }),
  // found again by the person and the course (no transcript id until the server gives one)
  readState: async (client, spec, signal) => {
    const path = `/users/${spec.userid}/trainingassignments`;
    const assigned = await list(client, path, ['trainingassignments'], 'trainingAssignment', signal);
    return stateOf(assigned.find((t) => t.courseid === spec.courseid));
  },
  listedIn: NOT_LISTED,
  readsBack: false,
  personChanged: NO_PERSON,
};

export const trainingAssignmentUpdate: ReplayKind<'trainingAssignment.update'> = {
  writeRequest: (spec) => ({
    method: 'PUT',
    path: `/trainingassignments/${spec.transcriptid}`,
    body: { ...spec.changes },
  }),
  readState: readByTranscript,
  listedIn: NOT_LISTED,
  readsBack: false,
  personChanged: NO_PERSON,
};

export const trainingAssignmentDelete: ReplayKind<'trainingAssignment.delete'> = {
  writeRequest: (spec) => ({ method: 'DELETE', path: `/trainingassignments/${spec.transcriptid}` }),
  readState: readByTranscript,
  listedIn: NOT_LISTED,
  readsBack: false,
  personChanged: NO_PERSON,
};
