/** An assignment's status is chosen among those the platform accepts, in words, never typed. */
import { describe, expect, it } from 'vitest';
import {
  COURSE_STATUSES,
  CREDENTIAL_ASSIGNMENT_STATUSES,
  statusChoices,
  statusWords,
} from './status-choices.ts';
import { credentialAssignmentEditDraft } from './single-edit.ts';
import { credentialAssignment } from '../../testing/fixtures.ts';

describe('the status of a credential assignment', () => {
  it('offers the status the platform accepts, in words, sent as the platform writes it', () => {
    expect(statusChoices(CREDENTIAL_ASSIGNMENT_STATUSES, 'active')).toEqual([
      { value: 'active', label: 'Active' },
    ]);
  });

  it("keeps a record's own status that is none of them first, as it is, so opening the form changes nothing", () => {
    expect(statusChoices(CREDENTIAL_ASSIGNMENT_STATUSES, 'pending review')).toEqual([
      { value: 'pending review', label: 'Pending review' },
      { value: 'active', label: 'Active' },
    ]);
    expect(statusChoices(CREDENTIAL_ASSIGNMENT_STATUSES, '')).toEqual([
      { value: '', label: '(none)' },
      { value: 'active', label: 'Active' },
    ]);
  });

  it('keeps the record\'s spelling of a known status: "Active" chosen as it was queues nothing', () => {
    const held = credentialAssignment(7, 1, '2027-01-01', { status: 'Active' });
    const [choice] = statusChoices(CREDENTIAL_ASSIGNMENT_STATUSES, held.status);
    expect(choice).toEqual({ value: 'Active', label: 'Active' });
    expect(credentialAssignmentEditDraft(held, { status: choice!.value }, 'Rigging')).toBeNull();
  });

  it('queues the status chosen instead of an unknown one', () => {
    const held = credentialAssignment(7, 1, '2027-01-01', { status: 'pending review' });
    expect(credentialAssignmentEditDraft(held, { status: 'active' }, 'Rigging')?.op).toMatchObject({
      changes: { status: 'active' },
    });
  });
});

describe('the status of a training assignment', () => {
  it('offers active, completed and inactive, in words', () => {
    expect(statusChoices(COURSE_STATUSES, 'completed').map((c) => c.label)).toEqual([
      'Active',
      'Completed',
      'Inactive',
    ]);
    expect(statusWords('inactive')).toBe('Inactive');
  });
});
