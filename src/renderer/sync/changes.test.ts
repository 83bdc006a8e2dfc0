import { describe, expect, it } from 'vitest';
import { credentialAssignment, trainingAssignment } from '../testing/fixtures.ts';
import { removalChanges } from './changes.ts';

describe('what a complete pass removed, as the log keeps it', () => {
  it('keeps a removed credential’s expiry: whether its holder stood on it before', () => {
    expect(removalChanges('credentialAssignments', [credentialAssignment(5, 1, '06/30/2027')])).toEqual([
      { k: 'credential.removed', u: 1, d: 'credential 5', e: '2027-06-30' },
    ]);
  });

  it('logs removed training with its due date, none when it was done', () => {
    const open = trainingAssignment(9, 1, 7, '2026-12-01');
    const done = trainingAssignment(10, 1, 8, '2026-01-01', { course_status: 'Completed' });
    expect(removalChanges('trainingAssignments', [open, done])).toEqual([
      { k: 'training.removed', u: 1, d: 'course 7', e: '2026-12-01' },
      { k: 'training.removed', u: 1, d: 'course 8', e: '' },
    ]);
  });
});
