import { describe, expect, it } from 'vitest';
import { assignmentIdFromLink } from './records.ts';
import {
  credentialAssignmentKey,
  credentialAssignmentTargetKey,
  moduleAccessKey,
  userTargetKey,
} from './keys.ts';

describe('composite keys', () => {
  it("keys a credential assignment by the platform's own assignment id, as its link ends", () => {
    const key = credentialAssignmentKey(7, 42);
    expect(assignmentIdFromLink(`https://example.test/credentials/7/assignments/${key}`)).toEqual({
      credentialid: 7,
      userid: 42,
    });
  });

  it("keys a feature grant by the feature's site and id, then the person", () => {
    expect(moduleAccessKey(3, 12, 42)).toBe('3-12-42');
  });

  it('queues the edits of a person created offline under the key of their create', () => {
    expect(userTargetKey(-1, 'user:new:3:ada')).toBe('user:new:3:ada');
    expect(credentialAssignmentTargetKey(7, 'user:new:3:ada')).toBe('credentialAssignment:7-user:new:3:ada');
  });
});
