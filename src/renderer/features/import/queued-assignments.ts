/**
 * The credential and course the file gives (the extras) against the
 * assignments the user queued for deletion: a row for someone whose
 * assignment of that credential or course a queued change deletes keeps it
 * (the file wins): it is assigned again after the deletion, with the file's
 * values. Without a queued deletion an import gives them only to the people
 * it creates (extras.ts). Pure.
 */
import type { OutboxOp } from '../../../shared/outbox.ts';
import { unsentOps } from '../../outbox/pending.ts';
import type { ImportExtras } from './extras.ts';
import type { RowValues } from './file-row.ts';
import { courseOfUserKey, credentialAssignmentKey } from '../../../shared/keys.ts';

/**
 * The assignments queued ops delete and no later queued op gives back: the deleting ops, by
 * `credentialAssignmentKey` and `courseOfUserKey` (shared/keys.ts).
 */
export interface QueuedDeletions {
  credentials: ReadonlyMap<string, readonly string[]>;
  courses: ReadonlyMap<string, readonly string[]>;
}

export const NO_DELETIONS: QueuedDeletions = { credentials: new Map(), courses: new Map() };

/** A course assignment by its transcript id, as the cache holds it. */
export type TranscriptOf = (transcriptid: number) => { userid: number; courseid: number } | undefined;

/** The ops' deletions in queue order; a later queued create of the same assignment gives it back. */
export function queuedDeletions(ops: readonly OutboxOp[], transcript: TranscriptOf): QueuedDeletions {
  const credentials = new Map<string, string[]>();
  const courses = new Map<string, string[]>();
  const note = (map: Map<string, string[]>, key: string, op: OutboxOp) =>
    map.set(key, [...(map.get(key) ?? []), op.id]);
  for (const op of unsentOps(ops)) {
    const spec = op.op;
    if (spec.kind === 'credentialAssignment.delete')
      note(credentials, credentialAssignmentKey(spec.credentialid, spec.userid), op);
    else if (spec.kind === 'credentialAssignment.create')
      credentials.delete(credentialAssignmentKey(spec.credentialid, spec.userid));
    else if (spec.kind === 'trainingAssignment.create')
      courses.delete(courseOfUserKey(spec.userid, spec.courseid));
    else if (spec.kind === 'trainingAssignment.delete') {
      // the removal's base names the person and course (single-edit.ts); else the cache's transcript
      const { userid, courseid } = op.base;
      const held =
        typeof userid === 'number' && typeof courseid === 'number'
          ? { userid, courseid }
          : transcript(spec.transcriptid);
      if (held) note(courses, courseOfUserKey(held.userid, held.courseid), op);
    }
  }
  return { credentials, courses };
}

/** What a row keeps that a queued change deletes: assigned again after the deleting ops (`after`). */
export interface KeptAssignments {
  credential?: {
    credentialid: number;
    credentialname: string;
    fields: Record<string, string>;
    after: readonly string[];
  };
  course?: { courseid: number; coursename: string; duedate?: string; after: readonly string[] };
}

/**
 * The credential and course the file gives that a queued change deletes for this person; `values`: the row's, dates
 * already ISO.
 */
export function keptAssignments(
  extras: Pick<ImportExtras, 'credential' | 'course'> | undefined,
  deletions: QueuedDeletions | undefined,
  userid: number,
  values: RowValues,
): KeptAssignments | undefined {
  const c = extras?.credential;
  const course = extras?.course;
  const credentialAfter = c && deletions?.credentials.get(credentialAssignmentKey(c.credentialid, userid));
  const courseAfter = course && deletions?.courses.get(courseOfUserKey(userid, course.courseid));
  if (!credentialAfter && !courseAfter) return undefined;
  const kept: KeptAssignments = {};
  if (c && credentialAfter) {
    const own = Object.fromEntries(
      (['startdate', 'expirationdate', 'credentialnumber'] as const)
        .filter((f) => values[f])
        .map((f) => [f, values[f]!]),
    );
    const fields = Object.fromEntries(
      Object.entries({ ...c.fields, ...own })
        .filter((e): e is [string, string] => e[1] !== undefined && e[1].trim() !== '')
        .map(([k, v]) => [k, v.trim()]),
    );
    kept.credential = {
      credentialid: c.credentialid,
      credentialname: c.credentialname,
      fields,
      after: credentialAfter,
    };
  }
  if (course && courseAfter) {
    const duedate = values.duedate || course.duedate;
    kept.course = {
      courseid: course.courseid,
      coursename: course.coursename,
      ...(duedate ? { duedate } : {}),
      after: courseAfter,
    };
  }
  return kept;
}

/** Whether any queued change deletes a credential or course assignment. */
export function hasDeletions(deletions: QueuedDeletions): boolean {
  return deletions.credentials.size > 0 || deletions.courses.size > 0;
}
