/** A course assigned to a person, in the renderer: assigned, changed or removed in words, and the cached assignment. */
import type { OpSpecOf } from '../../shared/op-kinds/definition.ts';
import { schemas } from '../../shared/api/wire.ts';
import { toIsoDate } from '../../shared/dates.ts';
import { normalizeTrainingAssignment } from '../../shared/records.ts';
import type { CachedTrainingAssignment } from '../db/derived.ts';
import { NOT_ON_THIS_LAPTOP, ownedBy } from '../app/words.ts';
import type { FieldbookDb } from '../db/rows.ts';
import { ABSENT, presentState, type Named, type RendererKind } from './definition.ts';
import { changesInWords, day, fieldsInWords } from './words.ts';

type ByTranscript = OpSpecOf<'trainingAssignment.update' | 'trainingAssignment.delete'>;

/** A training assignment with its fields also under the names an op uses. */
function trainingFields(t: CachedTrainingAssignment): Record<string, unknown> {
  return { ...t, duedate: t.due_date, startdate: t.start_date, coursestatus: t.course_status };
}

const stateOf = (t: CachedTrainingAssignment | undefined) =>
  t ? presentState(trainingFields(t), t.transcriptid) : ABSENT;

async function cachedByTranscript(db: FieldbookDb, spec: ByTranscript) {
  return stateOf(await db.trainingAssignments.get(spec.transcriptid));
}

/** Whose course it is ("Barbara Adams's Rigging"), the course alone for a person not known yet, or what it is. */
function assignmentNamed(spec: ByTranscript, named: Named): string {
  const t = named.transcript(spec.transcriptid);
  if (!t) return NOT_ON_THIS_LAPTOP.training;
  return t.userid > 0 ? ownedBy(named.person(t.userid), named.course(t.courseid)) : named.course(t.courseid);
}

/** The course of the assignment, or "training" when the cache does not hold it. */
function courseOf(spec: ByTranscript, named: Named): string {
  const t = named.transcript(spec.transcriptid);
  return t ? named.course(t.courseid) : 'training';
}

export const trainingAssignmentCreate: RendererKind<'trainingAssignment.create'> = {
  describe: (spec, named) => {
    const due = spec.fields.duedate ? `, due ${day(spec.fields.duedate)}` : '';
    return `Assign ${named.course(spec.courseid)} to ${named.person(spec.userid)}${due}`;
  },
  action: (spec, named) => `Assign ${named.course(spec.courseid)} to`,
  // main read the new assignment back; without it (or when it does not parse) the next sync brings it
  afterDone: async (db, _spec, outcome) => {
    const parsed = schemas.trainingAssignment.safeParse(outcome.after);
    if (!parsed.success) return;
    const { courseid, userid } = parsed.data;
    const siteid = (await db.courses.get(courseid))?.siteid ?? (await db.users.get(userid))?.siteid;
    if (siteid !== undefined)
      await db.trainingAssignments.put(normalizeTrainingAssignment(parsed.data, siteid));
  },
  // found by the person and the course (no transcript id until the server gives one)
  cachedState: async (db, spec) => {
    const theirs = await db.trainingAssignments.where('userid').equals(spec.userid).toArray();
    return stateOf(theirs.find((a) => a.courseid === spec.courseid));
  },
};

export const trainingAssignmentUpdate: RendererKind<'trainingAssignment.update'> = {
  describe: (spec, named) => `Change ${changesInWords(spec.changes)} of ${assignmentNamed(spec, named)}`,
  action: (spec, named) => `Change ${changesInWords(spec.changes)} of ${courseOf(spec, named)} for`,
  broadAction: (spec, named) => `Change ${fieldsInWords(spec.changes)} of ${courseOf(spec, named)} for`,
  afterDone: async (db, { transcriptid, changes: c }) => {
    const current = await db.trainingAssignments.get(transcriptid);
    if (!current) return;
    await db.trainingAssignments.put({
      ...current,
      ...(c.duedate !== undefined ? { due_date: c.duedate, dueIso: toIsoDate(c.duedate) } : {}),
      ...(c.startdate !== undefined ? { start_date: c.startdate, startIso: toIsoDate(c.startdate) } : {}),
      ...(c.coursestatus !== undefined ? { course_status: c.coursestatus } : {}),
    });
  },
  whose: (spec, named) => {
    const t = named.transcript(spec.transcriptid);
    return t ? ownedBy(named.person(t.userid), named.course(t.courseid)) : NOT_ON_THIS_LAPTOP.training;
  },
  cachedState: cachedByTranscript,
};

export const trainingAssignmentDelete: RendererKind<'trainingAssignment.delete'> = {
  describe: (spec, named) => `Remove ${assignmentNamed(spec, named)}`,
  action: (spec, named) => `Remove ${courseOf(spec, named)} from`,
  afterDone: (db, spec) => db.trainingAssignments.delete(spec.transcriptid),
  cachedState: cachedByTranscript,
};
