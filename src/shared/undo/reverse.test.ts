import { describe, expect, it } from 'vitest';
import type { OpSpec } from '../ipc.ts';
import type { BaseValues, OutboxOp } from '../outbox.ts';
import { outboxOp } from '../testing/test-ops.ts';
import { reverseOp, type Reversal, type ReversalStep } from './reverse.ts';

const done = (op: OpSpec, base: BaseValues = {}, extra: Partial<OutboxOp> = {}) =>
  outboxOp(op, { status: 'done', base, summary: 'the change', ...extra });

function stepOf(reversal: Reversal): ReversalStep {
  if (reversal.kind !== 'reverse') throw new Error(`expected a reversal, got: ${reversal.reason}`);
  return reversal.step;
}

describe('the reversal of each kind of operation', () => {
  it('puts a status change back from its base, checking the server still holds the applied status', () => {
    const step = stepOf(
      reverseOp(
        done({ kind: 'user.update', userid: 7, changes: { status: 'Inactive' } }, { status: 'Active' }),
      ),
    );
    expect(step.op).toEqual({ kind: 'user.update', userid: 7, changes: { status: 'Active' } });
    expect(step.base).toEqual({ status: 'Inactive' });
    expect(step.before).toEqual({ present: true, fields: { status: 'Active' } });
    expect(step.applied).toEqual({ present: true, fields: { status: 'Inactive' } });
    expect(step.summary).toBe('Undo: the change');
  });

  it('refuses to put back a field whose before-image was not recorded', () => {
    const reversal = reverseOp(
      done(
        { kind: 'user.update', userid: 7, changes: { status: 'Inactive', firstname: 'Al' } },
        { status: 'Active' },
      ),
    );
    expect(reversal).toMatchObject({ kind: 'irreversible', reason: expect.stringContaining('firstname') });
  });

  it('puts credential assignment and training field changes back', () => {
    const cred = stepOf(
      reverseOp(
        done(
          {
            kind: 'credentialAssignment.update',
            credentialid: 3,
            userid: 7,
            changes: { expirationdate: '12/31/2031' },
          },
          { expirationdate: '06/30/2026' },
        ),
      ),
    );
    expect(cred.op).toEqual({
      kind: 'credentialAssignment.update',
      credentialid: 3,
      userid: 7,
      changes: { expirationdate: '06/30/2026' },
    });
    const training = stepOf(
      reverseOp(
        done(
          { kind: 'trainingAssignment.update', transcriptid: 9, changes: { coursestatus: 'Completed' } },
          { coursestatus: 'Not started' },
        ),
      ),
    );
    expect(training.op).toEqual({
      kind: 'trainingAssignment.update',
      transcriptid: 9,
      changes: { coursestatus: 'Not started' },
    });
  });

  it('revokes a grant and re-grants a revocation, of groups and of features', () => {
    const ids = { siteid: 101, groupid: 5, userid: 7 };
    expect(stepOf(reverseOp(done({ kind: 'groupAccess.grant', ...ids }))).op).toEqual({
      kind: 'groupAccess.revoke',
      ...ids,
    });
    const regrant = stepOf(reverseOp(done({ kind: 'groupAccess.revoke', ...ids })));
    expect(regrant.op).toEqual({ kind: 'groupAccess.grant', ...ids });
    expect(regrant.before.present).toBe(true);
    expect(regrant.applied.present).toBe(false);
    const feature = { siteid: 101, accessID: 4, userid: 7 };
    expect(stepOf(reverseOp(done({ kind: 'moduleAccess.grant', ...feature }))).op).toEqual({
      kind: 'moduleAccess.revoke',
      ...feature,
    });
    expect(stepOf(reverseOp(done({ kind: 'moduleAccess.revoke', ...feature }))).op).toEqual({
      kind: 'moduleAccess.grant',
      ...feature,
    });
  });

  it('removes a created credential assignment, expecting the dates it was given', () => {
    const step = stepOf(
      reverseOp(
        done({
          kind: 'credentialAssignment.create',
          credentialid: 3,
          userid: 7,
          fields: { expirationdate: '06/30/2028', credentialnumber: 'N-1' },
        }),
      ),
    );
    expect(step.op).toEqual({ kind: 'credentialAssignment.delete', credentialid: 3, userid: 7 });
    expect(step.applied).toEqual({
      present: true,
      fields: { expirationdate: '06/30/2028', credentialnumber: 'N-1' },
    });
    expect(step.before).toEqual({ present: false, fields: {} });
    // sent only while the server still holds what the create left (checked again at replay, also after an offline
    // check)
    expect(step.base).toEqual({ expirationdate: '06/30/2028', credentialnumber: 'N-1' });
  });

  it('re-creates a removed credential assignment with its dates and number, and says attachments do not come back', () => {
    const base = {
      startdate: '01/15/2026',
      expirationdate: '06/30/2028',
      credentialnumber: 'N-1',
      notes: '',
    };
    const step = stepOf(
      reverseOp(done({ kind: 'credentialAssignment.delete', credentialid: 3, userid: 7 }, base)),
    );
    expect(step.op).toEqual({
      kind: 'credentialAssignment.create',
      credentialid: 3,
      userid: 7,
      fields: { startdate: '01/15/2026', expirationdate: '06/30/2028', credentialnumber: 'N-1' },
    });
    expect(step.caveat).toMatch(/Attachments/);
  });

  it('cannot re-create a removed assignment whose dates were not recorded', () => {
    expect(reverseOp(done({ kind: 'credentialAssignment.delete', credentialid: 3, userid: 7 })).kind).toBe(
      'irreversible',
    );
  });

  it('removes a created e-mail by the id the server gave it, and cannot without that id', () => {
    const step = stepOf(
      reverseOp(done({ kind: 'email.add', userid: 7, email: 'a@example.test' }, {}, { createdId: 55 })),
    );
    expect(step.op).toEqual({ kind: 'email.remove', userid: 7, emailid: 55 });
    expect(step.applied).toEqual({ present: true, fields: { email: 'a@example.test' } });
    expect(reverseOp(done({ kind: 'email.add', userid: 7, email: 'a@example.test' })).kind).toBe(
      'irreversible',
    );
  });

  it('adds a removed e-mail back when its address was recorded', () => {
    expect(
      stepOf(reverseOp(done({ kind: 'email.remove', userid: 7, emailid: 55 }, { email: 'a@example.test' })))
        .op,
    ).toEqual({ kind: 'email.add', userid: 7, email: 'a@example.test' });
    expect(reverseOp(done({ kind: 'email.remove', userid: 7, emailid: 55 })).kind).toBe('irreversible');
  });

  it('says a created person cannot be deleted, and offers to set them Inactive', () => {
    const reversal = reverseOp(
      done(
        {
          kind: 'user.create',
          siteid: 101,
          fields: { username: 'new.hire', firstname: 'New', lastname: 'Hire' },
        },
        {},
        { createdId: 900 },
      ),
    );
    expect(reversal.kind).toBe('irreversible');
    if (reversal.kind !== 'irreversible') return;
    expect(reversal.reason).toBe('Fieldbook cannot delete a person on the platform: they stay on the site.');
    expect(reversal.offer?.label).toBe('Set Inactive instead');
    expect(reversal.offer?.op).toEqual({ kind: 'user.update', userid: 900, changes: { status: 'Inactive' } });
  });

  it('makes no offer for a created person whose new id is unknown', () => {
    const reversal = reverseOp(
      done({
        kind: 'user.create',
        siteid: 101,
        fields: { username: 'new.hire', firstname: 'New', lastname: 'Hire' },
      }),
    );
    expect(reversal).toMatchObject({ kind: 'irreversible' });
    expect('offer' in reversal && reversal.offer).toBeFalsy();
  });

  it('removes a created training assignment by its transcript id', () => {
    expect(
      stepOf(
        reverseOp(
          done(
            { kind: 'trainingAssignment.create', userid: 7, courseid: 2, fields: {} },
            {},
            { createdId: 31 },
          ),
        ),
      ).op,
    ).toEqual({ kind: 'trainingAssignment.delete', transcriptid: 31 });
    expect(
      reverseOp(done({ kind: 'trainingAssignment.create', userid: 7, courseid: 2, fields: {} })).kind,
    ).toBe('irreversible');
  });

  it('assigns a removed course again from its recorded person, course and dates', () => {
    const step = stepOf(
      reverseOp(
        done(
          { kind: 'trainingAssignment.delete', transcriptid: 31 },
          { userid: 7, courseid: 2, duedate: '2030-03-01' },
        ),
      ),
    );
    expect(step.op).toEqual({
      kind: 'trainingAssignment.create',
      userid: 7,
      courseid: 2,
      fields: { duedate: '2030-03-01' },
    });
    expect(step.caveat).toMatch(/progress/);
    expect(reverseOp(done({ kind: 'trainingAssignment.delete', transcriptid: 31 })).kind).toBe(
      'irreversible',
    );
  });
});
