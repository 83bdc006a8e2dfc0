/**
 * The compliance state of a credential assignment or a training assignment on a
 * given day: pure, so every view and every test agrees on the buckets.
 */
import type { CredentialAssignmentRecord, TrainingAssignmentRecord } from '../../shared/records.ts';
import { addDaysIso } from '../../shared/dates.ts';

export type CredentialState = 'valid' | 'expiring' | 'expired' | 'missing-dates';

export const CREDENTIAL_STATE_LABEL: Record<CredentialState, string> = {
  valid: 'Valid',
  expiring: 'Expiring soon',
  expired: 'Expired',
  'missing-dates': 'Missing dates',
};

/**
 * `expiring`: expires today or within `soonDays` days. An assignment with no
 * readable expiration date is `missing-dates` unless its credential does not
 * require one (then it never expires).
 */
export function credentialState(
  a: Pick<CredentialAssignmentRecord, 'expirationIso' | 'startIso' | 'startdate' | 'expirationdate'>,
  today: string,
  soonDays: number,
  requires: { start?: boolean; expiration?: boolean } = { expiration: true },
): CredentialState {
  if (requires.start && !a.startIso) return 'missing-dates';
  if (!a.expirationIso) return requires.expiration === false && !a.expirationdate ? 'valid' : 'missing-dates';
  if (a.expirationIso < today) return 'expired';
  if (a.expirationIso <= addDaysIso(today, soonDays)) return 'expiring';
  return 'valid';
}

export type TrainingState = 'done' | 'overdue' | 'due-soon' | 'on-track' | 'no-due-date';

export const TRAINING_STATE_LABEL: Record<TrainingState, string> = {
  done: 'Done',
  overdue: 'Overdue',
  'due-soon': 'Due soon',
  'on-track': 'On track',
  'no-due-date': 'No due date',
};

/** Completed training is done whatever its due date. */
export function isTrainingDone(t: Pick<TrainingAssignmentRecord, 'course_status'>): boolean {
  return t.course_status.trim().toLowerCase() === 'completed';
}

export function trainingState(
  t: Pick<TrainingAssignmentRecord, 'course_status' | 'dueIso'>,
  today: string,
  soonDays: number,
): TrainingState {
  if (isTrainingDone(t)) return 'done';
  if (!t.dueIso) return 'no-due-date';
  if (t.dueIso < today) return 'overdue';
  if (t.dueIso <= addDaysIso(today, soonDays)) return 'due-soon';
  return 'on-track';
}
