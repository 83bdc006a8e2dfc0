/**
 * What an import gives every person it creates besides their fields: access
 * to a profile group (for the whole file, or the group a mapped column names
 * row by row), a credential with the dates and number it requires, a course
 * with its due date. Queued in the same batch, each after the person's create
 * and bound to the new id. Pure.
 */
import type { OpKind } from '../../../shared/ipc.ts';
import type { OpDraft } from '../../../shared/replay-queue/queue.ts';
import { targetKeyOf } from '../../../shared/op-kinds.ts';

export interface ImportExtras {
  /** group access for every new person */
  group?: { groupid: number; groupname: string };
  credential?: {
    credentialid: number;
    credentialname: string;
    required: { startdate: boolean; expirationdate: boolean; credentialnumber: boolean };
    fields: { startdate?: string; expirationdate?: string; credentialnumber?: string };
  };
  course?: { courseid: number; coursename: string; duedate?: string };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What the chosen credential requires that no value for the whole file gives (each row must then). */
export function requiredOfRows(
  extras: ImportExtras,
): ('startdate' | 'expirationdate' | 'credentialnumber')[] {
  const c = extras.credential;
  if (!c) return [];
  return (['startdate', 'expirationdate', 'credentialnumber'] as const).filter(
    (f) => c.required[f] && !c.fields[f]?.trim(),
  );
}

/**
 * Why the chosen extras cannot be queued (a required credential field neither given for
 * the file nor in a column, a bad date, a column with nothing to give it to); null when they can.
 */
export function extrasRefusal(extras: ImportExtras, columns: ReadonlySet<string> = new Set()): string | null {
  const c = extras.credential;
  if (!c && ['startdate', 'expirationdate', 'credentialnumber'].some((f) => columns.has(f)))
    return 'The file has credential columns: choose the credential they are for, or set those columns to “not in the file”.';
  if (!extras.course && columns.has('duedate'))
    return 'The file has a course due date column: choose the course, or set that column to “not in the file”.';
  if (c) {
    const name = `The credential “${c.credentialname}”`;
    if (c.required.startdate && !c.fields.startdate && !columns.has('startdate'))
      return `${name} requires a start date.`;
    if (c.required.expirationdate && !c.fields.expirationdate && !columns.has('expirationdate'))
      return `${name} requires an expiration date.`;
    if (c.required.credentialnumber && !c.fields.credentialnumber?.trim() && !columns.has('credentialnumber'))
      return `${name} requires a number.`;
    for (const d of [c.fields.startdate, c.fields.expirationdate])
      if (d && !ISO_DATE.test(d)) return `${name}: “${d}” is not a date.`;
    if (c.fields.startdate && c.fields.expirationdate && c.fields.expirationdate < c.fields.startdate)
      return `${name}: the expiration date is before the start date.`;
  }
  const due = extras.course?.duedate;
  if (due && !ISO_DATE.test(due)) return `The course's due date “${due}” is not a date.`;
  return null;
}

/** The op kinds the extras add (for the shared write rule). */
export function extraKinds(extras: ImportExtras, groupColumn: boolean): OpKind[] {
  return [
    ...(extras.group || groupColumn ? (['groupAccess.grant'] as const) : []),
    ...(extras.credential ? (['credentialAssignment.create'] as const) : []),
    ...(extras.course ? (['trainingAssignment.create'] as const) : []),
  ];
}

/** What the platform does because of the extras, said in the preview (src/server/README.md). */
export function extrasEffects(extras: ImportExtras, groupColumn: boolean): string[] {
  const out: string[] = [];
  if (extras.group || groupColumn)
    out.push(
      'Group access makes a User a Supervisor: every new person given a group is created as a Supervisor.',
    );
  if (extras.course && !extras.course.duedate)
    out.push('A course with no due date is due 30 days after today.');
  return out;
}

export interface NewPerson {
  /** the id of the person's user.create draft */
  createId: string;
  /** the target key of the person's create, which their later ops name until the new id is known */
  targetKey: string;
  siteid: number;
  username: string;
  rowNumber: number;
  /** the group a mapped column names for this row */
  group?: { groupid: number; groupname: string };
  /** the row's own credential and course values (dates already ISO), over those for the whole file */
  own?: { startdate?: string; expirationdate?: string; credentialnumber?: string; duedate?: string };
}

/** The drafts that give one new person the extras: each waits for the create and takes its new id. */
export function extraDrafts(extras: ImportExtras, person: NewPerson): OpDraft[] {
  const after = {
    dependsOn: [person.createId],
    bindings: [{ fromOp: person.createId, field: 'userid' as const }],
  };
  const of = `${person.username} (row ${person.rowNumber})`;
  const drafts: OpDraft[] = [];
  const push = (draft: OpDraft) =>
    drafts.push({ ...draft, targetKey: targetKeyOf(draft.op, person.targetKey) });
  const groups = new Map<number, string>();
  if (person.group) groups.set(person.group.groupid, person.group.groupname);
  if (extras.group) groups.set(extras.group.groupid, extras.group.groupname);
  for (const [groupid, name] of groups) {
    push({
      op: { kind: 'groupAccess.grant', siteid: person.siteid, groupid, userid: 0 },
      ...after,
      summary: `Give ${of} access to the group ${name}`,
    });
  }
  const c = extras.credential;
  if (c) {
    const { duedate: _due, ...ownCredential } = person.own ?? {};
    const fields = Object.fromEntries(
      Object.entries({ ...c.fields, ...ownCredential })
        .filter(([, v]) => v !== undefined && v.trim() !== '')
        .map(([k, v]) => [k, v.trim()]),
    );
    push({
      op: { kind: 'credentialAssignment.create', credentialid: c.credentialid, userid: 0, fields },
      ...after,
      summary: `Assign the credential ${c.credentialname} to ${of}`,
    });
  }
  const course = extras.course;
  if (course) {
    push({
      op: {
        kind: 'trainingAssignment.create',
        userid: 0,
        courseid: course.courseid,
        fields:
          person.own?.duedate || course.duedate ? { duedate: person.own?.duedate || course.duedate! } : {},
      },
      ...after,
      summary: `Assign the course ${course.coursename} to ${of}`,
    });
  }
  return drafts;
}
