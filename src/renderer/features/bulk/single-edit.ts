/**
 * Single-record edits from the detail views, as outbox drafts: only the fields
 * that change are sent, with the base values they were made from. Pure.
 */
import type {
  CredentialAssignmentRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../../shared/records.ts';
import { toIsoDate } from '../../../shared/dates.ts';
import type { OpDraft } from '../../../shared/replay-queue/queue.ts';

export const USER_EDIT_FIELDS = ['firstname', 'lastname', 'username', 'employeeid', 'status'] as const;
export type UserEditField = (typeof USER_EDIT_FIELDS)[number];

const differs = (a: string, b: string) => a.trim() !== b.trim();

/** A user.update with the changed fields, or null when nothing changes. */
export function userEditDraft(
  user: UserRecord,
  values: Partial<Record<UserEditField, string>>,
): OpDraft | null {
  const changes: Partial<Record<UserEditField, string>> = {};
  const base: Record<string, string> = {};
  for (const field of USER_EDIT_FIELDS) {
    const next = values[field];
    if (next === undefined || !differs(next, user[field])) continue;
    changes[field] = next.trim();
    base[field] = user[field];
  }
  if (Object.keys(changes).length === 0) return null;
  const who = `${user.firstname} ${user.lastname}`.trim() || user.username;
  return {
    op: { kind: 'user.update', userid: user.userid, changes },
    base,
    summary: `${who}: ${Object.entries(changes)
      .map(([f, v]) => `${f} → ${v}`)
      .join(', ')}`,
  };
}

export const ASSIGNMENT_EDIT_FIELDS = [
  'startdate',
  'expirationdate',
  'credentialnumber',
  'notes',
  'status',
] as const;
export type AssignmentEditField = (typeof ASSIGNMENT_EDIT_FIELDS)[number];

/** A credentialAssignment.update with what changed (dates compared by day), or null. */
export function credentialAssignmentEditDraft(
  assignment: CredentialAssignmentRecord,
  values: Partial<Record<AssignmentEditField, string>>,
  label: string,
): OpDraft | null {
  const changes: Partial<Record<AssignmentEditField, string>> = {};
  const base: Record<string, string> = {};
  for (const field of ASSIGNMENT_EDIT_FIELDS) {
    const next = values[field];
    if (next === undefined) continue;
    const current = assignment[field];
    const same = field.endsWith('date') ? toIsoDate(next) === toIsoDate(current) : !differs(next, current);
    if (same) continue;
    changes[field] = next.trim();
    base[field] = current;
  }
  if (Object.keys(changes).length === 0) return null;
  return {
    op: {
      kind: 'credentialAssignment.update',
      credentialid: assignment.credentialid,
      userid: assignment.userid,
      changes,
    },
    base,
    summary: `${label}: ${Object.entries(changes)
      .map(([f, v]) => `${f} → ${v}`)
      .join(', ')}`,
  };
}

/** The removal records the assignment's dates, number and notes: an undo after apply re-creates it from them. */
export function credentialAssignmentDeleteDraft(
  assignment: CredentialAssignmentRecord,
  label: string,
): OpDraft {
  const { startdate, expirationdate, credentialnumber, notes } = assignment;
  return {
    op: {
      kind: 'credentialAssignment.delete',
      credentialid: assignment.credentialid,
      userid: assignment.userid,
    },
    base: { startdate, expirationdate, credentialnumber, notes },
    summary: `${label}: remove`,
  };
}

/** A trainingAssignment.update (due date, start date, course status), or null. */
export function trainingEditDraft(
  t: TrainingAssignmentRecord,
  values: { duedate?: string; startdate?: string; coursestatus?: string },
  label: string,
): OpDraft | null {
  const changes: { duedate?: string; startdate?: string; coursestatus?: string } = {};
  const base: Record<string, string> = {};
  if (values.duedate !== undefined && toIsoDate(values.duedate) !== t.dueIso) {
    changes.duedate = values.duedate;
    base['duedate'] = t.due_date;
  }
  if (values.startdate !== undefined && toIsoDate(values.startdate) !== t.startIso) {
    changes.startdate = values.startdate;
    base['startdate'] = t.start_date;
  }
  if (values.coursestatus !== undefined && differs(values.coursestatus, t.course_status)) {
    changes.coursestatus = values.coursestatus;
    base['coursestatus'] = t.course_status;
  }
  if (Object.keys(changes).length === 0) return null;
  return {
    op: { kind: 'trainingAssignment.update', transcriptid: t.transcriptid, changes },
    base,
    summary: `${label}: ${Object.entries(changes)
      .map(([f, v]) => `${f} → ${v}`)
      .join(', ')}`,
  };
}

/** The removal records whose assignment of which course it was, and its dates: an undo after apply assigns it again. */
export function trainingDeleteDraft(t: TrainingAssignmentRecord, label: string): OpDraft {
  return {
    op: { kind: 'trainingAssignment.delete', transcriptid: t.transcriptid },
    base: { userid: t.userid, courseid: t.courseid, duedate: t.due_date, startdate: t.start_date },
    summary: `${label}: remove`,
  };
}
