import { describe, expect, it } from 'vitest';
import { outboxOp } from '../../../shared/testing/test-ops.ts';
import { reverseOp } from '../../../shared/undo/reverse.ts';
import { NO_NAMES, type OpNames } from '../outbox/describe.ts';
import { compareWords, queueButtonText, undoStepWords } from './words.ts';

const names: OpNames = { ...NO_NAMES, users: new Map([[7, 'Priya Costa']]), credentials: new Map([[3, 'Rigging']]) };

function stepOf(op: ReturnType<typeof outboxOp>) {
  const reversal = reverseOp(op);
  if (reversal.kind !== 'reverse') throw new Error('expected a reversal');
  return reversal.step;
}

describe('the undo preview says what the undo will do', () => {
  it("reads in the undo's direction: undoing Active → Inactive sets Inactive → Active", () => {
    const done = outboxOp({ kind: 'user.update', userid: 7, changes: { status: 'Inactive' } }, { status: 'done', base: { status: 'Active' } });
    expect(undoStepWords(stepOf(done), names, done)).toBe('Priya Costa: status Inactive → Active');
  });

  it('names each field as a person would, dates as dates', () => {
    const done = outboxOp(
      { kind: 'credentialAssignment.update', credentialid: 3, userid: 7, changes: { expirationdate: '2027-11-02', credentialnumber: 'R-2' } },
      { status: 'done', base: { expirationdate: '2026-11-02', credentialnumber: 'R-1' } },
    );
    expect(undoStepWords(stepOf(done), names, done)).toBe("Priya Costa's Rigging: expiration date Nov 2, 2027 → Nov 2, 2026, credential number R-2 → R-1");
  });

  it('says a reversal that is not an update as the op it sends', () => {
    const done = outboxOp({ kind: 'credentialAssignment.create', credentialid: 3, userid: 7, fields: { startdate: '2026-11-02' } }, { status: 'done', undoes: 'earlier' });
    expect(undoStepWords(stepOf(done), names, done)).toBe('Remove Rigging from Priya Costa');
  });

  it('compares before / after the batch / now in words', () => {
    expect(compareWords({ field: 'status', base: 'Active', applied: 'Inactive', now: 'Offline' })).toBe('Status: before Active, after the batch Inactive, now Offline');
    expect(compareWords({ field: 'record', base: 'absent', applied: 'present', now: 'absent' })).toBe('Record: before not there, after the batch there, now not there');
  });
});

describe("the undo's main button", () => {
  const state = { online: true, checking: false, checked: true, changes: 3, queued: null };

  it('says what it waits for before the check has answered, never "0 changes"', () => {
    expect(queueButtonText({ ...state, checking: true, checked: false, changes: 0 })).toBe('Checking the server…');
    expect(queueButtonText({ ...state, online: false, checking: true, checked: false, changes: 0 })).toBe('Checking the cache…');
    expect(queueButtonText({ ...state, checked: false, changes: 0 })).toBe('Check the records first');
  });

  it('says how many changes it will queue, or that there is nothing to undo', () => {
    expect(queueButtonText(state)).toBe('Queue the undo (3 changes)');
    expect(queueButtonText({ ...state, changes: 1 })).toBe('Queue the undo (1 change)');
    expect(queueButtonText({ ...state, changes: 0 })).toBe('Nothing to undo');
  });

  it('says it is done once queued', () => {
    expect(queueButtonText({ ...state, queued: 3 })).toBe('Undo queued (3 changes)');
  });
});
